/// How often a screen reader is told that a value changed (`a11y-hud-interval`): at most once per
/// `interval`. A change after a quiet interval is told at once; changes within the interval only
/// replace the value that waits, which is told when the interval ends. A key held down is heard as its
/// first value and then about once an interval, ending on the last one, with no backlog to catch up on.
/// Pure: times are the caller's milliseconds on one monotonic clock.
package struct AnnouncementThrottle<Value: Equatable & Sendable>: Equatable, Sendable {
    /// Milliseconds; 0 tells every change.
    package var interval: Int64
    /// When a value was told last.
    private var toldAt: Int64?
    /// The newest value not told yet.
    package private(set) var waiting: Value?

    package init(interval: Int64) { self.interval = interval }

    /// A new value at `now`: returned when it is to be told now, nil when it waits (`due`).
    package mutating func offer(_ value: Value, now: Int64) -> Value? {
        if let toldAt, now - toldAt < interval {
            waiting = value
            return nil
        }
        toldAt = now
        waiting = nil
        return value
    }

    /// When the waiting value is to be told; nil when none waits.
    package var due: Int64? {
        guard waiting != nil, let toldAt else { return nil }
        return toldAt + interval
    }

    /// The waiting value, when its time has come at `now` (a timer that fired early finds nothing).
    package mutating func take(now: Int64) -> Value? {
        guard let due, now >= due else { return nil }
        defer { waiting = nil; toldAt = now }
        return waiting
    }

    /// The waiting value at once, whatever the time (the object it belongs to is leaving).
    package mutating func flush(now: Int64) -> Value? {
        guard let value = waiting else { return nil }
        waiting = nil
        toldAt = now
        return value
    }
}
