import ToastVocabulary

/// A point on the monotonic clock (CLOCK_MONOTONIC), in milliseconds.
///
/// The model never reads a clock: every operation that depends on time takes `now` from the daemon,
/// which makes the model deterministic and its tests instant.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// From a `timespec` of `clock_gettime(CLOCK_MONOTONIC)`, rounded down to the millisecond (so a timer
    /// armed at a deadline never wakes to find it still in the future).
    public init(seconds: Int64, nanoseconds: Int64) {
        milliseconds = seconds * 1000 + nanoseconds / 1_000_000
    }

    /// As a `timespec` for an absolute CLOCK_MONOTONIC `timerfd_settime`.
    public var secondsAndNanoseconds: (seconds: Int64, nanoseconds: Int64) {
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
        return seconds.remainder >= 0
            ? (seconds.quotient, seconds.remainder * 1_000_000)
            : (seconds.quotient - 1, (seconds.remainder + 1000) * 1_000_000)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    /// The earlier of two deadlines, either of which may be missing (nil: neither is set). Made of no
    /// array: the daemon asks for its next deadline at every HUD value.
    public static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return Swift.min(a, b)
    }

    /// `instant + duration`, saturating so that a huge client-supplied timeout cannot trap.
    public static func + (lhs: Instant, rhs: Milliseconds) -> Instant {
        let (sum, overflow) = lhs.milliseconds.addingReportingOverflow(rhs)
        return Instant(milliseconds: overflow ? (rhs > 0 ? .max : .min) : sum)
    }

    /// The duration from `rhs` to `lhs` (saturating).
    public static func - (lhs: Instant, rhs: Instant) -> Milliseconds {
        let (difference, overflow) = lhs.milliseconds.subtractingReportingOverflow(rhs.milliseconds)
        return overflow ? (lhs > rhs ? .max : .min) : difference
    }

    public var description: String { "\(milliseconds)ms" }
}
