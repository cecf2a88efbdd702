function __toast_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __toast_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __toast_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __toast_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __toast_parse_tokens -S
    set -l unparsed_tokens (__toast_tokens -pc)
    switch $unparsed_tokens[1]
    case 'toast'
        __toast_parse_subcommand 0 'version' 'help'
        switch $unparsed_tokens[1]
        case 'send'
            __toast_parse_subcommand 2 'u/urgency=' 't/expire-time=' 'i/icon=' 'a/app-name=' 'c/category=' 'h/hint=+' 'A/action=+' 'w/wait' 'p/print-id' 'json' 'r/replace-id=' 'e/transient' 'tag=' 'value=' 'version' 'help'
        case 'dismiss'
            __toast_parse_subcommand -r 1 'a/all' 'version' 'help'
        case 'list'
            __toast_parse_subcommand 0 'json' 'version' 'help'
        case 'history'
            __toast_parse_subcommand 0 'json' 'n/limit=' 'version' 'help'
            switch $unparsed_tokens[1]
            case 'clear'
                __toast_parse_subcommand 0 'version' 'help'
            end
        case 'restore'
            __toast_parse_subcommand 1 'version' 'help'
        case 'action'
            __toast_parse_subcommand -r 1 'version' 'help'
        case 'menu'
            __toast_parse_subcommand -r 1 'version' 'help'
        case 'dnd'
            __toast_parse_subcommand 1 'for=' 'until=' 'version' 'help'
        case 'mode'
            __toast_parse_subcommand 0 's/set=+' 'a/add=+' 'r/remove=+' 't/toggle=+' 'for=' 'until=' 'version' 'help'
        case 'status'
            __toast_parse_subcommand 0 'json' 'follow' 'waybar' 'version' 'help'
        case 'reload'
            __toast_parse_subcommand 0 'version' 'help'
        case 'version'
            __toast_parse_subcommand 0 'version' 'help'
        case 'hud'
            __toast_parse_subcommand 2 'stream' 'muted' 'custom' 'label=' 'icon=' 'version' 'help'
        case 'osd'
            __toast_parse_subcommand -r 1 'sink=' 'source=' 'device=' 'leds=' 'max=' 'version' 'help'
        case 'loading'
            __toast_parse_subcommand 0 'version' 'help'
            switch $unparsed_tokens[1]
            case 'start'
                __toast_parse_subcommand 1 'label=' 'detach' 'version' 'help'
            case 'stop'
                __toast_parse_subcommand 1 'version' 'help'
            case 'run'
                __toast_parse_subcommand -r 2 'label=' 'version' 'help'
            end
        case 'migrate'
            __toast_parse_subcommand 0 'version' 'help'
            switch $unparsed_tokens[1]
            case 'dunstrc'
                __toast_parse_subcommand 1 'o/output=' 'force' 'version' 'help'
            end
        case 'setup'
            __toast_parse_subcommand 0 'undo' 'version' 'help'
        case 'center'
            __toast_parse_subcommand 0 'open' 'close' 'version' 'help'
        case 'reply'
            __toast_parse_subcommand -r 1 'version' 'help'
        case 'alert'
            __toast_parse_subcommand 2 'A/action=+' 'timeout=' 'version' 'help'
        case 'focus'
            __toast_parse_subcommand 0 'version' 'help'
        case 'help'
            __toast_parse_subcommand -r 1 'version'
        end
    end
end

