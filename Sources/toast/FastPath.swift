import ToastProtocol
import ToastVocabulary

/// A second, deliberately small parser for the command lines scripts and key bindings run most often —
/// `toast [send] [flags] SUMMARY [BODY]`, `toast hud KIND VALUE [flags]`, `toast loading start|stop
/// KEY` — so they start without ArgumentParser.
///
/// It accepts only plain, well-formed uses of those two commands and returns nil for anything else
/// (help, other verbs, `--`, combined short flags, repeated options, any invalid value), which then goes
/// through ArgumentParser and gets its usual errors. Tests check that whenever this parser answers,
/// ArgumentParser gives the same result.
enum FastPath {
    enum Command: Equatable {
        case send(NotifyParams, printID: Bool)
        case hud(HudParams)
        case loading(Request)

        func run() throws(ClientFailure) {
            switch self {
            case .send(let params, let printID): try Send.send(params, printID: printID)
            case .hud(let params): _ = try Connection().call(.hud(params))
            case .loading(let request): try Loading.send(request)
            }
        }
    }

    /// Subcommand names: a first positional equal to one of these is a verb, not a summary.
    /// (Switches rather than sets and dictionaries: no generic metadata to instantiate at startup.)
    static func isVerb(_ word: String) -> Bool {
        switch word {
        case "send", "dismiss", "list", "history", "restore", "action", "menu", "dnd", "mode", "status", "reload", "version", "hud", "loading", "migrate", "osd", "help",
             "setup", "invoke", "center", "reply", "alert", "focus":
            true
        default: false
        }
    }

    static func parse(_ arguments: [String]) -> Command? {
        guard let first = arguments.first else { return nil }
        if first == "hud" { return parseHud(arguments.dropFirst()) }
        // `osd`'s words (`+5%`, `-5%`, `set 40%`) are read by its own parser, through ArgumentParser.
        if first == "osd" { return nil }
        if first == "loading" { return parseLoading(arguments.dropFirst()) }
        if first == "send" { return parseSend(arguments.dropFirst()) }
        return parseSend(arguments[...])
    }

    /// Splits `--name=value`, `--name value`, `-n value` and flags; nil on anything unusual.
    private struct Tokens {
        // Options as two arrays of names and values, not one of (name, value) pairs: the metadata of
        // an array of a tuple type is made at run time, a cost at every start.
        var optionNames: [String] = []
        var optionValues: [String] = []
        var flags: [String] = []
        var hints: [String] = []
        var actions: [String] = []
        var positionals: [String] = []

        func option(_ name: String) -> String? { optionNames.firstIndex(of: name).map { optionValues[$0] } }
        func flag(_ name: String) -> Bool { flags.contains(name) }
    }

