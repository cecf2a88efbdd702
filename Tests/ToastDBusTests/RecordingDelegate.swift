import ToastDBus

/// Records every delegate call; hands out ids from 42 up.
final class RecordingDelegate: NotificationsBusDelegate {
    var notifications: [BusNotification] = []
    var closed: [UInt32] = []
    var values: [(kind: String, value: Int32, label: String, muted: Bool, sender: String)] = []
    var loadingStarted: [(key: String, label: String, sender: String)] = []
    var loadingStopped: [(key: String, sender: String)] = []
    var nameLostCount = 0
    var vanished: [String] = []
    var nextId: UInt32 = 42
    var refuseNotify: BusError? = nil

    func busNotify(_ notification: BusNotification) -> Result<UInt32, BusError> {
        notifications.append(notification)
        if let refuseNotify { return .failure(refuseNotify) }
        if notification.replacesId != 0 { return .success(notification.replacesId) }
        defer { nextId += 1 }
        return .success(nextId)
    }

    func busClose(id: UInt32) { closed.append(id) }

    func busShowValue(kind: String, value: Int32, label: String, muted: Bool, sender: String) -> Result<Void, BusError> {
        if kind == "bogus" { return .failure(.refused(message: "unknown kind 'bogus'", name: BusErrorName.invalidArgs)) }
        values.append((kind, value, label, muted, sender))
        return .success(())
    }

    func busLoadingStart(key: String, label: String, sender: String) -> Result<Void, BusError> {
        loadingStarted.append((key, label, sender))
        return .success(())
    }

    func busLoadingStop(key: String, sender: String) -> Result<Void, BusError> {
        loadingStopped.append((key, sender))
        return .success(())
    }

    func busNameLost() { nameLostCount += 1 }

    func busClientVanished(_ name: String) { vanished.append(name) }
}
