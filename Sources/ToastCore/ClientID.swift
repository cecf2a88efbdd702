import ToastVocabulary

/// Who sent a request: the party that events about it (closed, action invoked) go back to.
public enum ClientID: Hashable, Sendable, CustomStringConvertible {
    /// A control-socket client, numbered by the daemon (never reused while the daemon runs).
    case socket(UInt64)
    /// A D-Bus client, by its unique bus name (for example ":1.42").
    case dbus(String)

    public var description: String {
        switch self {
        case .socket(let number): "socket#\(number)"
        case .dbus(let name): "dbus\(name)"
        }
    }
}
