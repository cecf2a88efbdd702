import ArgumentParser
import ToastVocabulary

/// The shell completion scripts: ArgumentParser's, with what its generator does not know of this
/// command line. `send` is the default verb, so a line that starts with a flag or a summary is a
/// `send`: `toast -u <TAB>` completes send's urgencies (the generated bash offered the verbs there,
/// and nothing of send's flags before a verb). zsh and fish are ArgumentParser's as they are.
enum CompletionScript {
    /// What `-h`/`--hint` completes to: the hints toastd reads, each with its type and a value where
    /// only one makes sense.
    static let hintStems = [
        "string:\(HintName.soundName):", "string:\(HintName.soundFile):", "boolean:\(HintName.suppressSound):true",
        "boolean:\(HintName.transient):true", "boolean:\(HintName.resident):true", "int:\(HintName.value):",
        "string:\(HintName.desktopEntry):", "string:\(HintName.imagePath):", "string:\(HintName.dunstStackTag):",
        "string:\(HintName.canonicalSynchronous):", "string:\(HintName.replyPlaceholder):",
    ]

    /// The script for `shell`, as `toast --generate-completion-script SHELL` prints it.
    static func text(for shell: CompletionShell) -> String {
        let generated = Toast.completionScript(for: shell)
        return shell == .bash ? defaultVerbInBash(generated) : generated
    }

    /// The root function's fallback (offer the verbs) runs send's completion instead when the line
    /// already holds a flag or a word that is no verb.
    static func defaultVerbInBash(_ script: String) -> String {
        var lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let root = lines.firstIndex(of: "_toast() {"),
              let fallback = lines[root...].indices.first(where: {
                  lines[$0] == "    *)" && lines.indices.contains($0 + 1) && lines[$0 + 1] == "        # Offer subcommand completions"
              }) else { return script }
        lines.insert(contentsOf: [
            "        # send is the default verb: after a flag or a summary, complete as send does.",
            #"        if [[ "${cur}" == -* || ( "${COMP_CWORD}" -gt 1 && ( "${COMP_WORDS[1]}" == -* || -n "${subcommand}" ) ) ]]; then"#,
            "            COMPREPLY=()",
            #"            unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")"#,
            "            _toast_send",
            "            return",
            "        fi",
        ], at: fallback + 1)
        return lines.joined(separator: "\n")
    }
}
