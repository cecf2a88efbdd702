import ToastCore
import ToastDBus
import ToastProtocol

/// The D-Bus front door: org.freedesktop.Notifications (and org.toastd.Hud1) calls into the model.
final class BusFrontDoor: NotificationsBusDelegate {
    private(set) var bus: NotificationsBus?
    unowned var daemon: Daemon!

    /// Connects and sends the name request; `finishConnecting()` waits for its answer.
    func connect(replace: Bool) throws(BusError) {
        bus = try NotificationsBus(delegate: self, replace: replace, awaitName: false)
    }

    /// Waits for the name request's answer (it may dispatch calls: `daemon` must be set by now).
    func finishConnecting() throws(BusError) {
        try bus?.awaitNameRequest()
    }

    var busServerVersion: String { Daemon.version }

    func busCapabilities() -> [String] {
        ["actions", "body", "body-markup", "body-hyperlinks", "icon-static", "persistence",
         "x-canonical-private-synchronous", "x-dunst-stack-tag"]
    }

    func busNotify(_ notification: BusNotification) -> Result<UInt32, BusError> {
        if let problem = notification.hints.imageProblem {
            Log.warning("Notify from \(notification.sender): image dropped: \(problem)")
        }
        defer { daemon.modelNeedsUpdate = true }
        do {
            return .success(try daemon.model.notify(Requests.notification(from: notification, icons: &daemon.icons), now: daemon.now()))
        } catch {
            return .failure(Self.refusal(Requests.protocolError(error)))
        }
    }

    func busClose(id: UInt32) {
        daemon.model.close(id: id, reason: .closedByCall, now: daemon.now())
        daemon.modelNeedsUpdate = true
    }

    func busShowValue(kind: String, value: Int32, label: String, muted: Bool, sender: String) -> Result<Void, BusError> {
        defer { daemon.modelNeedsUpdate = true }
        do {
            try daemon.model.showBar(kind: kind, value: Int(value), muted: muted,
                                     label: label.isEmpty ? nil : label, now: daemon.now())
            return .success(())
        } catch {
            return .failure(Self.refusal(Requests.protocolError(error)))
        }
    }

    func busLoadingStart(key: String, label: String, sender: String) -> Result<Void, BusError> {
        defer { daemon.modelNeedsUpdate = true }
        do {
            try daemon.model.loadingStart(key: key, label: label.isEmpty ? nil : label, owner: .dbus(sender),
                                          now: daemon.now())
            return .success(())
        } catch {
            return .failure(Self.refusal(Requests.protocolError(error)))
        }
    }

    func busLoadingStop(key: String, sender: String) -> Result<Void, BusError> {
        _ = daemon.sessions.stopLoading(key: key, requester: nil)
        daemon.sessions.releaseStoppedOwners()
        daemon.modelNeedsUpdate = true
        return .success(())
    }

    /// A refused call as D-Bus sends it: the same words the control socket's error carries.
    private static func refusal(_ error: ProtocolError) -> BusError {
        .refused(message: error.message, name: BusErrorName.invalidArgs)
    }

    func busNameLost() {
        Log.warning("another daemon took \(NotificationsBus.busName); still serving the control socket")
    }

    func busClientVanished(_ name: String) {
        daemon.model.ownerDisconnected(.dbus(name), now: daemon.now())
        daemon.modelNeedsUpdate = true
    }
}
