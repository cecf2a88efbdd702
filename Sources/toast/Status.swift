import ArgumentParser
import ToastProtocol

/// `toast status [--json] [--follow] [--waybar]`: what a status bar shows.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print how many toasts are open, hidden and in the history, do-not-disturb, and loading keys.",
        discussion: """
            With --follow, toast stays connected and prints a new line whenever any of it changes (toastd \
            sends each change; nothing is polled); it exits 69 when toastd goes away. With --waybar, each \
            line is waybar's custom-module JSON: "exec": "toast status --follow --waybar", \
            "return-type": "json".
            """)

    @Flag(help: "Print a JSON object: open, hidden, history, dnd, loading.")
    var json = false

    @Flag(help: "Keep printing a line per change.")
    var follow = false

    @Flag(help: "Print waybar's custom-module JSON (text, alt, tooltip, class).")
    var waybar = false

    mutating func validate() throws {
        if json && waybar { throw ValidationError("give --json or --waybar, not both") }
    }

    func run() throws {
        let format = waybar ? StatusLine.Format.waybar : json ? .json : .text
        let follow = follow
        try reportingFailures { () throws(ClientFailure) in
            let connection = try Connection()
            guard case .status(let status) = try connection.call(.status(follow: follow)) else {
                throw ClientFailure.protocolViolation("toastd's status reply carries no status")
            }
            Output.line(StatusLine.render(status, format))
            guard follow else { return }
            while let event = try connection.nextEvent() {
                if case .status(let status) = event { Output.line(StatusLine.render(status, format)) }
            }
            throw ClientFailure(message: "toastd went away", status: Exit.unavailable)
        }
    }
}

/// One line of `toast status`.
enum StatusLine {
    enum Format { case text, json, waybar }

    static func render(_ status: StatusInfo, _ format: Format) -> String {
        switch format {
        case .text: return sentence(status)
        case .json: return status.json.encoded()
        case .waybar:
            // As other notification daemons' waybar modules name them, so existing `format-icons` fit.
            let state = (status.dnd ? "dnd-" : "") + (status.open > 0 ? "notification" : "none")
            return JSONValue.object(JSONObject([
                ("text", .string(String(status.open))), ("alt", .string(state)),
                ("tooltip", .string(sentence(status))), ("class", .string(state)),
            ])).encoded()
        }
    }

    /// `2 open (1 hidden), 5 in history, do-not-disturb off`, then `, loading: 1 key` while a spinner shows.
    static func sentence(_ status: StatusInfo) -> String {
        let hidden = status.hidden > 0 ? " (\(status.hidden) hidden)" : ""
        let loading = status.loading == 0 ? "" : ", loading: \(status.loading) key\(status.loading == 1 ? "" : "s")"
        let dnd = status.dnd ? status.dndUntil.map { "on until \(localTimeText($0))" } ?? "on" : "off"
        return "\(status.open) open\(hidden), \(status.history) in history, do-not-disturb \(dnd)\(loading)"
    }
}
