import Foundation

/// What a finished command left behind.
struct CommandResult: Sendable {
    /// Exit status, or 128 + signal number if a signal ended it.
    var status: Int32
    var stdout: Data
    var stderr: Data

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    var succeeded: Bool { status == 0 }
}

enum SubprocessError: Error, CustomStringConvertible {
    case spawnFailed(argv: [String], errno: Int32)
    case timedOut(argv: [String], stdout: String, stderr: String)
    case failed(argv: [String], status: Int32, stderr: String)

    var description: String {
        switch self {
        case let .spawnFailed(argv, err):
            return "cannot start \(argv.joined(separator: " ")): \(String(cString: strerror(err)))"
        case let .timedOut(argv, out, err):
            return "\(argv.joined(separator: " ")) did not finish in time\nstdout: \(out)\nstderr: \(err)"
        case let .failed(argv, status, err):
            return "\(argv.joined(separator: " ")) exited with \(status): \(err)"
        }
    }
}

/// A pipe whose ends are close-on-exec in this process (only the child's dup2 copy survives exec).
private func makePipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    precondition(pipe(&fds) == 0, "pipe: \(String(cString: strerror(errno)))")
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return (fds[0], fds[1])
}

/// Starts argv[0] (looked up in PATH of `environment`) with stdout/stderr on the given fds.
private func spawnProcess(_ argv: [String], environment: [String: String],
                          stdin: Int32?, stdout: Int32, stderr: Int32) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdin {
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)

    let cArgv = argv.map { strdup($0) } + [nil]
    let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        cArgv.forEach { free($0) }
        cEnv.forEach { free($0) }
    }
    // posix_spawnp searches the caller's PATH; resolve with the child's PATH ourselves.
    let path = resolve(argv[0], path: environment["PATH"] ?? "/usr/bin:/bin")
    var pid: pid_t = 0
    let err = posix_spawn(&pid, path, &actions, nil, cArgv, cEnv)
    guard err == 0 else { throw SubprocessError.spawnFailed(argv: argv, errno: err) }
    return pid
}

private func resolve(_ name: String, path: String) -> String {
    if name.contains("/") { return name }
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return name
}

/// Starts a process that lives until this one exits: its stdin is a pipe whose write end this
/// process keeps open and never writes, so the child sees end of file when we are gone (however we
/// end). Waits up to `timeout` for its first stdout line and returns it with the pid; stderr goes
/// to `stderrLog`. The pipes stay open for the rest of this process's life, on purpose.
func spawnTiedToThisProcess(_ argv: [String], environment: [String: String], stderrLog: String,
                            timeout: Double) throws -> (pid: pid_t, firstLine: String?) {
    let input = makePipe(), output = makePipe()
    let log = open(stderrLog, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    defer {
        close(input.read)
        close(output.write)
        if log >= 0 { close(log) }
    }
    let pid = try spawnProcess(argv, environment: environment, stdin: input.read, stdout: output.write,
                               stderr: log >= 0 ? log : output.write)
    let deadline = Deadline.after(timeout)
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
        var fds = [pollfd(fd: output.read, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, deadline.remainingMilliseconds) > 0 else { break }
        var byte: UInt8 = 0
        guard read(output.read, &byte, 1) == 1 else { break }
        line.append(byte)
    }
    let text = line.contains(UInt8(ascii: "\n"))
        ? String(decoding: line.dropLast(), as: UTF8.self) : nil
    return (pid, text)
}

/// Reaps `pid` if it has exited; returns its status (128 + signal when killed).
private func reap(_ pid: pid_t, block: Bool) -> Int32? {
    var status: Int32 = 0
    let r = waitpid(pid, &status, block ? 0 : WNOHANG)
    guard r == pid else { return nil }
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// Runs a command to completion, capturing stdout and stderr. Kills it and throws at the timeout.
func run(_ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
         input: Data? = nil, timeout: Double = 30) throws -> CommandResult {
    let out = makePipe(), err = makePipe()
    var inPipe: (read: Int32, write: Int32)?
    if input != nil { inPipe = makePipe() }
    let pid: pid_t
    do {
        pid = try spawnProcess(argv, environment: environment, stdin: inPipe?.read,
                               stdout: out.write, stderr: err.write)
    } catch {
        [out.read, out.write, err.read, err.write].forEach { close($0) }
        if let inPipe { close(inPipe.read); close(inPipe.write) }
        throw error
    }
    close(out.write)
    close(err.write)
    if let inPipe, let input {
        close(inPipe.read)
        // Small inputs only (a pipe holds 64 KiB); enough for keymaps and test payloads.
        input.withUnsafeBytes { _ = write(inPipe.write, $0.baseAddress, $0.count) }
        close(inPipe.write)
    }

    let deadline = Deadline.after(timeout)
    var buffers = [Data(), Data()]
    var open = [out.read, err.read]
    defer { [out.read, err.read].forEach { close($0) } }
    while open.contains(where: { $0 >= 0 }) {
        var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = poll(&fds, nfds_t(fds.count), deadline.remainingMilliseconds)
        if ready < 0 && errno == EINTR { continue }
        if ready <= 0 {
            kill(pid, SIGKILL)
            _ = reap(pid, block: true)
            throw SubprocessError.timedOut(argv: argv, stdout: String(decoding: buffers[0], as: UTF8.self),
                                           stderr: String(decoding: buffers[1], as: UTF8.self))
        }
        for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fds[i].fd, &chunk, chunk.count)
            if n > 0 { buffers[i].append(contentsOf: chunk[0..<n]) } else { open[i] = -1 }
        }
    }
    // Both pipes closed; the process is exiting (or left a child holding nothing of ours).
    while true {
        if let status = reap(pid, block: false) {
            return CommandResult(status: status, stdout: buffers[0], stderr: buffers[1])
        }
        if deadline.hasPassed {
            kill(pid, SIGKILL)
            _ = reap(pid, block: true)
            throw SubprocessError.timedOut(argv: argv, stdout: String(decoding: buffers[0], as: UTF8.self),
                                           stderr: String(decoding: buffers[1], as: UTF8.self))
        }
        usleep(1000)
    }
}

