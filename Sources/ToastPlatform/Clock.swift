import Glibc

/// Monotonic time, the clock every timeout, frame and expiry is measured on.
package enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start (CLOCK_MONOTONIC).
    package static func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// Wall time, read only to date what outlives the process (the history file's records).
package enum WallClock {
    /// Now, in milliseconds since the epoch (CLOCK_REALTIME).
    package static func milliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
