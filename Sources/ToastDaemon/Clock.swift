import Glibc
import ToastCore

/// Monotonic time, the only clock the daemon reads. Wall time never drives timeouts.
enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start (CLOCK_MONOTONIC).
    static func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