/// Runs a command and returns its stdout; throws if it fails.
@discardableResult
func check(_ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
           timeout: Double = 30) throws -> String {
    let result = try run(argv, environment: environment, timeout: timeout)
    guard result.succeeded else {
        throw SubprocessError.failed(argv: argv, status: result.status, stderr: result.stderrText)
    }
    return result.stdoutText
}

/// A process running in the background whose stdout is read line by line, on demand (no threads):
/// `waitForLine` polls its pipe until a matching line arrives or the deadline passes.
/// Its stderr goes to a log file (see `stderrLog`) so a chatty child never blocks on a full pipe.
final class BackgroundProcess {
    let argv: [String]
    let pid: pid_t
    /// Where the child's stderr goes.
    let stderrLog: String
    /// Every complete stdout line read so far.
    private(set) var lines: [String] = []
    private var partial = Data()
    private var stdoutFD: Int32
    private(set) var exitStatus: Int32?

    init(_ argv: [String], environment: [String: String], stderrLog: String) throws {
        self.argv = argv
        self.stderrLog = stderrLog
        let out = makePipe()
        let logFD = open(stderrLog, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard logFD >= 0 else { throw SubprocessError.spawnFailed(argv: argv, errno: errno) }
        defer { close(logFD) }
        do {
            pid = try spawnProcess(argv, environment: environment, stdin: nil, stdout: out.write, stderr: logFD)
        } catch {
            close(out.read); close(out.write)
            throw error
        }
        close(out.write)
        stdoutFD = out.read
        _ = fcntl(stdoutFD, F_SETFL, fcntl(stdoutFD, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        terminate()
        if stdoutFD >= 0 { close(stdoutFD) }
    }

    /// Whether the process still runs (reaps it if it has exited).
    var isRunning: Bool {
        if exitStatus == nil, let status = reap(pid, block: false) { exitStatus = status }
        return exitStatus == nil
    }

    /// What the child wrote to stderr so far.
    var stderrText: String { (try? String(contentsOfFile: stderrLog, encoding: .utf8)) ?? "" }

    /// Reads whatever stdout has now, waiting up to `deadline` for the first byte.
    /// Returns false at end of file.
    @discardableResult
    func pump(until deadline: Deadline) -> Bool {
        guard stdoutFD >= 0 else { return false }
        var fds = [pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, deadline.remainingMilliseconds) > 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 65536)
        var atEnd = false
        while true {
            let n = read(stdoutFD, &chunk, chunk.count)
            if n > 0 {
                partial.append(contentsOf: chunk[0..<n])
                continue
            }
            atEnd = n == 0
            break  // end of file, or EAGAIN: drained for now
        }
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[(newline + 1)...])
        }
        if atEnd {
            close(stdoutFD)
            stdoutFD = -1
            if !partial.isEmpty { lines.append(String(decoding: partial, as: UTF8.self)) }
            partial = Data()
            return false
        }
        return true
    }

    /// Waits for the first line, at index `from` or later, that satisfies `predicate`.
    /// Returns the line, or nil if the deadline passes or stdout ends first.
    func waitForLine(from: Int = 0, deadline: Deadline, where predicate: (String) -> Bool) -> String? {
        var checked = from
        while true {
            while checked < lines.count {
                if predicate(lines[checked]) { return lines[checked] }
                checked += 1
            }
            if deadline.hasPassed { return nil }
            if !pump(until: deadline) && checked >= lines.count { return nil }
        }
    }

    /// Waits for the first line (from index `from`) that starts with `prefix`.
    func waitForLine(startingWith prefix: String, from: Int = 0, timeout: Double = 10) -> String? {
        waitForLine(from: from, deadline: .after(timeout)) { $0.hasPrefix(prefix) }
    }

    /// Waits for the first line (from index `from`) that the regular expression matches.
    func waitForLine(matching pattern: String, from: Int = 0, timeout: Double = 10) -> String? {
        waitForLine(from: from, deadline: .after(timeout)) { $0.range(of: pattern, options: .regularExpression) != nil }
    }

    /// Sends SIGTERM, waits up to `timeout` for the exit, then SIGKILL. Returns the exit status.
    @discardableResult
    func terminate(timeout: Double = 5) -> Int32? {
        guard isRunning else { return exitStatus }
        kill(pid, SIGTERM)
        if !waitUntil(timeout: timeout, { !isRunning }) {
            kill(pid, SIGKILL)
            exitStatus = reap(pid, block: true)
        }
        return exitStatus
    }

    /// Waits up to `timeout` for the process to exit by itself; returns its status or nil.
    func waitForExit(timeout: Double) -> Int32? {
        waitUntil(timeout: timeout) { !isRunning }
        return exitStatus
    }
}