function __toast_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __toast_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __toast_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __toast_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__toast_tokens -p)
    if test -z "$(__toast_tokens -t)"
        set -l index (count (__toast_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'toast' -f
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'send' -d 'Show a toast (the default command: `toast SUMMARY [BODY]`).'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'dismiss' -d 'Close toasts by id, all of them, or (without ids) the newest one.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'list' -d 'List the toasts showing now.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'history' -d 'List recently closed toasts, newest first.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'restore' -d 'Bring back a closed toast (the most recent without ID) and print its id.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'action' -d 'Invoke a toast\'s action, as if clicked (the newest toast without ID, the default action without KEY).'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'menu' -d 'Choose one of the newest toast\'s actions with a picker and invoke it.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'dnd' -d 'Turn do-not-disturb on or off, toggle it, or show it; prints the state (on/off).'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'mode' -d 'Show the modes on, or set, add, remove or toggle them; prints the modes on, one a line.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'status' -d 'Print how many toasts are open, hidden and in the history, do-not-disturb, and loading keys.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'reload' -d 'Make toastd reread its configuration file; print its problems.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'version' -d 'Print the versions of toast, of toastd and of the protocol.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'hud' -d 'Show a HUD bar (volume, brightness, ...) at a value in percent.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'osd' -d 'Change the volume, microphone or brightness and show it; show a lock key; control the media player.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'loading' -d 'Show or hide a loading spinner.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'migrate' -d 'Convert another notification daemon\'s configuration to toastd\'s.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'setup' -d 'Make D-Bus start toastd for notifications (user-level service files); --undo removes them.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'center' -d 'Open or close the notification center (flip it without a flag).'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'reply' -d 'Answer a toast that takes a reply (the newest such toast without ID); it closes.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'alert' -d 'Ask with a centred dialog that takes the keyboard until answered; print the chosen key.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'focus' -d 'Give the newest toast the keyboard: Enter invokes, Tab chooses a button, Escape gives it back.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" u urgency' -s 'u' -l 'urgency' -d 'The urgency level: low, normal or critical.' -rfka 'low normal critical'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" expire-time t' -s 't' -l 'expire-time' -d 'Milliseconds until the toast expires (0: never; default: the daemon\'s).' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" i icon' -s 'i' -l 'icon' -d 'An icon name or path.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" a app-name' -s 'a' -l 'app-name' -d 'The application name.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" c category' -s 'c' -l 'category' -d 'The notification category.' -rfka 'device device.added device.error device.removed email email.arrived email.bounced im im.error im.received network network.connected network.disconnected network.error presence presence.offline presence.online transfer transfer.complete transfer.error'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send"' -s 'h' -l 'hint' -d 'A typed hint: TYPE:NAME:VALUE, TYPE one of int, double, string, byte, boolean.' -rfka 'string:sound-name: string:sound-file: boolean:suppress-sound:true boolean:transient:true boolean:resident:true int:value: string:desktop-entry: string:image-path: string:x-dunst-stack-tag: string:x-canonical-private-synchronous: string:x-kde-reply-placeholder-text:'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send"' -s 'A' -l 'action' -d 'An action button, [NAME=]Text (NAME defaults to its index from 0). Implies --wait.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" w wait' -s 'w' -l 'wait' -d 'Wait until the toast closes; print the action key or the close reason.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" p print-id' -s 'p' -l 'print-id' -d 'Print the toast\'s id.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" json' -l 'json' -d 'With --wait: print the outcome as a JSON object, with the activation token if the app got one.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" r replace-id' -s 'r' -l 'replace-id' -d 'Replace the toast with this id, in place.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" e transient' -s 'e' -l 'transient' -d 'Do not keep the toast in history.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" tag' -l 'tag' -d 'Replace the toast with the same tag, in place.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" value' -l 'value' -d 'Show a progress bar at this value (0-100).' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast send" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast dismiss" a all' -s 'a' -l 'all' -d 'Close every toast.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast dismiss" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast dismiss" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast list" json' -l 'json' -d 'Print the toasts as a JSON array.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast list" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast list" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast history" json' -l 'json' -d 'Print the toasts as a JSON array.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast history" limit n' -s 'n' -l 'limit' -d 'List only the newest N.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast history" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast history" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast history" -eq 1' -fa 'clear' -d 'Forget every closed toast (the history file too).'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast history clear" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast history clear" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast restore" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast restore" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast action" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast action" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast menu" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast menu" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast dnd" -eq 1' -fka 'on off toggle status'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast dnd" for' -l 'for' -d 'End it after this long: 30m, 2h, 1h30m, 45s.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast dnd" until' -l 'until' -d 'End it at the next such time of day (local): 09:00.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast dnd" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast dnd" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast mode"' -s 's' -l 'set' -d 'Turn on exactly these modes.' -rfka 'do-not-disturb default'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast mode"' -s 'a' -l 'add' -d 'Turn a mode on.' -rfka 'do-not-disturb default'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast mode"' -s 'r' -l 'remove' -d 'Turn a mode off.' -rfka 'do-not-disturb default'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast mode"' -s 't' -l 'toggle' -d 'Turn a mode on if it is off, off if it is on.' -rfka 'do-not-disturb default'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast mode" for' -l 'for' -d 'End it after this long: 30m, 2h, 1h30m, 45s.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast mode" until' -l 'until' -d 'End it at the next such time of day (local): 09:00.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast mode" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast mode" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast status" json' -l 'json' -d 'Print a JSON object: open, hidden, history, dnd, loading.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast status" follow' -l 'follow' -d 'Keep printing a line per change.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast status" waybar' -l 'waybar' -d 'Print waybar\'s custom-module JSON (text, alt, tooltip, class).'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast status" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast status" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast reload" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast reload" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast version" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast version" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast hud" -eq 1' -fka 'volume mic brightness keyboard-brightness audio speaker sound microphone input display backlight screen'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast hud" stream' -l 'stream' -d 'Read values from standard input, one per line.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast hud" muted' -l 'muted' -d 'Show the bar as muted.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast hud" custom' -l 'custom' -d 'KIND is a bar of your own (any name, shown with its name as title and icon).'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast hud" label' -l 'label' -d 'A text label.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast hud" icon' -l 'icon' -d 'An icon name or path.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast hud" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast hud" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast osd" sink' -l 'sink' -d 'The sound server\'s sink (volume) instead of the default one.' -rfka '(pactl list short sinks 2>/dev/null | cut -f2)'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast osd" source' -l 'source' -d 'The sound server\'s source (mic) instead of the default one.' -rfka '(pactl list short sources 2>/dev/null | cut -f2)'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast osd" device' -l 'device' -d 'The backlight (/sys/class/backlight/NAME) instead of the first one.' -rfka '(ls /sys/class/backlight 2>/dev/null)'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast osd" leds' -l 'leds' -d 'An LED device\'s brightness (/sys/class/leds/NAME, a keyboard backlight).' -rfka '(ls /sys/class/leds 2>/dev/null)'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast osd" max' -l 'max' -d 'The highest volume a step or set reaches, in percent (default: volume-max).' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast osd" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast osd" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast loading" -eq 1' -fa 'start' -d 'Start a loading spinner named KEY.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast loading" -eq 1' -fa 'stop' -d 'Stop the loading spinner named KEY.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast loading" -eq 1' -fa 'run' -d 'Run a command with a loading spinner named KEY showing while it runs.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading start" label' -l 'label' -d 'A text label.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading start" detach' -l 'detach' -d 'Return at once; the spinner stays until `toast loading stop KEY`.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading start" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading start" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading stop" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading stop" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading run" label' -l 'label' -d 'A text label.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading run" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast loading run" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast migrate" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast migrate" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast migrate" -eq 1' -fa 'dunstrc' -d 'Print a dunstrc as toastd\'s configuration; what cannot be carried over becomes comments.'
complete -c 'toast' -n '__toast_should_offer_completions_for_positional "toast migrate dunstrc" -eq 1' -F
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast migrate dunstrc" o output' -s 'o' -l 'output' -d 'Write to this file instead of standard output.' -rF
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast migrate dunstrc" force' -l 'force' -d 'With -o: replace the file if it exists.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast migrate dunstrc" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast migrate dunstrc" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast setup" undo' -l 'undo' -d 'Remove the service files an earlier `toast setup` wrote.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast setup" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast setup" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast center" open' -l 'open' -d 'Open it (nothing happens when it is open).'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast center" close' -l 'close' -d 'Close it (nothing happens when it is closed).'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast center" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast center" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast reply" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast reply" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast alert"' -s 'A' -l 'action' -d 'A button, KEY=Label (KEY defaults to its index from 0); default: ok=OK.' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast alert" timeout' -l 'timeout' -d 'Give up after this many seconds (exit status 1).' -rfka ''
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast alert" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast alert" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast focus" version' -l 'version' -d 'Show the version.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast focus" help' -l 'help' -d 'Show help information.'
complete -c 'toast' -n '__toast_should_offer_completions_for_flags_or_options "toast help" version' -l 'version' -d 'Show the version.'