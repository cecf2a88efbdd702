import Glibc

/// Starting the programs toastd runs for a user (`on-notify` commands, sound players): posix_spawn,
/// never fork (the daemon is one thread over C libraries), with the signal state a program expects.
///
/// The daemon blocks the signals its signalfd reads and ignores SIGPIPE; a child would inherit both
/// through exec, and a shell that Ctrl-C or SIGTERM cannot stop is not what a user wrote. So the
/// child starts with an empty mask and those signals at their defaults. Its stdin is /dev/null: it
/// must not read the daemon's.
package enum ChildProcess {
    /// Where the child's standard output goes.
    package enum Output {
        /// Into toastd's log, with its standard error.
        case log
        /// Nowhere.
        case discarded
    }

    /// Starts `argv` (`argv[0]` looked up on PATH unless it is a path) with `environment` (toastd's
    /// own when nil). With `ownProcessGroup`, a terminal's Ctrl-C to a foreground toastd does not also
    /// reach the child. `passing` becomes the child's fd 3 (`/dev/fd/3`: a file toastd opened and
    /// checked, handed over instead of its path). Returns its pid, or the errno posix_spawn gave.
    package static func spawn(_ argv: [String], environment: [String]? = nil, output: Output,
                              ownProcessGroup: Bool = false, passing: Int32? = nil,
                              executable: String? = nil) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch output {
        case .log: posix_spawn_file_actions_adddup2(&actions, 2, 1)
        case .discarded: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        // dup2 clears close-on-exec on the copy, but a dup2 onto itself copies nothing: a descriptor that
        // already is `passedFD` is moved out of the way first.
        let source = passing == passedFD ? fcntl(passedFD, F_DUPFD_CLOEXEC, 10) : passing
        defer { if let source, source != passing { close(source) } }
        if let source { posix_spawn_file_actions_adddup2(&actions, source, passedFD) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let cArgv: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnvironment: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for pointer in cArgv { free(pointer) }
            for pointer in cEnvironment ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let program = executable ?? argv[0]
        let status = cEnvironment.map { env in
            posix_spawnp(&pid, program, &actions, &attributes, cArgv, env)
        } ?? posix_spawnp(&pid, program, &actions, &attributes, cArgv, environ)
        return status == 0 ? .success(pid) : .failure(SpawnError(code: status))
    }

    /// The descriptor number a passed file has in the child.
    package static let passedFD: Int32 = 3

    /// Why a program did not start: posix_spawn's errno.
    package struct SpawnError: Error, CustomStringConvertible {
        package var code: Int32
        package var description: String { String(cString: strerror(code)) }
    }
}
