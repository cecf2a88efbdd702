import ToastVocabulary

/// Something a waiting client must hear about. The model queues these; the daemon drains them
/// (`ToastModel.drainEvents()`) and routes each to its origin: a D-Bus signal or a CLI `--wait` reply.
public enum CoreEvent: Equatable, Sendable {
    /// A notification closed (D-Bus `NotificationClosed`).
    case closed(id: NotificationID, reason: CloseReason, origin: ClientID?)
    /// An activation token for the app whose action is about to be invoked (D-Bus `ActivationToken`,
    /// spec 1.3): the compositor's permission to raise its window. `actionInvoked` follows.
    case activationToken(id: NotificationID, token: String, origin: ClientID?)
    /// The user (or a client) invoked an action (D-Bus `ActionInvoked`); a `closed` usually follows.
    case actionInvoked(id: NotificationID, key: String, origin: ClientID?)
    /// The user answered with a line of text (D-Bus `NotificationReplied`, `InlineReply`); `closed` follows.
    case replied(id: NotificationID, text: String, origin: ClientID?)
    /// Another client replaced this notification (same id, same place): the previous origin no longer
    /// gets its events, so a CLI waiting on it can stop waiting.
    case replaced(id: NotificationID, previousOrigin: ClientID)
    /// The loading spinner started (first key) or stopped (last key).
    case loadingChanged(isActive: Bool)
    /// Someone other than its owner stopped the owner's last attached loading key: the owner, which
    /// waits for its keys to stop, can be let go.
    case loadingOwnerReleased(ClientID)
}
