#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ToastProtocol

extension Loading {
    /// `toast loading run KEY [--label TEXT] -- CMD ARGS…`: the spinner shows while CMD runs.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run a command with a loading spinner named KEY showing while it runs.",
            usage: "toast loading run <key> [--label <label>] -- <command> [<argument> ...]",
            discussion: """
                The command inherits standard input, output and error; toast exits with its exit status \
                (128 + N if signal N ended it). SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to toast alone are \
                passed on to the command (Ctrl-C in a terminal reaches both already). The spinner stops when \
                the command ends, however it ends; if toast itself is killed, toastd stops it after \
                loading-grace. If toastd is not running, the command runs without a spinner (with a warning).
                """)

        @Argument(help: "The spinner's name.")
        var key: String

        @Option(help: "A text label.")
        var label: String?

        @Argument(parsing: .postTerminator, help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"))
        var command: [String] = []

        mutating func validate() throws {
            if key.isEmpty { throw ValidationError("KEY must not be empty") }
            if command.isEmpty { throw ValidationError("missing the command to run, after --") }
        }

        func run() throws {
            throw ExitCode(CommandWithSpinner(key: key, label: label, command: command).run())
        }
    }
}

/// Runs a command under a spinner: the signals toast forwards are blocked and taken one at a time
/// with `sigwaitinfo`, so there is no handler and no state shared with one.
struct CommandWithSpinner {
    var key: String
    var label: String?
    var command: [String]

    /// The signals passed on to the command; SIGCHLD says it ended.
    static let forwarded = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Starts the spinner, runs the command, stops the spinner; returns the command's exit status.
    func run() -> Int32 {
        var waited = sigset_t()
        sigemptyset(&waited)
        for signal in Self.forwarded + [SIGCHLD] { sigaddset(&waited, signal) }
        var original = sigset_t()
        sigprocmask(SIG_BLOCK, &waited, &original)

        // Attached: were toast killed outright, toastd would still stop the spinner (after the grace).
        var connection: Connection?
        do {
            let c = try Connection()
            _ = try c.call(.loadingStart(key: key, label: label, detach: false))
            connection = c
        } catch {
            Output.error("warning: \(error.message) (running the command without a spinner)")
        }

        let child: pid_t
        switch spawn(signalMask: original) {
        case .failed(let code):
            Output.error("cannot run \(command[0]): \(Connection.errorText(code))")
            stop(connection)
            // As a shell reports a command it cannot find or run.
            return code == ENOENT ? 127 : 126
        case .started(let pid):
            child = pid
        }

        var status: Int32 = 0
        while true {
            var info = siginfo_t()
            let signal = sigwaitinfo(&waited, &info)
            if signal < 0 { continue }  // EINTR
            if signal == SIGCHLD {
                var raw: Int32 = 0
                let reaped = waitpid(child, &raw, WNOHANG)
                guard reaped == child else { continue }
                if raw & 0x7f == 0 {
                    status = (raw >> 8) & 0xff  // exited
                } else if (raw >> 8) & 0xff == 0x7f {
                    continue  // stopped, not ended
                } else {
                    status = 128 + (raw & 0x7f)  // killed by a signal
                }
                break
            }
            // A terminal's Ctrl-C (SI_KERNEL) already went to the whole foreground group, the command
            // included: passing it on would deliver it twice.
            if info.si_code != SI_KERNEL { kill(child, signal) }
        }
        stop(connection)
        return status
    }

    /// Stops the spinner; a toastd that went away or already stopped it is no error here.
    private func stop(_ connection: Connection?) {
        guard let connection else { return }
        _ = try? connection.call(.loadingStop(key: key))
    }

    /// posix_spawnp with the signal mask toast had and default dispositions: the command starts as
    /// it would from the shell.
    private enum Spawned {
        case started(pid_t)
        case failed(errno: Int32)
    }

    private func spawn(signalMask: sigset_t) -> Spawned {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = signalMask
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Self.forwarded + [SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], nil, &attributes, argv, environ)
        return result == 0 ? .started(pid) : .failed(errno: result)
    }
}
