#!/bin/bash

__toast_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__toast_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__toast_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__toast_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_toast() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __toast_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    send|dismiss|list|history|restore|action|menu|dnd|mode|status|reload|version|hud|osd|loading|migrate|setup|center|reply|alert|focus|help)
        # Offer subcommand argument completions
        "_toast_${subcommand}"
        ;;
    *)
        # send is the default verb: after a flag or a summary, complete as send does.
        if [[ "${cur}" == -* || ( "${COMP_CWORD}" -gt 1 && ( "${COMP_WORDS[1]}" == -* || -n "${subcommand}" ) ) ]]; then
            COMPREPLY=()
            unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
            _toast_send
            return
        fi
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'send dismiss list history restore action menu dnd mode status reload version hud osd loading migrate setup center reply alert focus help' -- "${cur}"))
        ;;
    esac
}

_toast_send() {
    repeating_flags=()
    non_repeating_flags=(-w --wait -p --print-id --json -e --transient --version --help)
    repeating_options=(-h --hint -A --action)
    non_repeating_options=(-u --urgency -t --expire-time -i --icon -a --app-name -c --category -r --replace-id --tag --value)
    __toast_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '-u'|'--urgency')
        __toast_add_completions -W 'low'$'\n''normal'$'\n''critical'
        return
        ;;
    '-t'|'--expire-time')
        return
        ;;
    '-i'|'--icon')
        return
        ;;
    '-a'|'--app-name')
        return
        ;;
    '-c'|'--category')
        __toast_add_completions -W 'device'$'\n''device.added'$'\n''device.error'$'\n''device.removed'$'\n''email'$'\n''email.arrived'$'\n''email.bounced'$'\n''im'$'\n''im.error'$'\n''im.received'$'\n''network'$'\n''network.connected'$'\n''network.disconnected'$'\n''network.error'$'\n''presence'$'\n''presence.offline'$'\n''presence.online'$'\n''transfer'$'\n''transfer.complete'$'\n''transfer.error'
        return
        ;;
    '-h'|'--hint')
        __toast_add_completions -W 'string:sound-name:'$'\n''string:sound-file:'$'\n''boolean:suppress-sound:true'$'\n''boolean:transient:true'$'\n''boolean:resident:true'$'\n''int:value:'$'\n''string:desktop-entry:'$'\n''string:image-path:'$'\n''string:x-dunst-stack-tag:'$'\n''string:x-canonical-private-synchronous:'$'\n''string:x-kde-reply-placeholder-text:'
        return
        ;;
    '-A'|'--action')
        return
        ;;
    '-r'|'--replace-id')
        return
        ;;
    '--tag')
        return
        ;;
    '--value')
        return
        ;;
    esac
}

_toast_dismiss() {
    repeating_flags=()
    non_repeating_flags=(-a --all --version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options -1
}

_toast_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0
}

_toast_history() {
    repeating_flags=()
    non_repeating_flags=(--json --version --help)
    repeating_options=()
    non_repeating_options=(-n --limit)
    __toast_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '-n'|'--limit')
        return
        ;;
    esac

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    clear)
        # Offer subcommand argument completions
        "_toast_history_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'clear' -- "${cur}"))
        ;;
    esac
}

_toast_history_clear() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0
}

_toast_restore() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 1
}

_toast_action() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options -1
}

_toast_menu() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options -1
}

_toast_dnd() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=(--for --until)
    __toast_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--for')
        return
        ;;
    '--until')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __toast_add_completions -W 'on'$'\n''off'$'\n''toggle'$'\n''status'
        return
        ;;
    esac
}

_toast_mode() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=(-s --set -a --add -r --remove -t --toggle)
    non_repeating_options=(--for --until)
    __toast_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '-s'|'--set')
        __toast_add_completions -W 'do-not-disturb'$'\n''default'
        return
        ;;
    '-a'|'--add')
        __toast_add_completions -W 'do-not-disturb'$'\n''default'
        return
        ;;
    '-r'|'--remove')
        __toast_add_completions -W 'do-not-disturb'$'\n''default'
        return
        ;;
    '-t'|'--toggle')
        __toast_add_completions -W 'do-not-disturb'$'\n''default'
        return
        ;;
    '--for')
        return
        ;;
    '--until')
        return
        ;;
    esac
}

_toast_status() {
    repeating_flags=()
    non_repeating_flags=(--json --follow --waybar --version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0
}

_toast_reload() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0
}

_toast_version() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0
}

_toast_hud() {
    repeating_flags=()
    non_repeating_flags=(--stream --muted --custom --version --help)
    repeating_options=()
    non_repeating_options=(--label --icon)
    __toast_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--label')
        return
        ;;
    '--icon')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __toast_add_completions -W 'volume'$'\n''mic'$'\n''brightness'$'\n''keyboard-brightness'$'\n''audio'$'\n''speaker'$'\n''sound'$'\n''microphone'$'\n''input'$'\n''display'$'\n''backlight'$'\n''screen'
        return
        ;;
    esac
}

_toast_osd() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=(--sink --source --device --leds --max)
    __toast_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--sink')
        __toast_add_completions -W "$(eval 'pactl list short sinks 2>/dev/null | cut -f2')"
        return
        ;;
    '--source')
        __toast_add_completions -W "$(eval 'pactl list short sources 2>/dev/null | cut -f2')"
        return
        ;;
    '--device')
        __toast_add_completions -W "$(eval 'ls /sys/class/backlight 2>/dev/null')"
        return
        ;;
    '--leds')
        __toast_add_completions -W "$(eval 'ls /sys/class/leds 2>/dev/null')"
        return
        ;;
    '--max')
        return
        ;;
    esac
}

_toast_loading() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    start|stop|run)
        # Offer subcommand argument completions
        "_toast_loading_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'start stop run' -- "${cur}"))
        ;;
    esac
}

_toast_loading_start() {
    repeating_flags=()
    non_repeating_flags=(--detach --version --help)
    repeating_options=()
    non_repeating_options=(--label)
    __toast_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--label')
        return
        ;;
    esac
}

_toast_loading_stop() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 1
}

_toast_loading_run() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=(--label)
    __toast_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--label')
        return
        ;;
    esac
}

_toast_migrate() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    dunstrc)
        # Offer subcommand argument completions
        "_toast_migrate_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'dunstrc' -- "${cur}"))
        ;;
    esac
}

_toast_migrate_dunstrc() {
    repeating_flags=()
    non_repeating_flags=(--force --version --help)
    repeating_options=()
    non_repeating_options=(-o --output)
    __toast_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '-o'|'--output')
        __toast_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __toast_add_completions -f
        return
        ;;
    esac
}

_toast_setup() {
    repeating_flags=()
    non_repeating_flags=(--undo --version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0
}

_toast_center() {
    repeating_flags=()
    non_repeating_flags=(--open --close --version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0
}

_toast_reply() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options -1
}

_toast_alert() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=(-A --action)
    non_repeating_options=(--timeout)
    __toast_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '-A'|'--action')
        return
        ;;
    '--timeout')
        return
        ;;
    esac
}

_toast_focus() {
    repeating_flags=()
    non_repeating_flags=(--version --help)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options 0
}

_toast_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __toast_offer_flags_options -1
}

complete -o filenames -F _toast toast