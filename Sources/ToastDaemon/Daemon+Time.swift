import ToastPlatform

/// What the daemon keeps for time that respects the person.
struct TimeKeeping {
    /// The seat's idle time, while watched.
    var idleWatch: IdleWatch?
    /// Whether the log said that idle time cannot be watched (said once per run).
    var idleUnavailableSaid = false
    /// The modes file and what it holds now (nil: not read yet, or no state directory).
    var modesFile: HistoryFile?
    var savedModes: [TimedMode] = []
}

/// Away time does not count: after `idle-threshold` without input the toasts' timeouts stop, and
/// run on from what they had left at the next input (`NotificationStore+Seen.swift`). Modes that end
/// (`toast dnd on --for 2h`) outlive a restart in the modes file, beside the history.
extension Daemon {
    /// At start: watches idle time, and turns on again the modes an earlier run left timed.
    func respectTime() {
        watchIdle()
        guard let history = HistoryFile.defaultPath(Environment.variable),
              let slash = history.lastIndex(of: "/") else { return }
        let file = HistoryFile(path: history[..<slash] + "/modes")
        timeKeeping.modesFile = file
        if case .bytes(let bytes) = ConfigFile.read(file.path, maxSize: ModesFormat.maxBytes) {
            let modes = ModesFormat.decode(bytes)
            timeKeeping.savedModes = modes
            service.restoreTimedModes(modes)
            if let until = service.doNotDisturbUntil { Log.info("do-not-disturb on until \(until) (kept from the last run)") }
        }
    }

    /// Watches the seat's idle time as the configuration says (again after a reload that changed
    /// it). Without a protocol for it, says so once and does without.
    func watchIdle() {
        timeKeeping.idleWatch = nil
        service.setAway(false)
        guard config.idleThreshold > 0 else { return }
        guard let notifier = wayland.idleNotifier, let seat = wayland.firstSeat else {
            if !timeKeeping.idleUnavailableSaid {
                timeKeeping.idleUnavailableSaid = true
                Log.info("idle: the compositor offers neither ext_idle_notifier_v1 nor org_kde_kwin_idle (or no seat); "
                         + "toasts expire while the seat is idle")
            }
            return
        }
        timeKeeping.idleWatch = IdleWatch(notifier: notifier, seat: seat, threshold: UInt32(clamping: config.idleThreshold)) {
            [unowned self] away in
            Log.info(away ? "idle: the seat is away; timeouts wait" : "idle: the seat is back; timeouts run")
            self.service.setAway(away)
        }
        Log.info("idle: timeouts wait after \(Double(config.idleThreshold) / 1000) s without input (\(notifier.interfaceName))")
    }

    /// Writes the modes file when the timed modes changed (a mode turned on for a while, or ended).
    /// Small and rare: written at once, whole, by rename.
    func keepTimedModes() {
        // Every turn with a change comes here (each value of a HUD stream): most have no timed mode.
        guard let file = timeKeeping.modesFile,
              !timeKeeping.savedModes.isEmpty || service.readModel({ !$0.modeEnds.isEmpty }) else { return }
        let modes = service.timedModes
        // The same modes with ends moved by rounding are the same: only names and ends given matter.
        guard modes.map(\.name) != timeKeeping.savedModes.map(\.name)
              || zip(modes, timeKeeping.savedModes).contains(where: { abs($0.end - $1.end) > 1000 }) else { return }
        timeKeeping.savedModes = modes
        do {
            try file.save(ModesFormat.encode(modes))
        } catch {
            Log.warning("modes file \(file.path) not written: \(error)")
        }
    }
}