    private static func tokenize(_ arguments: ArraySlice<String>, options: (String) -> String?,
                                 flags: (String) -> String?) -> Tokens? {
        var t = Tokens()
        var i = arguments.startIndex
        while i < arguments.endIndex {
            let arg = arguments[i]
            i += 1
            guard arg.hasPrefix("-") else {
                t.positionals.append(arg)
                continue
            }
            var name = arg, inlineValue: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            if let canonical = flags(name), inlineValue == nil {
                guard !t.flag(canonical) else { return nil }
                t.flags.append(canonical)
                continue
            }
            guard let canonical = options(name) else { return nil }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.endIndex, !arguments[i].hasPrefix("-") else { return nil }
                value = arguments[i]
                i += 1
            }
            switch canonical {
            case "hint": t.hints.append(value)
            case "action": t.actions.append(value)
            default:
                guard t.option(canonical) == nil else { return nil }
                t.optionNames.append(canonical)
                t.optionValues.append(value)
            }
        }
        return t
    }

    /// The canonical name of a `send` option taking a value.
    private static func sendOption(_ name: String) -> String? {
        switch name {
        case "-u", "--urgency": "urgency"
        case "-t", "--expire-time": "expire-time"
        case "-i", "--icon": "icon"
        case "-a", "--app-name": "app-name"
        case "-c", "--category": "category"
        case "-h", "--hint": "hint"
        case "-A", "--action": "action"
        case "-r", "--replace-id": "replace-id"
        case "--tag": "tag"
        case "--value": "value"
        default: nil
        }
    }

    /// The canonical name of a `send` flag.
    private static func sendFlag(_ name: String) -> String? {
        switch name {
        case "-w", "--wait": "wait"
        case "-p", "--print-id": "print-id"
        case "-e", "--transient": "transient"
        default: nil
        }
    }

    static func parseSend(_ arguments: ArraySlice<String>) -> Command? {
        guard let t = tokenize(arguments, options: sendOption, flags: sendFlag),
              (1...2).contains(t.positionals.count), !isVerb(t.positionals[0]) else { return nil }
        var p = NotifyParams(summary: t.positionals[0], body: t.positionals.count > 1 ? t.positionals[1] : nil)
        if let u = t.option("urgency") {
            guard let urgency = Urgency(rawValue: u) else { return nil }
            p.urgency = urgency
        }
        if let text = t.option("expire-time") {
            guard let ms = Int32(text), ms >= -1 else { return nil }
            p.expireMs = ms
        }
        p.icon = t.option("icon")
        p.appName = t.option("app-name")
        p.category = t.option("category")
        for spec in t.hints {
            guard case .success(let h) = Hint.parse(spec) else { return nil }
            if let i = p.hints.firstIndex(where: { $0.name == h.name }) { p.hints[i] = h } else { p.hints.append(h) }
        }
        for (i, spec) in t.actions.enumerated() {
            let a = NotificationAction.parse(spec, index: i)
            if let j = p.actions.firstIndex(where: { $0.key == a.key }) { p.actions[j] = a } else { p.actions.append(a) }
        }
        if let text = t.option("replace-id") {
            guard let id = UInt32(text) else { return nil }
            p.replaceID = id == 0 ? nil : id
        }
        if let tag = t.option("tag") {
            guard !tag.isEmpty else { return nil }
            p.tag = tag
        }
        if let text = t.option("value") {
            guard let v = Int(text), NotifyParams.valueRange.contains(v) else { return nil }
            p.value = v
        }
        p.transient = t.flag("transient")
        p.wait = t.flag("wait") || !p.actions.isEmpty
        return .send(p, printID: t.flag("print-id"))
    }

    /// A negative VALUE (`hud volume -5`) looks like an option here and falls back to ArgumentParser,
    /// which clamps it to 0 and prints the warning; so does a KIND toastd does not know (refused, or
    /// taken with `--custom`).
    static func parseHud(_ arguments: ArraySlice<String>) -> Command? {
        guard let t = tokenize(arguments, options: { $0 == "--label" || $0 == "--icon" ? String($0.dropFirst(2)) : nil },
                               flags: { $0 == "--muted" ? "muted" : nil }),
              t.positionals.count == 2, HudKinds.kind(named: t.positionals[0]) != nil,
              let value = HudStreamLine.percent(Substring(t.positionals[1])), HudParams.valueRange.contains(value)
        else { return nil }
        return .hud(HudParams(kind: t.positionals[0], value: value, muted: t.flag("muted"),
                              label: t.option("label"), icon: t.option("icon")))
    }

    static func parseLoading(_ arguments: ArraySlice<String>) -> Command? {
        guard let verb = arguments.first, verb == "start" || verb == "stop",
              let t = tokenize(arguments.dropFirst(),
                               options: { verb == "start" && $0 == "--label" ? "label" : nil },
                               flags: { verb == "start" && $0 == "--detach" ? "detach" : nil }),
              t.positionals.count == 1, !t.positionals[0].isEmpty else { return nil }
        let key = t.positionals[0]
        return .loading(verb == "start" ? .loadingStart(key: key, label: t.option("label"), detach: t.flag("detach"))
                                        : .loadingStop(key: key))
    }
}
