import CLinux
import Glibc
import ToastPlatform

extension Daemon {
    /// The longest `toastd --replace` waits for the daemon it replaced to leave.
    static let replacedExitTimeoutMilliseconds: Int32 = 3000

    /// `toastd --replace`: once the bus name is ours, the daemon that had it stops, saves its history
    /// (the toasts it closed last) and exits. This one reads the history only after that, or it would
    /// read the file before that last save and then write over it. Waits for `pid` to exit, at most
    /// `replacedExitTimeoutMilliseconds`; before the loop runs, so nothing else waits on it.
    static func awaitExit(ofReplaced pid: Int32?) {
        guard let pid, pid > 0, pid != getpid() else { return }
        let fd = clinux_pidfd_open(pid)
        guard fd >= 0 else { return }  // gone already (ESRCH), or a kernel without pidfd_open
        defer { close(fd) }
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.nanoseconds() + Int64(replacedExitTimeoutMilliseconds) * 1_000_000
        while true {
            let left = Int32(max(0, (deadline - MonotonicClock.nanoseconds()) / 1_000_000))
            let result = poll(&ready, 1, left)
            if result > 0 { return }
            if result < 0 && errno == EINTR { continue }
            Log.warning("the daemon replaced (pid \(pid)) has not exited after \(replacedExitTimeoutMilliseconds) ms; "
                        + "its last history may be lost")
            return
        }
    }
}
