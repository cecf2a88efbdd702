import Foundation

/// A point in monotonic time after which a wait gives up.
struct Deadline: Sendable {
    let instant: ContinuousClock.Instant

    /// The deadline `seconds` from now.
    static func after(_ seconds: Double) -> Deadline {
        Deadline(instant: .now + .milliseconds(Int64(seconds * 1000)))
    }

    var hasPassed: Bool { ContinuousClock.now >= instant }

    /// Milliseconds left, at least 0; for poll(2).
    var remainingMilliseconds: Int32 {
        let left = instant - ContinuousClock.now
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}

/// Polls `condition` every `interval` seconds until it holds or `deadline` passes.
/// Returns whether it held. Polling a condition is how tests wait; a fixed sleep is not.
@discardableResult
func waitUntil(_ deadline: Deadline, interval: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    while true {
        if try condition() { return true }
        if deadline.hasPassed { return false }
        usleep(useconds_t(interval * 1_000_000))
    }
}

/// `waitUntil` with a timeout in seconds.
@discardableResult
func waitUntil(timeout: Double, interval: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    try waitUntil(.after(timeout), interval: interval, condition)
}
