import Foundation

/// A raw client of toastd's control socket: writes whatever bytes a test likes and reads reply
/// lines with a deadline. No protocol code of ours in between, so it can send what `toast` never would.
final class UnixClient {
    let path: String
    private(set) var fd: Int32
    private var buffer = Data()

    /// Connects to `path`; throws with errno's text if the connect fails.
    init(path: String) throws {
        self.path = path
        fd = try UnixClient.connect(path)
    }

    deinit { close() }

    /// Connects to `path` and returns the fd, or throws `UnixClientError.connect(errno)`.
    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixClientError.connect(path: path, errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw UnixClientError.connect(path: path, errno: code)
        }
        return fd
    }

    /// Whether something accepts connections on `path` now.
    static func accepts(_ path: String) -> Bool {
        guard let fd = try? connect(path) else { return false }
        Glibc.close(fd)
        return true
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Writes all of `bytes` (blocking); throws if the daemon hung up.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw UnixClientError.io("send", errno: errno)
            }
            offset += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The next line (newline stripped), or nil at end of stream or when `timeout` passes.
    func readLine(timeout: Double = 10) -> String? {
        let deadline = Deadline.after(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                return line
            }
            guard readMore(deadline: deadline) else { return nil }
        }
    }

    /// The next line decoded as a JSON object (nil as readLine, or when it is not an object).
    func readObject(timeout: Double = 10) -> [String: Any]? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Sends one line and returns the reply object.
    func request(_ line: String, timeout: Double = 10) throws -> [String: Any]? {
        try send(line + "\n")
        return readObject(timeout: timeout)
    }

    /// True when the daemon has closed the connection (end of stream) before `timeout`;
    /// lines that arrive first are skipped.
    func waitForHangUp(timeout: Double = 10) -> Bool {
        let deadline = Deadline.after(timeout)
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, deadline.remainingMilliseconds) > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { return true }
        }
    }

    private func readMore(deadline: Deadline) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, deadline.remainingMilliseconds)
        if ready < 0 && errno == EINTR { return true }
        guard ready > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }
}

enum UnixClientError: Error, CustomStringConvertible {
    case connect(path: String, errno: Int32)
    case io(String, errno: Int32)

    var errno: Int32 {
        switch self {
        case .connect(_, let code), .io(_, let code): code
        }
    }

    var description: String {
        switch self {
        case let .connect(path, code): "connect \(path): \(String(cString: strerror(code)))"
        case let .io(what, code): "\(what): \(String(cString: strerror(code)))"
        }
    }
}

/// The error code of a reply object (`error.code`), nil for a success or a non-reply.
func errorCode(_ reply: [String: Any]?) -> String? {
    (reply?["error"] as? [String: Any])?["code"] as? String
}

extension Stage {
    /// Starts `toastd --no-dbus --socket PATH` (control socket only, so it never competes for the
    /// stage's bus name) and waits until the socket accepts connections.
    func startToastd(socket path: String, timeout: Double = 15) throws -> BackgroundProcess {
        let process = try spawn([try binary("toastd"), "--no-dbus", "--socket", path])
        let up = waitUntil(timeout: timeout) { !process.isRunning || UnixClient.accepts(path) }
        guard up, process.isRunning else {
            process.terminate()
            throw StageError.startFailed("toastd on \(path) did not come up: \(process.stderrText)")
        }
        return process
    }

    /// Runs `toast ARGS` against the daemon on `socket`.
    func toast(_ arguments: [String], socket: String, timeout: Double = 15) throws -> CommandResult {
        try run([try binary("toast")] + arguments, environment: ["TOASTD_SOCKET": socket], timeout: timeout)
    }
}
