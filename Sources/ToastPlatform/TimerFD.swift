import CLinux
import Glibc

/// One timerfd armed at the earliest deadline the model reports. A single absolute one-shot timer is
/// enough: after it fires the daemon advances the model and re-arms at the next deadline, or disarms.
package final class DeadlineTimer {
    package let fd: Int32
    private var armedAt: Int64?

    package init() throws(SystemError) {
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        if fd < 0 { throw SystemError("timerfd_create") }
    }

    deinit { close(fd) }

    /// Arms the timer at `deadline` (monotonic ns), or disarms it when nil. No syscall if unchanged, nor
    /// when the timer is armed earlier than `deadline` (`keepsEarlier`): it then fires early, the daemon
    /// finds nothing due and arms it again. A stream of HUD values moves the bar's hiding later with every
    /// value; re-arming for each cost a system call per value, firing early costs a wakeup per timeout.
    /// With `keepingEarlier` false the timer is armed exactly at `deadline`: the earlier deadline it
    /// holds is no longer anything's (a frame deadline whose frame came, `FrameDeadlineArming`).
    package func arm(at deadline: Int64?, keepingEarlier: Bool = true) {
        guard deadline != armedAt, !(keepingEarlier && Self.keepsEarlier(armed: armedAt, deadline: deadline)) else { return }
        armedAt = deadline
        var spec = itimerspec()
        if let deadline {
            // A zero it_value disarms, so a deadline at 0 (never in practice) is nudged to 1 ns.
            let at = max(deadline, 1)
            spec.it_value = timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000))
        }
        _ = timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Whether a timer armed at `armed` may stay as it is for `deadline`: it fires no later (nil: not armed).
    package static func keepsEarlier(armed: Int64?, deadline: Int64?) -> Bool {
        guard let armed, let deadline else { return false }
        return armed <= deadline
    }

    /// The deadline the timer is armed at (monotonic ns; nil: disarmed or spent).
    package var armedDeadline: Int64? { armedAt }

    /// Reads the expiry count so the fd stops being readable; the armed deadline is spent.
    package func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, MemoryLayout<UInt64>.size)
        armedAt = nil
    }
}

/// A timer the loop watches for as long as it exists: made when something needs waking (a key held
/// repeats), dropped when nothing does, so that nothing wakes the loop meanwhile.
package final class LoopTimer {
    private let timer: DeadlineTimer
    private let loop: EventLoop

    /// `fired` runs on the loop each time the timer armed (`arm`) is due.
    package init(loop: EventLoop, fired: @escaping () -> Void) throws(SystemError) {
        timer = try DeadlineTimer()
        self.loop = loop
        let timer = self.timer
        try loop.add(fd: timer.fd, events: EventLoop.readable) { _ in
            timer.acknowledge()
            fired()
        }
    }

    deinit { loop.remove(fd: timer.fd) }

    /// Wakes the loop at `deadline` (monotonic ns).
    package func arm(at deadline: Int64) { timer.arm(at: deadline, keepingEarlier: false) }
}
