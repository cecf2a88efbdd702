import ArgumentParser
import ToastProtocol
import ToastVocabulary

/// `toast [send] SUMMARY [BODY]`: notify-send's interface plus --tag and --value.
struct Send: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Show a toast (the default command: `toast SUMMARY [BODY]`).",
        discussion: "With --wait (implied by --action) it prints the invoked action's key, or why the toast closed.")

    @Option(name: [.short, .long], help: "The urgency level: low, normal or critical.")
    var urgency: Urgency?

    @Option(name: [.customShort("t"), .customLong("expire-time")],
            help: "Milliseconds until the toast expires (0: never; default: the daemon's).")
    var expireTime: Int32?

    @Option(name: [.short, .long], help: "An icon name or path.")
    var icon: String?

    @Option(name: [.short, .customLong("app-name")], help: "The application name.")
    var appName: String?

    @Option(name: [.short, .long], help: "The notification category.", completion: .list(NotificationCategory.standard))
    var category: String?

    @Option(name: [.customShort("h"), .long],
            help: ArgumentHelp("A typed hint: TYPE:NAME:VALUE, TYPE one of int, double, string, byte, boolean.",
                               valueName: "TYPE:NAME:VALUE"),
            completion: .list(CompletionScript.hintStems),
            transform: { try argument(Hint.parse($0)) })
    var hint: [Hint] = []

    @Option(name: [.customShort("A"), .long],
            help: ArgumentHelp("An action button, [NAME=]Text (NAME defaults to its index from 0). Implies --wait.",
                               valueName: "[NAME=]Text"))
    var action: [String] = []

    @Flag(name: [.short, .long], help: "Wait until the toast closes; print the action key or the close reason.")
    var wait = false

    @Flag(name: [.short, .customLong("print-id")], help: "Print the toast's id.")
    var printID = false

    @Flag(help: "With --wait: print the outcome as a JSON object, with the activation token if the app got one.")
    var json = false

    @Option(name: [.short, .customLong("replace-id")], help: "Replace the toast with this id, in place.")
    var replaceID: UInt32?

    @Flag(name: [.customShort("e"), .long], help: "Do not keep the toast in history.")
    var transient = false

    @Option(help: ArgumentHelp("Replace the toast with the same tag, in place.", valueName: "KEY"))
    var tag: String?

    @Option(help: ArgumentHelp("Show a progress bar at this value (0-100).", valueName: "N"))
    var value: Int?

    @Argument(help: "The toast's title.")
    var summary: String

    @Argument(help: "The toast's body text.")
    var body: String?

    mutating func validate() throws {
        if let t = expireTime, t < -1 { throw ValidationError("--expire-time must be -1, 0 or positive") }
        if let v = value, !NotifyParams.valueRange.contains(v) { throw ValidationError("--value must be in 0...100") }
        if let tag, tag.isEmpty { throw ValidationError("--tag must not be empty") }
    }

    /// The request this command line sends.
    var params: NotifyParams {
        var hints: [Hint] = []
        for h in hint {  // a later -h with the same name wins, as with notify-send
            if let i = hints.firstIndex(where: { $0.name == h.name }) { hints[i] = h } else { hints.append(h) }
        }
        var actions: [NotificationAction] = []
        for (i, spec) in action.enumerated() {
            let a = NotificationAction.parse(spec, index: i)
            if let j = actions.firstIndex(where: { $0.key == a.key }) { actions[j] = a } else { actions.append(a) }
        }
        return NotifyParams(
            summary: summary, body: body, urgency: urgency, expireMs: expireTime ?? -1, icon: icon,
            appName: appName, category: category, hints: hints, actions: actions,
            replaceID: replaceID == 0 ? nil : replaceID, tag: tag, value: value, transient: transient,
            wait: wait || !action.isEmpty)
    }

    func run() throws {
        let params = params, printID = printID, json = json
        try reportingFailures { () throws(ClientFailure) in try Send.send(params, printID: printID, json: json) }
    }

    /// Sends the toast; with `wait`, prints the outcome and ends with its exit status.
    static func send(_ params: NotifyParams, printID: Bool, json: Bool = false) throws(ClientFailure) {
        let connection = try Connection()
        guard case .id(let id) = try connection.call(.notify(params)) else {
            throw ClientFailure.protocolViolation("toastd's notify reply carries no id")
        }
        if printID { Output.line(String(id)) }
        guard params.wait else { return }
        if !params.actions.isEmpty { hintHowToAnswer(id: id, actions: params.actions, on: connection) }
        var activationToken: String?
        while let event = try connection.nextEvent() {
            guard event.id == id else { continue }
            switch event {
            case .action(_, let key):
                Output.line(json ? WaitOutcome.json(id: id, action: key, activationToken: activationToken) : key)
                return
            case .closed(_, let reason):
                Output.line(json ? WaitOutcome.json(id: id, closed: reason) : reason.rawValue)
                throw ClientFailure.outcome(Exit.status(for: reason))
            case .activationToken(_, let token): activationToken = token
            case .status: continue
            case .streamProblem, .streamEnd: continue
            }
        }
        throw ClientFailure.protocolViolation("toastd closed the connection before the toast closed")
    }

    /// Without `clickable-actions` nobody can click the buttons drawn on the toast: say on stderr how to
    /// answer, so no one waits on a button that cannot be pressed. A daemon that does not know
    /// `settings` (older) gets no hint rather than a failure.
    static func hintHowToAnswer(id: NotificationID, actions: [NotificationAction], on connection: Connection) {
        guard case .settings(let settings)? = try? connection.call(.settings), !settings.clickableActions else { return }
        Output.error(answerHint(id: id, keys: actions.map(\.key)))
    }

    /// The hint's words: the command for each key, and the setting that makes the buttons clickable.
    static func answerHint(id: NotificationID, keys: [String]) -> String {
        "toast \(id) waits for an answer, but its buttons take no clicks: run `toast action \(id) KEY` "
            + "(KEY: \(keys.joined(separator: ", "))), or set `clickable-actions = true` in toastd's config"
    }
}

/// `toast --wait --json`'s one line: `{"id":7,"action":"open","activation_token":"…"}` or
/// `{"id":7,"closed":"expired"}`.
enum WaitOutcome {
    static func json(id: NotificationID, action: String, activationToken: String?) -> String {
        var o = JSONObject([("id", .int(Int64(id))), ("action", .string(action))])
        if let activationToken { o["activation_token"] = .string(activationToken) }
        return JSONValue.object(o).encoded()
    }

    static func json(id: NotificationID, closed reason: CloseReason) -> String {
        JSONValue.object(JSONObject([("id", .int(Int64(id))), ("closed", .string(reason.rawValue))])).encoded()
    }
}
