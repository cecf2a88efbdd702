import ToastVocabulary

/// Why a notification request was refused.
public enum NotificationError: Error, Equatable, Sendable {
    /// A raw image whose size or pixel count is wrong (the reason says which).
    case invalidImage(String)
}

/// Why an action could not be invoked.
public enum ActionError: Error, Equatable, Sendable {
    /// No notification with this id is open (it may have closed already).
    case unknownNotification(NotificationID)
    /// The notification has no action with this key (`"default"` when the caller gave none).
    case unknownAction(id: NotificationID, key: String)
}

/// Why a HUD request was refused.
public enum HUDError: Error, Equatable, Sendable {
    /// A value bar needs a kind ("volume", "brightness", ...).
    case emptyBarKind
    /// A loading key must not be empty.
    case emptyLoadingKey
    /// More loading keys at once than `HUDConfig.maxLoadingKeys`.
    case tooManyLoadingKeys
}

// The words a refused client reads, the same through the control socket and D-Bus.

extension NotificationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidImage(let why): "image: \(why)"
        }
    }
}

extension ActionError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownNotification(let id): "no toast \(id) is showing"
        case .unknownAction(let id, let key): "toast \(id) has no action '\(key)'"
        }
    }
}

extension HUDError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyBarKind: "a HUD needs a kind"
        case .emptyLoadingKey: "a loading spinner needs a key"
        case .tooManyLoadingKeys: "too many loading keys are active"
        }
    }
}
