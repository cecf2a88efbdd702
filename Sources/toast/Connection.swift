#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ToastProtocol

/// A blocking client connection to toastd's control socket: write request lines, read reply and
/// event lines. Events that arrive while waiting for a reply are queued for `nextEvent`.
final class Connection {
    /// How long a reply may take before we give up on a stuck daemon.
    static let replyTimeoutMs: Int32 = 5000

    let path: String
    private let fd: Int32
    /// Replies to `list` and `history` can be long (docs/protocol.md, "Framing").
    private var splitter = LineSplitter(limit: ProtocolLimits.maxReplyLength)
    private var queuedEvents: [Event] = []
    /// One read's worth: a long `list` reply arrives in few reads.
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// How long a daemon the bus just started may take to listen on the socket (it binds the socket
    /// before it takes the bus name, so this is a bound, not a wait).
    static let startedDaemonDeadlineMs: Int64 = 3000

    /// Connects at once or fails at once: a Unix-socket connect to a missing or dead socket returns
    /// ENOENT or ECONNREFUSED immediately. Then, with `startService`, the session bus is asked to start
    /// the daemon (D-Bus activation) and the socket is tried until it answers or the deadline passes.
    init(environment lookup: (String) -> String? = Connection.getenvString,
         startService: (() -> ServiceStart.Outcome)? = ServiceStart.request) throws(ClientFailure) {
        switch SocketPath.resolve(lookup) {
        case .failure(let e): throw ClientFailure(message: e.description, status: Exit.unavailable)
        case .success(let p): path = p
        }
        var result = Self.connect(to: path)
        var notStarted: String?
        if case .failure(let e) = result, e.isNobodyListening, let startService {
            switch startService() {
            case .started:
                notStarted = "D-Bus started \(ServiceStart.serviceName), but nothing listens at \(path)"
                let deadline = Self.monotonicMilliseconds() + Self.startedDaemonDeadlineMs
                while case .failure(let e) = result, e.isNobodyListening, Self.monotonicMilliseconds() < deadline {
                    var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                    nanosleep(&pause, nil)
                    result = Self.connect(to: path)
                }
            case .alreadyRunning:
                notStarted = "\(ServiceStart.serviceName) is served by another daemon, or a toastd on another socket"
            case .failed(let why):
                notStarted = why
            }
        }
        switch result {
        case .success(let fd): self.fd = fd
        case .failure(let e):
            throw ClientFailure(message: Connection.notRunningMessage(path: path, errno: e.code, notStarted: notStarted),
                                status: Exit.unavailable)
        }
    }

    /// One connect to `path`: the socket, or the errno.
    private static func connect(to path: String) -> Result<Int32, ConnectError> {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(ConnectError(code: errno)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            // SocketPath.resolve guarantees the path plus NUL fits.
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
            raw[path.utf8.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            return .failure(ConnectError(code: code))
        }
        return .success(fd)
    }

    /// A failed connect's errno.
    private struct ConnectError: Error {
        var code: Int32
        /// No socket, or a stale one: no daemon, which the bus may start.
        var isNobodyListening: Bool { code == ENOENT || code == ECONNREFUSED }
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    deinit { close(fd) }

    static func getenvString(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// One line: why nothing answered, why the bus did not start it (`notStarted`), and how to start it.
    static func notRunningMessage(path: String, errno code: Int32, notStarted: String? = nil) -> String {
        let why = notStarted.map { "; \($0)" } ?? ""
        return switch code {
        case ENOENT:
            "toastd is not running (no socket at \(path)\(why)); start it with: toastd &"
        case ECONNREFUSED:
            "toastd is not running (stale socket at \(path)\(why)); start it with: toastd &"
        default:
            "cannot connect to toastd at \(path): \(errorText(code))"
        }
    }

    /// Writes one request line.
    func send(_ request: Request) throws(ClientFailure) {
        var bytes = request.encodedLine()
        let failed: Int32? = bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                // MSG_NOSIGNAL: a daemon that went away is an error to report, not a SIGPIPE.
                let n = Glibc.send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if let code = failed {
            throw ClientFailure.protocolViolation("lost the connection to toastd: \(Connection.errorText(code))")
        }
    }

    /// Sends a request and returns its successful reply's payload; an error reply throws.
    func call(_ request: Request) throws(ClientFailure) -> ReplyPayload {
        try send(request)
        return try reply()
    }

    /// Reads until the next reply, queueing events that come first.
    func reply() throws(ClientFailure) -> ReplyPayload {
        while true {
            guard let message = try readMessage(timeoutMs: Connection.replyTimeoutMs) else {
                throw ClientFailure.protocolViolation("toastd closed the connection without replying")
            }
            switch message {
            case .event(let e): queuedEvents.append(e)
            case .reply(.ok(let payload)): return payload
            case .reply(.error(let e)): throw ClientFailure.daemon(e)
            }
        }
    }

    /// The next event, waiting as long as it takes; nil when the daemon closes the connection.
    func nextEvent() throws(ClientFailure) -> Event? {
        if !queuedEvents.isEmpty { return queuedEvents.removeFirst() }
        while true {
            guard let message = try readMessage(timeoutMs: -1) else { return nil }
            switch message {
            case .event(let e): return e
            case .reply: throw ClientFailure.protocolViolation("toastd sent a reply nobody asked for")
            }
        }
    }

    /// Blocks until the daemon closes the connection (a spinner held by this process).
    func waitForHangUp() throws(ClientFailure) {
        while try readMessage(timeoutMs: -1) != nil {}
    }

    /// Reads the next line and decodes it; nil at end of stream. `timeoutMs` < 0 waits forever.
    private func readMessage(timeoutMs: Int32) throws(ClientFailure) -> ServerMessage? {
        while true {
            if let item = splitter.next() {
                switch item {
                case .tooLong:
                    throw ClientFailure.protocolViolation("toastd sent a line over \(splitter.limit) bytes")
                case .line(let line):
                    switch ServerMessage.decode(line: line) {
                    case .success(let m): return m
                    case .failure(let e):
                        throw ClientFailure.protocolViolation("cannot understand toastd: \(e.description)")
                    }
                }
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, timeoutMs)
            if ready < 0 {
                if errno == EINTR { continue }
                throw ClientFailure.protocolViolation("poll: \(Connection.errorText(errno))")
            }
            if ready == 0 {
                throw ClientFailure(message: "toastd did not answer within \(timeoutMs) ms", status: Exit.unavailable)
            }
            let n = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ClientFailure.protocolViolation("lost the connection to toastd: \(Connection.errorText(errno))")
            }
            if n == 0 {
                guard let last = splitter.finish() else { return nil }
                switch ServerMessage.decode(line: last) {
                case .success(let m): return m
                case .failure(let e):
                    throw ClientFailure.protocolViolation("cannot understand toastd: \(e.description)")
                }
            }
            readBuffer.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }
}
