import Glibc

/// Runs the commands of `exec` bindings (`on-notify`, `on-button-*`): `sh -c COMMAND`, started with
/// posix_spawn (a fork of a Swift process is not safe) and never waited for on the loop. Children are
/// reaped when SIGCHLD arrives through the daemon's signalfd (`reap()`); their output goes to toastd's
/// own stderr, the log. At most `limit` run at once: a command that would exceed it is skipped with a
/// log line, so a flood of notifications cannot fork-bomb the session.
package final class CommandRunner {
    /// Commands still running, by pid.
    package private(set) var running: [pid_t: String] = [:]
    package let limit: Int

    package init(limit: Int = 8) {
        self.limit = limit
    }

    /// Starts `sh -c command` with `environment` added to toastd's own; returns its pid, or nil when it
    /// was skipped or could not start (logged).
    @discardableResult
    package func run(_ command: String, environment added: [(name: String, value: String)]) -> pid_t? {
        guard running.count < limit else {
            Log.warning("\(running.count) commands still running; not running '\(Self.excerpt(command))'")
            return nil
        }
        var names = Set(added.map(\.name))
        names.insert("")
        var environment = added.map { "\($0.name)=\($0.value)" }
        // toastd's own environment (PATH, WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS...), minus what the
        // notification sets: a TOASTD_SUMMARY inherited from toastd's parent must not shadow the real one.
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            let name = String(text.prefix { $0 != "=" })
            if !names.contains(name) { environment.append(text) }
            entry += 1
        }

        switch ChildProcess.spawn(["/bin/sh", "-c", command], environment: environment, output: .log,
                                  ownProcessGroup: true) {
        case .success(let pid):
            running[pid] = command
            return pid
        case .failure(let error):
            Log.warning("cannot run '\(Self.excerpt(command))': \(error)")
            return nil
        }
    }

    /// Collects the commands that have finished (after SIGCHLD; several may have ended for one signal).
    /// Only this runner's pids are waited for: the sound player reaps its own children from the same
    /// SIGCHLD, and `waitpid(-1)` here would take them from it.
    package func reap() {
        for (pid, command) in running {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == 0 || (result < 0 && errno == EINTR) { continue }
            running[pid] = nil
            guard result == pid else { continue }
            // WIFEXITED/WEXITSTATUS are macros: the low 7 bits are the signal, the next 8 the status.
            let signal = status & 0x7f
            if signal != 0 {
                Log.warning("'\(Self.excerpt(command))' was killed by signal \(signal)")
            } else if (status >> 8) & 0xff != 0 {
                Log.info("'\(Self.excerpt(command))' exited with status \((status >> 8) & 0xff)")
            }
        }
    }

    private static func excerpt(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}
