import ToastCore
import ToastVocabulary

/// What a notification event does, in mako's words: the value of `on-notify` and of
/// `on-button-left`, `on-button-right`, `on-button-middle`.
package enum Binding: Equatable, Sendable {
    case none
    /// Invokes the notification's default action if it has one, and closes it (dismissed) either way.
    case invokeDefaultAction
    /// Invokes the action with this key if the notification offers it, and closes it either way.
    case invokeAction(String)
    /// Closes the notification.
    case dismiss
    /// Closes the notification and those drawn as one with it (`group-by`); as `dismiss`, since a
    /// toast toastd draws stands for its group.
    case dismissGroup
    case dismissAll
    /// Runs the command through `sh -c`, the notification in its environment (`NotificationCommand`).
    case exec(String)

    /// The words a value may start with, for messages and docs.
    package static let words = ["none", "invoke-default-action", "invoke-action", "dismiss", "dismiss-group", "dismiss-all", "exec"]

    /// Reads one value (`exec notify-send hi`, `dismiss`); the error is a message for a diagnostic.
    package static func parse(_ value: String) -> Result<Binding, BindingError> {
        let trimmed = value.drop { $0 == " " || $0 == "\t" }
        let word = trimmed.prefix { $0 != " " && $0 != "\t" }
        let rest = String(trimmed.dropFirst(word.count).drop { $0 == " " || $0 == "\t" })
        switch word.lowercased() {
        case "none" where rest.isEmpty: return .success(.none)
        case "invoke-default-action" where rest.isEmpty: return .success(.invokeDefaultAction)
        case "dismiss" where rest.isEmpty: return .success(.dismiss)
        case "dismiss-group" where rest.isEmpty: return .success(.dismissGroup)
        case "dismiss-all" where rest.isEmpty: return .success(.dismissAll)
        case "invoke-action":
            return rest.isEmpty ? .failure(BindingError("'invoke-action' needs an action key")) : .success(.invokeAction(rest))
        case "exec":
            guard !rest.isEmpty else { return .failure(BindingError("'exec' needs a command")) }
            guard !rest.utf8.contains(0) else { return .failure(BindingError("the command contains a NUL byte")) }
            return .success(.exec(rest))
        case "none", "invoke-default-action", "dismiss", "dismiss-group", "dismiss-all":
            return .failure(BindingError("'\(word)' takes nothing after it"))
        case "dismiss-no-history":
            return .failure(BindingError("mako binding '\(word)' is not supported"))
        default:
            return .failure(BindingError("must be one of \(words.joined(separator: ", ")), got '\(word)'"))
        }
    }
}

/// Why a binding value could not be read.
package struct BindingError: Error, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// The pointer buttons a toast takes (`clickable-actions`).
package enum PointerButton: Equatable, Sendable, CaseIterable {
    case left, right, middle

    /// linux/input-event-codes.h BTN_LEFT, BTN_RIGHT, BTN_MIDDLE.
    package init?(evdevCode: UInt32) {
        switch evdevCode {
        case 0x110: self = .left
        case 0x111: self = .right
        case 0x112: self = .middle
        default: return nil
        }
    }

    /// What a click does when no rule says (mako's defaults).
    package var defaultBinding: Binding {
        switch self {
        case .left: .invokeDefaultAction
        case .right: .dismiss
        case .middle: .none
        }
    }
}

/// A command a binding runs, with the environment that describes its notification. The notification
/// travels in the environment only, never in the command line: a summary of `$(rm -rf ~)` is text to
/// the shell, not a command.
package struct NotificationCommand: Equatable, Sendable {
    package var command: String
    /// `TOASTD_*` variables, added to toastd's own environment.
    package var environment: [(name: String, value: String)]

    package static func == (a: NotificationCommand, b: NotificationCommand) -> Bool {
        a.command == b.command && a.environment.elementsEqual(b.environment) { $0 == $1 }
    }

    /// The variables, in this order, that describe a notification (docs/configuration.md).
    package static let variableNames = ["TOASTD_ID", "TOASTD_APP_NAME", "TOASTD_SUMMARY", "TOASTD_BODY", "TOASTD_URGENCY",
                                "TOASTD_CATEGORY", "TOASTD_DESKTOP_ENTRY"]

    package init(command: String, notification: Notification) {
        self.command = command
        let values = [String(notification.id), notification.appName, notification.summary, notification.body,
                      notification.urgency.rawValue, notification.category ?? "", notification.desktopEntry ?? ""]
        // A NUL would end the variable early in C; the D-Bus and socket doors let one through in text.
        environment = zip(Self.variableNames, values).map { ($0, $1.replacingNUL()) }
    }
}

private extension String {
    func replacingNUL() -> String {
        utf8.contains(0) ? String(decoding: utf8.filter { $0 != 0 }, as: UTF8.self) : self
    }
}
