/// What the bus asks of the daemon. All calls arrive on the thread that calls `NotificationsBus.process()`,
/// from inside it.
public protocol NotificationsBusDelegate: AnyObject {
    /// A Notify call. Return the notification's id (nonzero; `replacesId` if it replaced one that
    /// still exists, else a new one), or an error sent back to the caller.
    func busNotify(_ notification: BusNotification) -> Result<UInt32, BusError>
    /// CloseNotification. Unknown or already closed ids are fine (the caller gets success either way).
    /// If the notification was open, the daemon should `emitClosed(id:reason: .closedByCall)`.
    func busClose(id: UInt32)

    /// org.toastd.Hud1.ShowValue: a value bar (`kind` e.g. "volume", "brightness"; `value` 0...100).
    func busShowValue(kind: String, value: Int32, label: String, muted: Bool, sender: String) -> Result<Void, BusError>
    /// org.toastd.Hud1.LoadingStart: a spinner under `key`, owned by the unique bus name `sender`.
    func busLoadingStart(key: String, label: String, sender: String) -> Result<Void, BusError>
    /// org.toastd.Hud1.LoadingStop.
    func busLoadingStop(key: String, sender: String) -> Result<Void, BusError>

    /// Another daemon took org.freedesktop.Notifications from us. We keep serving our own objects
    /// by unique name; the daemon should log it and carry on with its socket.
    func busNameLost()
    /// A client that called org.toastd.Hud1.LoadingStart left the bus (its unique name, e.g. `:1.42`):
    /// drop its loading keys. Reported once per LoadingStart caller; also when it left before the
    /// watch was set up (a one-shot `gdbus call`).
    func busClientVanished(_ name: String)
}
