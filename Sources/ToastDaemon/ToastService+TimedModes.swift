import ToastCore
import ToastProtocol
import ToastVocabulary

/// Do-not-disturb (and any mode) that ends: `toast dnd on --for 30m`, `toast mode -a work --until
/// 18:00`. The model ends a mode at a monotonic instant; clients and the modes file speak wall-clock
/// time, converted here at the moment of asking.
extension ToastService {
    /// Turns do-not-disturb on, off, or over (`nil`); on, it ends by itself at `until` (wall-clock
    /// seconds; nil: it stays on). Returns the new state.
    @discardableResult
    func setDoNotDisturb(_ on: Bool?, until: Int64?) -> Bool {
        let on = setDoNotDisturb(on)
        if on { endMode(ModeNames.doNotDisturb, at: until) }
        return on
    }

    /// Applies `change` (`toast mode`); the modes it adds end at its `until`. Returns the modes on.
    @discardableResult
    func changeModes(_ change: ModeChange) -> [String] {
        let names = changeModes(change.applied(to: model.modes))
        for name in change.add { endMode(name, at: change.until) }
        return names
    }

    /// When do-not-disturb ends by itself, in wall-clock seconds (to the nearest: the monotonic and
    /// wall clocks' round trip may move a whole second's end by a millisecond); nil when it is off or stays.
    var doNotDisturbUntil: Int64? {
        model.doNotDisturbEnd.map { Self.seconds(ofMilliseconds: wallMilliseconds(of: $0)) }
    }

    /// The modes that end by themselves and when, in wall-clock milliseconds, for the modes file.
    var timedModes: [TimedMode] {
        model.modes.compactMap { name in model.modeEnds[name].map { TimedMode(name: name, end: wallMilliseconds(of: $0)) } }
    }

    /// Turns on again the modes an earlier run kept (the modes file), those not yet over.
    func restoreTimedModes(_ modes: [TimedMode]) {
        let wall = wallNow()
        let pending = modes.filter { $0.end > wall && ModeNames.isValid($0.name) }
        guard !pending.isEmpty else { return }
        _ = changeModes(model.modes + pending.map(\.name).filter { !model.modes.contains($0) })
        for mode in pending { endModeAt(mode.name, wallMilliseconds: mode.end) }
    }

    private func endMode(_ name: String, at until: Int64?) {
        guard let until else { return change { model, _ in model.setModeEnd(name, at: nil) } }
        let (milliseconds, overflow) = until.multipliedReportingOverflow(by: 1000)
        endModeAt(name, wallMilliseconds: overflow ? .max : milliseconds)
    }

    private func endModeAt(_ name: String, wallMilliseconds end: Int64) {
        let wall = wallNow()
        change { model, now in model.setModeEnd(name, at: now + (end &- wall)) }
    }

    private func wallMilliseconds(of instant: Instant) -> Int64 {
        wallNow() &+ (instant - now())
    }

    private static func seconds(ofMilliseconds milliseconds: Int64) -> Int64 {
        (milliseconds + 500) / 1000
    }
}

/// A mode on until a moment: its name and its end in wall-clock milliseconds since the epoch.
struct TimedMode: Equatable {
    var name: String
    var end: Int64
}
