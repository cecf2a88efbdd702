import ToastVocabulary

/// Inline replies, as KDE and swaync have them: a notification with an action named `inline-reply`,
/// or carrying the hint `x-kde-reply-placeholder-text`, takes a line of text typed in the notification
/// center (or sent with `toast reply`); the daemon answers the sender with
/// `NotificationReplied(id, text)` and closes the notification (reason 2, dismissed).
public enum InlineReply {
    /// The capability the daemon advertises (`GetCapabilities`).
    public static let capability = "inline-reply"
    /// The action that asks for a reply field (its label is the field's placeholder when no hint names one).
    public static let actionKey = "inline-reply"
    /// The placeholder of a field whose notification names none.
    public static let defaultPlaceholder = "Reply"
    /// A reply typed into a field holds at most this many bytes (memory bounded by bytes; a reply is a
    /// line, not a file).
    public static let maxTypedBytes = 4096

    /// Whether `notification` takes a reply.
    public static func accepts(_ notification: Notification) -> Bool {
        notification.replyPlaceholder != nil || notification.actions.contains { $0.key == actionKey }
    }

    /// The reply field's placeholder of `notification`; nil when it takes no reply.
    public static func placeholder(of notification: Notification) -> String? {
        guard accepts(notification) else { return nil }
        if let hint = notification.replyPlaceholder, !hint.isEmpty { return hint }
        let label = notification.actions.first { $0.key == actionKey }?.label ?? ""
        return label.isEmpty ? defaultPlaceholder : label
    }
}
