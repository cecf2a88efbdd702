import ToastCore
import ToastDBus
import ToastPlatform
import ToastVocabulary

/// mako's and dunst's control interfaces (`makoctl`, `dunstctl`) served by the toastd service: the
/// same operations as the socket's `dismiss`, `action`, `restore`, `list`, `history` and `mode`.
final class CompatControlDoor: CompatControlDelegate {
    private let service: ToastService
    /// Rereads the configuration; returns its warnings (`Daemon.reloadConfig`).
    private let reload: () -> [String]

    init(service: ToastService, reload: @escaping () -> [String]) {
        self.service = service
        self.reload = reload
    }

    func controlDismiss(id: UInt32?, group: Bool, all: Bool) {
        if all { return service.dismissAll() }
        guard let id else {
            // makoctl dismiss: the newest toast, with its group when asked (dunstctl close: just it).
            if group, let newest = service.newestShowing { service.dismissGroup(of: newest) } else { _ = service.dismissNewest() }
            return
        }
        if group { service.dismissGroup(of: id) } else { service.close(id: id, reason: .dismissed) }
    }

    func controlInvoke(id: UInt32?, key: String) {
        guard let id = id ?? service.newestShowing,
              service.model.notification(id: id)?.actions.contains(where: { $0.key == key }) == true else { return }
        do {
            try service.invokeAction(id: id, key: key)
        } catch {
            Log.warning("action \(key) of \(id) (makoctl or dunstctl): \(error)")
        }
    }

    func controlRestore(id: UInt32?) -> Bool { service.restore(id: id) != nil }

    func controlClearHistory() -> UInt32 { UInt32(clamping: service.clearHistory()) }

    func controlShowing() -> [ControlledNotification] {
        service.model.all.filter(\.isVisible).map(Self.controlled)
    }

    func controlWaitingCount() -> UInt32 {
        UInt32(clamping: service.model.all.count { !$0.isVisible })
    }

    func controlHistory() -> [ControlledNotification] {
        service.model.history.map { Self.controlled($0.notification) }
    }

    func controlModes() -> [String] { service.model.modes }

    func controlSetModes(_ modes: [String]) -> Result<Void, BusError> {
        if let bad = modes.first(where: { !ModeNames.isValid($0) }) {
            return .failure(.refused(message: "\"\(bad.prefix(80))\" is not a mode name", name: BusErrorName.invalidArgs))
        }
        service.changeModes(modes)
        return .success(())
    }

    func controlReload() -> Result<Void, BusError> {
        let warnings = reload()
        for warning in warnings { Log.warning("reload (makoctl or dunstctl): \(warning)") }
        if let refusal = warnings.last(where: { $0.hasPrefix(Daemon.reloadRefused) }) { return .failure(.refused(message: refusal)) }
        return .success(())
    }

    private static func controlled(_ n: Notification) -> ControlledNotification {
        var out = ControlledNotification(id: n.id)
        out.appName = n.appName
        out.appIcon = n.appIcon
        out.summary = n.summary
        out.body = n.body
        out.category = n.category ?? ""
        out.desktopEntry = n.desktopEntry ?? ""
        out.urgency = n.urgency.specValue
        out.actions = n.actions.map { StringPair($0.key, $0.label) }
        out.progress = n.progress.map { Int32(clamping: $0) } ?? -1
        out.arrivedMicroseconds = n.createdAt.milliseconds &* 1000
        out.tag = n.tag ?? ""
        return out
    }
}
