import Glibc

/// Runs the commands of `exec` bindings (`on-notify`, `on-button-*`): `sh -c COMMAND`, started with
/// posix_spawn (a fork of a Swift process is not safe) and never waited for on the loop. Children are
/// reaped when SIGCHLD arrives through the daemon's signalfd (`reap()`); their output goes to toastd's
/// own stderr, the log. At most `limit` run at once, and together with the sound players no more than
/// `budget` allows: a command that cannot start waits in a queue of at most `queueLimit`, in order,
/// and one that finds the queue full is dropped (`ChildBudget` logs it), so a flood of notifications
/// can neither fork-bomb the session nor lose a command without a word.
package final class CommandRunner {
    package typealias Environment = [(name: String, value: String)]

    /// Commands still running, by pid.
    package private(set) var running: [pid_t: String] = [:]
    package let limit: Int
    package let queueLimit: Int
    /// The bound shared with every other kind of child.
    package let budget: ChildBudget
    /// Commands waiting for a slot, oldest first.
    private var queue: [(command: String, environment: Environment)] = []

    package init(limit: Int = 8, queueLimit: Int = 32, budget: ChildBudget = ChildBudget()) {
        self.limit = limit
        self.queueLimit = queueLimit
        self.budget = budget
    }

    /// Commands waiting for a slot.
    package var queued: Int { queue.count }

    /// Runs `sh -c command` with `environment` added to toastd's own now if a slot is free, else queues
    /// it (or drops it, the queue being full). Returns its pid when it started now.
    @discardableResult
    package func run(_ command: String, environment added: Environment) -> pid_t? {
        guard queue.isEmpty, running.count < limit, budget.take() else {
            if queue.count < queueLimit {
                queue.append((command, added))
            } else {
                budget.drop("command", "'\(Self.excerpt(command))'")
            }
            return nil
        }
        return start(command, environment: added)
    }

    /// Starts the queued commands there is room for now (a child ended, of this runner or another).
    package func startQueued() {
        while !queue.isEmpty, running.count < limit, budget.take() {
            let next = queue.removeFirst()
            start(next.command, environment: next.environment)
        }
    }

    /// Starts `sh -c command`, its slot in `budget` already taken.
    @discardableResult
    private func start(_ command: String, environment added: Environment) -> pid_t? {
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
            budget.release()
            Log.warning("cannot run '\(Self.excerpt(command))': \(error)")
            return nil
        }
    }

    /// Collects the commands that have finished (after SIGCHLD; several may have ended for one signal),
    /// then starts what waits. Only this runner's pids are waited for: the sound player reaps its own
    /// children from the same SIGCHLD, and `waitpid(-1)` here would take them from it.
    package func reap() {
        defer { startQueued() }
        for (pid, command) in running {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == 0 || (result < 0 && errno == EINTR) { continue }
            running[pid] = nil
            budget.release()
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
