import ToastPlatform

/// Away time does not count: after `idle-threshold` without input the toasts' timeouts stop, and
/// run on from what they had left at the next input (`NotificationStore+Seen.swift`).
extension Daemon {
    /// Watches the seat's idle time as the configuration says (again after a reload that changed
    /// it). Without a protocol for it, says so once and does without.
    func watchIdle() {
        idleWatch = nil
        service.setAway(false)
        guard config.idleThreshold > 0 else { return }
        guard let notifier = wayland.idleNotifier, let seat = wayland.firstSeat else {
            if !idleUnavailableSaid {
                idleUnavailableSaid = true
                Log.info("idle: the compositor offers neither ext_idle_notifier_v1 nor org_kde_kwin_idle (or no seat); "
                         + "toasts expire while the seat is idle")
            }
            return
        }
        let threshold = UInt32(clamping: config.idleThreshold)
        idleWatch = IdleWatch(notifier: notifier, seat: seat, threshold: threshold) { [unowned self] away in
            Log.info(away ? "idle: the seat is away; timeouts wait" : "idle: the seat is back; timeouts run")
            self.service.setAway(away)
        }
        Log.info("idle: timeouts wait after \(config.idleThreshold / 1000) s without input (\(notifier.interfaceName))")
    }
}
