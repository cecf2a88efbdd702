import ArgumentParser
import ToastProtocol
import ToastVocabulary

/// `toast dismiss [ID... | --all]`: without ids, the newest toast showing (as `makoctl dismiss`).
struct Dismiss: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss", abstract: "Close toasts by id, all of them, or (without ids) the newest one.")

    // -a as makoctl's `dismiss -a`.
    @Flag(name: [.customShort("a"), .long], help: "Close every toast.")
    var all = false

    @Argument(help: "Ids of the toasts to close (none: the newest toast showing).")
    var ids: [UInt32] = []

    mutating func validate() throws {
        if all && !ids.isEmpty { throw ValidationError("give toast ids or --all, not both") }
        if ids.contains(0) { throw ValidationError("toast ids start at 1") }
    }

    var request: Request { all ? .dismiss(.all) : ids.isEmpty ? .dismiss(.newest) : .dismiss(.ids(ids)) }

    func run() throws {
        let request = request
        try reportingFailures { () throws(ClientFailure) in
            _ = try Connection().call(request)
        }
    }
}

/// `toast list [--json]`
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the toasts showing now.")

    @Flag(help: "Print the toasts as a JSON array.")
    var json = false

    func run() throws {
        try reportingFailures { () throws(ClientFailure) in
            try printToasts(try Connection().call(.list), json: json, history: false)
        }
    }
}

/// `toast history [--json] [-n N]` / `toast history clear`
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List recently closed toasts, newest first.",
        subcommands: [Clear.self])

    @Flag(help: "Print the toasts as a JSON array.")
    var json = false

    @Option(name: [.customShort("n"), .long], help: "List only the newest N.")
    var limit: Int?

    mutating func validate() throws {
        if let limit, limit < 0 { throw ValidationError("-n must not be negative") }
    }

    func run() throws {
        let limit = limit
        try reportingFailures { () throws(ClientFailure) in
            var payload = try Connection().call(.history)
            if let limit, case .toasts(let toasts) = payload { payload = .toasts(Array(toasts.prefix(limit))) }
            try printToasts(payload, json: json, history: true)
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Forget every closed toast (the history file too).")

        func run() throws {
            try reportingFailures { () throws(ClientFailure) in
                _ = try Connection().call(.historyClear)
            }
        }
    }
}

/// `toast restore [ID]`
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring back a closed toast (the most recent without ID) and print its id.")

    @Argument(help: "The id of a toast in the history (default: the most recently closed one).")
    var id: UInt32?

    mutating func validate() throws {
        if id == 0 { throw ValidationError("toast ids start at 1") }
    }

    func run() throws {
        let id = id
        try reportingFailures { () throws(ClientFailure) in
            if case .id(let id) = try Connection().call(.restore(id: id)) { Output.line(String(id)) }
        }
    }
}

/// `toast action [ID] [KEY]`: without ID, the newest toast showing (as `makoctl invoke`); without KEY,
/// the default action.
struct InvokeAction: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "action",
        abstract: "Invoke a toast's action, as if clicked (the newest toast without ID, the default action without KEY).",
        usage: "toast action [ID] [KEY]",
        discussion: "A first word that is a number is an ID: a numeric KEY of the newest toast needs its ID too.",
        // makoctl's word for it.
        aliases: ["invoke"])

    // One list rather than two optional arguments: `toast action open` names a KEY, not an ID.
    @Argument(help: ArgumentHelp("The toast's id (default: the newest toast showing), then the action's key (default: default).",
                                 valueName: "id-or-key"))
    var words: [String] = []

    mutating func validate() throws { _ = try target() }

    /// The id (nil: the newest) and key (nil: the default action) the words name.
    func target() throws -> (id: UInt32?, key: String?) {
        var rest = words[...]
        var id: UInt32?
        if let first = rest.first, first.first?.isNumber == true {
            guard let number = UInt32(first) else { throw ValidationError("'\(first)' is not a toast id") }
            if number == 0 { throw ValidationError("toast ids start at 1") }
            id = number
            rest = rest.dropFirst()
        }
        guard rest.count <= 1 else { throw ValidationError("give at most an ID and a KEY") }
        if rest.first == "" { throw ValidationError("the action key must not be empty") }
        return (id, rest.first)
    }

    var request: Request {
        get throws {
            let (id, key) = try target()
            return .action(id: id, key: key, activationToken: launcherActivationToken())
        }
    }

    func run() throws {
        let request = try request
        try reportingFailures { () throws(ClientFailure) in
            _ = try Connection().call(request)
        }
    }
}

/// `toast reload`: toastd rereads its configuration file, as `makoctl reload` and `dunstctl reload` do,
/// and says what was wrong with it.
struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make toastd reread its configuration file; print its problems.",
        discussion: """
            toastd applies the file (skipping bad lines, as at startup) and answers with each problem as \
            path:line: message, printed on stderr. Exit status 1 when there was any, 0 for a clean file.
            """)

    func run() throws {
        try reportingFailures { () throws(ClientFailure) in
            guard case .warnings(let warnings) = try Connection().call(.reload) else {
                throw ClientFailure.protocolViolation("toastd's reload reply carries no warnings")
            }
            // As the file names them, unprefixed: editors jump to `path:line:`.
            for warning in warnings { Output.write(fd: 2, warning + "\n") }
            if !warnings.isEmpty { throw ClientFailure.outcome(Exit.daemonError) }
        }
    }
}

