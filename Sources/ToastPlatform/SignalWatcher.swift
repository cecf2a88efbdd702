import CLinux
import Glibc

/// SIGINT, SIGTERM, SIGHUP and SIGCHLD delivered through a signalfd, so they arrive as loop events:
/// the daemon closes its surfaces and removes its socket file before exiting, reloads its
/// configuration (SIGHUP) between two requests, or reaps the children that ended (SIGCHLD: the
/// commands of `exec` bindings and the sound players, each reaped by its owner, pid by pid).
/// SIGPIPE is ignored:
/// a client that hangs up mid-reply must not kill the daemon.
package final class SignalWatcher {
    package let fd: Int32

    package init() throws(SystemError) {
        signal(SIGPIPE, SIG_IGN)
        var mask = sigset_t()
        sigemptyset(&mask)
        for sig in [SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&mask, sig) }
        sigprocmask(SIG_BLOCK, &mask, nil)
        fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        if fd < 0 { throw SystemError("signalfd") }
    }

    deinit { close(fd) }

    /// The signals that arrived since the last call.
    package func drain() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            signals.append(Int32(info.ssi_signo))
        }
        return signals
    }
}
