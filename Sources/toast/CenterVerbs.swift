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
