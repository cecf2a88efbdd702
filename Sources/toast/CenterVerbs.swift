import ArgumentParser
import ToastProtocol
import ToastVocabulary

/// `toast center [--open | --close]`: the notification center, flipped unless told.
struct OpenCenter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "center",
        abstract: "Open or close the notification center (flip it without a flag).",
        discussion: """
            The center lists the open toasts, then the history, newest first and grouped by app, and takes \
            the keyboard while it is open: arrows and Tab move, Enter invokes, Delete dismisses, Escape closes.
            """)

    @Flag(help: "Open it (nothing happens when it is open).")
    var open = false
    @Flag(help: "Close it (nothing happens when it is closed).")
    var close = false

    mutating func validate() throws {
        if open && close { throw ValidationError("give --open or --close, not both") }
    }

    var mode: CenterMode { open ? .open : close ? .close : .toggle }

    func run() throws {
        let mode = mode
        try reportingFailures { () throws(ClientFailure) in
            _ = try Connection().call(.center(mode))
        }
    }
}

/// `toast reply [ID] TEXT`: answers a toast that takes a reply (`inline-reply`), as typing into its
/// field and pressing Enter does.
struct AnswerReply: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply",
        abstract: "Answer a toast that takes a reply (the newest such toast without ID); it closes.",
        usage: "toast reply [ID] TEXT",
        discussion: "Its sender hears NotificationReplied(ID, TEXT). Words after ID are joined by blanks.")

    @Argument(help: ArgumentHelp("The toast's id (default: the newest that takes a reply), then the text.",
                                 valueName: "id-or-text"))
    var words: [String] = []

    mutating func validate() throws { _ = try target() }

    /// The id (nil: the newest) and the text the words name.
    func target() throws -> (id: UInt32?, text: String) {
        var rest = words[...]
        var id: UInt32?
        if rest.count > 1, let first = rest.first, let number = UInt32(first) {
            if number == 0 { throw ValidationError("toast ids start at 1") }
            id = number
            rest = rest.dropFirst()
        }
        let text = rest.joined(separator: " ")
        if text.isEmpty { throw ValidationError("give the text of the reply") }
        return (id, text)
    }

    func run() throws {
        let (id, text) = try target()
        try reportingFailures { () throws(ClientFailure) in
            _ = try Connection().call(.reply(id: id, text: text))
        }
    }
}

/// `toast alert TITLE [BODY] -A KEY=Label... [--timeout SECONDS]`: a centred dialog that takes the
/// keyboard until answered; prints the chosen key.
struct Alert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert",
        abstract: "Ask with a centred dialog that takes the keyboard until answered; print the chosen key.",
        discussion: """
            Left, Right and Tab move between the buttons, Enter answers, Escape gives no answer; a click on \
            a button answers too. Exit status 0 with an answer, 1 on Escape or --timeout. One alert shows \
            at a time: the next waits for it.
            """)

    @Argument(help: "The question.")
    var title: String
    @Argument(help: "More words under it.")
    var body: String?
    @Option(name: [.customShort("A"), .long],
            help: ArgumentHelp("A button, KEY=Label (KEY defaults to its index from 0); default: ok=OK.", valueName: "action"))
    var action: [String] = []
    @Option(help: ArgumentHelp("Give up after this many seconds (exit status 1).", valueName: "seconds"))
    var timeout: Int32?

    mutating func validate() throws {
        if let timeout, timeout < 1 || timeout > 86_400 { throw ValidationError("--timeout must be 1 to 86400 seconds") }
    }

    var params: NotifyParams {
        var actions: [NotificationAction] = []
        for (i, spec) in action.enumerated() {
            let a = NotificationAction.parse(spec, index: i)
            if let j = actions.firstIndex(where: { $0.key == a.key }) { actions[j] = a } else { actions.append(a) }
        }
        if actions.isEmpty { actions = [NotificationAction(key: "ok", label: "OK")] }
        var params = NotifyParams(summary: title, body: body, urgency: .critical, expireMs: timeout.map { $0 * 1000 } ?? 0,
                                  actions: actions, wait: true)
        params.alert = true
        return params
    }

    func run() throws {
        let params = params
        try reportingFailures { () throws(ClientFailure) in
            let connection = try Connection()
            guard case .id(let id) = try connection.call(.notify(params)) else {
                throw ClientFailure.protocolViolation("toastd's notify reply carries no id")
            }
            while let event = try connection.nextEvent() {
                guard event.id == id else { continue }
                switch event {
                case .action(_, let key):
                    Output.line(key)
                    return
                case .closed: throw ClientFailure.outcome(Exit.daemonError)
                default: continue
                }
            }
            throw ClientFailure.protocolViolation("toastd closed the connection before the alert was answered")
        }
    }
}

/// `toast focus`: the newest toast takes the keyboard (bind it to a key in the compositor).
struct FocusToast: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "Give the newest toast the keyboard: Enter invokes, Tab chooses a button, Escape gives it back.",
        discussion: "Exits 1 when no toast shows. Bind it to a key in the compositor (bindsym $mod+n exec toast focus).")

    func run() throws {
        try reportingFailures { () throws(ClientFailure) in
            _ = try Connection().call(.focus)
        }
    }
}