/// `toast dnd on|off|toggle|status`
struct Dnd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dnd",
        abstract: "Turn do-not-disturb on or off, toggle it, or show it; prints the state (on/off).",
        discussion: "With --for or --until, do-not-disturb turned on ends by itself (it survives a restart of toastd): toast dnd on --for 30m, toast dnd on --until 09:00.")

    @Argument(help: "on, off, toggle or status.")
    var mode: DndMode = .status

    @OptionGroup var end: ModeEndOptions

    mutating func validate() throws {
        if end.isGiven && mode != .on && mode != .toggle { throw ValidationError("--for and --until go with on or toggle") }
    }

    func run() throws {
        let mode = mode, until = end.end()
        try reportingFailures { () throws(ClientFailure) in
            guard case .dnd(let on, let end) = try Connection().call(.dnd(mode, until: until)) else {
                throw ClientFailure.protocolViolation("toastd's dnd reply carries no state")
            }
            Output.line(on ? end.map { "on until \(localTimeText($0))" } ?? "on" : "off")
        }
    }
}

/// `toast mode [-s NAME...] [-a NAME] [-r NAME] [-t NAME]`, as `makoctl mode`.
struct Mode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mode",
        abstract: "Show the modes on, or set, add, remove or toggle them; prints the modes on, one a line.",
        discussion: "-s first, then -a, -r and -t, each repeatable. The do-not-disturb mode is what toast dnd turns on. With --for or --until, the modes of -a end by themselves: toast mode -a work --until 18:00.")

    @Option(name: [.short, .long], parsing: .upToNextOption, help: ArgumentHelp("Turn on exactly these modes.", valueName: "name"),
            completion: .list(Mode.namedModes))
    var set: [String] = []
    @Option(name: [.short, .long], help: ArgumentHelp("Turn a mode on.", valueName: "name"),
            completion: .list(Mode.namedModes))
    var add: [String] = []
    @Option(name: [.short, .long], help: ArgumentHelp("Turn a mode off.", valueName: "name"),
            completion: .list(Mode.namedModes))
    var remove: [String] = []
    @Option(name: [.short, .long], help: ArgumentHelp("Turn a mode on if it is off, off if it is on.", valueName: "name"),
            completion: .list(Mode.namedModes))
    var toggle: [String] = []
    @OptionGroup var end: ModeEndOptions

    /// The modes every toastd has, offered by the completions (others are the user's own).
    static let namedModes = [ModeNames.doNotDisturb] + ModeNames.initial

    mutating func validate() throws {
        if end.isGiven && add.isEmpty { throw ValidationError("--for and --until go with -a (the modes they end)") }
    }

    func run() throws {
        let change = ModeChange(set: set.isEmpty ? nil : set, add: add, remove: remove, toggle: toggle, until: end.end())
        try reportingFailures { () throws(ClientFailure) in
            guard case .modes(let names) = try Connection().call(.mode(change)) else {
                throw ClientFailure.protocolViolation("toastd's mode reply carries no modes")
            }
            for name in names { Output.line(name) }
        }
    }
}

/// `toast version`
struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print the versions of toast, of toastd and of the protocol.")

    func run() throws {
        Output.line("toast \(ServerIdentity.version) (protocol \(ProtocolLimits.version))")
        try reportingFailures { () throws(ClientFailure) in
            guard case .version(let v) = try Connection().call(.version) else {
                throw ClientFailure.protocolViolation("toastd's version reply carries no version")
            }
            Output.line("toastd \(v.daemon) (protocol \(v.protocolVersion))")
        }
    }
}

/// Prints `list`/`history` replies: a table, or JSON with `--json`.
func printToasts(_ payload: ReplyPayload, json: Bool, history: Bool) throws(ClientFailure) {
    guard case .toasts(let toasts) = payload else {
        throw ClientFailure.protocolViolation("toastd's reply carries no toasts")
    }
    if json {
        Output.line(JSONValue.array(toasts.map(\.json)).encoded())
        return
    }
    Output.write(fd: 1, ToastTable.render(toasts, history: history))
}

/// The human table of `toast list` and `toast history`.
enum ToastTable {
    /// A column other than the last (the summary) is cut to this many characters: one client's long
    /// app name would otherwise pad every row of the table past the terminal.
    static let maxColumnWidth = 24

    static func render(_ toasts: [ToastInfo], history: Bool) -> String {
        var header = ["ID", "URGENCY", "AGE", "APP", "SUMMARY"]
        if history { header.insert("REASON", at: 3) }
        var rows = [header]
        for t in toasts {
            var row = [String(t.id), t.urgency.rawValue, t.ageMs.map(age) ?? "-", cut(oneLine(t.appName ?? "-")),
                       oneLine(t.summary)]
            if history { row.insert(t.reason?.rawValue ?? "-", at: 3) }
            rows.append(row)
        }
        var widths = [Int](repeating: 0, count: header.count)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        var out = ""
        for row in rows {
            var line = ""
            for (i, cell) in row.enumerated() {
                if i == row.count - 1 {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[i] - cell.count + 2)
                }
            }
            out += line + "\n"
        }
        return out
    }

    /// `s` in at most `maxColumnWidth` characters, an ellipsis ending what was cut.
    static func cut(_ s: String) -> String {
        s.count <= maxColumnWidth ? s : String(s.prefix(maxColumnWidth - 1)) + "…"
    }

    /// A short age: 5s, 3m, 2h, 4d.
    static func age(_ ms: Int64) -> String {
        let s = ms / 1000
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86400 { return "\(s / 3600)h" }
        return "\(s / 86400)d"
    }

    /// Control characters (newlines, tabs) would break the table.
    static func oneLine(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
    }
}

/// The `XDG_ACTIVATION_TOKEN` a launcher started us with, if any: `toast action` and `toast menu` hand
/// it on to the app whose action they invoke, so that the app may raise its window.
func launcherActivationToken(_ lookup: (String) -> String? = Connection.getenvString) -> String? {
    lookup("XDG_ACTIVATION_TOKEN").flatMap { $0.isEmpty ? nil : $0 }
}
