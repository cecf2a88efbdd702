import ToastCore
import ToastDBus
import ToastPlatform
import ToastVocabulary

/// The D-Bus front door: org.freedesktop.Notifications (and org.toastd.Hud1) calls into the service,
/// and the service's events out as signals.
final class BusFrontDoor: NotificationsBusDelegate {
    private(set) var bus: NotificationsBus?
    private let service: ToastService
    /// Another connection took org.freedesktop.Notifications from us.
    var onNameLost: () -> Void = {}

    init(service: ToastService) {
        self.service = service
    }

    /// Connects and sends the name request; `finishConnecting()` waits for its answer.
    func connect(replace: Bool) throws(BusError) {
        bus = try NotificationsBus(delegate: self, replace: replace, awaitName: false)
    }

    /// Waits for the name request's answer (calls that arrive meanwhile are served).
    func finishConnecting() throws(BusError) {
        try bus?.awaitNameRequest()
    }

    /// Sends what the clients must hear about as signals.
    func deliver(_ event: CoreEvent) {
        switch event {
        case .closed(let id, let reason, _): bus?.emitClosed(id: id, reason: reason)
        case .activationToken(let id, let token, _): bus?.emitActivationToken(id: id, token: token)
        case .actionInvoked(let id, let key, _): bus?.emitActionInvoked(id: id, key: key)
        case .replied(let id, let text, _): bus?.emitReplied(id: id, text: text)
        case .replaced, .loadingChanged, .loadingOwnerReleased: break
        }
    }

    func busNotify(_ notification: BusNotification) -> Result<UInt32, BusError> {
        for problem in notification.hintProblems {
            Log.warning("Notify from \(notification.sender): hint dropped: \(problem)")
        }
        do {
            return .success(try service.notify(Self.notification(from: notification)))
        } catch {
            return .failure(Self.refusal(error))
        }
    }

    func busClose(id: UInt32) {
        service.close(id: id, reason: .closedByCall)
    }

    func busShowValue(kind: String, value: Int32, label: String, muted: Bool, sender: String) -> Result<Void, BusError> {
        do {
            try service.showBar(kind: kind, value: Int(value), muted: muted, label: label.isEmpty ? nil : label)
            return .success(())
        } catch {
            return .failure(Self.refusal(error))
        }
    }

    func busLoadingStart(key: String, label: String, sender: String) -> Result<Void, BusError> {
        do {
            try service.loadingStart(key: key, label: label.isEmpty ? nil : label, owner: .dbus(sender))
            return .success(())
        } catch {
            return .failure(Self.refusal(error))
        }
    }

    func busLoadingStop(key: String, sender: String) -> Result<Void, BusError> {
        // Stopping a key nobody runs is fine over D-Bus (LoadingStop is idempotent for scripts).
        _ = service.loadingStop(key: key, requester: .dbus(sender))
        return .success(())
    }

    func busNameLost() {
        onNameLost()
    }

    func busClientVanished(_ name: String) {
        service.clientLeft(.dbus(name))
    }

    /// A Notify call as the core's request; its hints are read by the one `HintInterpreter`.
    static func notification(from call: BusNotification) -> NotificationRequest {
        var request = NotificationRequest(appName: call.appName, summary: call.summary, body: call.body)
        request.appIcon = call.appIcon
        request.actions = call.actions
        request.replacesID = call.replacesId
        request.expireTimeout = call.expiry
        request.origin = .dbus(call.sender)
        HintInterpreter.apply(call.hints, to: &request)
        return request
    }

    /// A refused call as D-Bus sends it: the same words the control socket's error carries.
    private static func refusal(_ error: some Error & CustomStringConvertible) -> BusError {
        .refused(message: error.description, name: BusErrorName.invalidArgs)
    }
}
