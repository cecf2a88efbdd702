import CLinux
#if canImport(Glibc)
import Glibc
import ToastPlatform
#elseif canImport(Musl)
import Musl
#endif
import ToastProtocol

/// Why a call to toastd failed.
public struct ToastClientError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Equatable, Sendable {
        /// No toastd listens on the socket (or the socket path cannot be used).
        case notRunning
        /// toastd answered with an error (its code, as docs/protocol.md lists them).
        case daemon(ErrorCode)
        /// toastd took longer than `ToastConnection.replyTimeoutMilliseconds` to reply: it is stuck.
        case noAnswer
        /// The connection broke, or carried something that is not the protocol.
        case connection
    }

    public let kind: Kind
    /// One line for a human.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// A blocking connection to toastd's control socket: one request, one reply, in order; events that
/// arrive meanwhile are kept for `nextEvent`. One connection per `Loading` spinner, since a
/// spinner lasts as long as the connection that started it. The `toast` CLI talks through it too.
public final class ToastConnection {
    /// How long a reply may take before the daemon is taken for stuck.
    public static let replyTimeoutMilliseconds: Int32 = 5000
    /// How long a daemon just started (`DaemonStart.started`) may take to listen on the socket (it
    /// binds the socket before it takes the bus name, so this is a bound, not a wait).
    public static let startedDaemonDeadlineMilliseconds: Int64 = 3000

    /// What asking for toastd to be started gave, when nobody listened on the socket (the CLI asks
    /// the session bus: D-Bus activation).
    public enum DaemonStart: Equatable, Sendable {
        /// `service` was started: the socket is tried again until it answers or the deadline passes.
        case started(service: String)
        /// Not started, and why (for the "not running" message).
        case notStarted(String)
    }

    /// The socket's path: `$TOASTD_SOCKET`, else `$XDG_RUNTIME_DIR/toastd.sock`.
    public let path: String
    private var fd: Int32
    /// Replies to `list` and `history` can be long (docs/protocol.md, "Framing").
    private var splitter = LineSplitter(limit: ProtocolLimits.maxReplyLength)
    private var queuedEvents: [Event] = []
    /// One read's worth: a long `list` reply arrives in few reads. Not zeroed (recv writes what it
    /// reads): zeroing 64 KB touched 16 fresh pages at every start of the CLI, for a reply of a line.
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)

    /// Connects at once or fails at once: a Unix-socket connect to a missing or dead socket returns
    /// ENOENT or ECONNREFUSED immediately. Then, with `startDaemon`, toastd is asked to be started
    /// and the socket is tried until it answers or `startedDaemonDeadlineMilliseconds` pass.
    /// `path` nil: the one `environment` names (`SocketPath`).
    public init(path: String? = nil, environment: (String) -> String? = ToastConnection.environmentValue,
                startDaemon: (() -> DaemonStart)? = nil) throws(ToastClientError) {
        if let path {
            guard path.utf8.count <= SocketPath.maxLength else {
                throw ToastClientError(.notRunning, "socket path too long: \(path)")
            }
            self.path = path
        } else {
            switch SocketPath.resolve(environment) {
            case .failure(let error): throw ToastClientError(.notRunning, error.description)
            case .success(let resolved): self.path = resolved
            }
        }
        var result = Self.connect(to: self.path)
        var notStarted: String?
        if case .failure(let code) = result, Self.isNobodyListening(code), let startDaemon {
            switch startDaemon() {
            case .started(let service):
                notStarted = "D-Bus started \(service), but nothing listens at \(self.path)"
                let deadline = Self.monotonicMilliseconds() + Self.startedDaemonDeadlineMilliseconds
                while case .failure(let code) = result, Self.isNobodyListening(code),
                      Self.monotonicMilliseconds() < deadline {
                    var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                    nanosleep(&pause, nil)
                    result = Self.connect(to: self.path)
                }
            case .notStarted(let why):
                notStarted = why
            }
        }
        switch result {
        case .success(let fd): self.fd = fd
        case .failure(let code):
            fd = -1
            throw ToastClientError(.notRunning, Self.notRunningMessage(path: self.path, errno: code.code, notStarted: notStarted))
        }
    }

    deinit {
        close()
        readBuffer.deallocate()
    }

    /// Hangs up (a spinner started on this connection stops after toastd's loading grace).
    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// The process's environment variable `name`.
    public static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// strerror's text for `code`.
    public static func errorText(_ code: Int32) -> String { SystemError.text(code) }

    /// One line: why nothing answered, why it was not started (`notStarted`), and how to start it.
    public static func notRunningMessage(path: String, errno code: Int32, notStarted: String? = nil) -> String {
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

    /// Sends `request` and returns its successful reply's payload; an error reply throws.
    @discardableResult
    public func call(_ request: Request) throws(ToastClientError) -> ReplyPayload {
        try send(request)
        return try reply()
    }

    /// Writes one request line; its reply comes with `reply()`.
    public func send(_ request: Request) throws(ToastClientError) {
        guard fd >= 0 else { throw ToastClientError(.connection, "the connection is closed") }
        let line = request.encodedLine()
        do {
            try FileDescriptor(rawValue: fd).sendAll(line)
        } catch {
            throw ToastClientError(.connection, "lost the connection to toastd: \(error.reason)")
        }
    }

    /// Writes one request line with `descriptor` attached (SCM_RIGHTS): toastd gets its own copy of
    /// it. The line is short, so one `sendmsg` carries it whole, with the descriptor.
    public func send(_ request: Request, passing descriptor: Int32) throws(ToastClientError) {
        guard fd >= 0 else { throw ToastClientError(.connection, "the connection is closed") }
        let bytes = request.encodedLine()
        let sent = retryingInterrupted { bytes.withUnsafeBytes { clinux_send_with_fd(fd, $0.baseAddress, $0.count, descriptor) } }
        guard sent == bytes.count else {
            let why = sent < 0 ? Self.errorText(errno) : "a short write"
            throw ToastClientError(.connection, "lost the connection to toastd: \(why)")
        }
    }

    /// Reads until the next reply, keeping events that come first for `nextEvent`.
    public func reply() throws(ToastClientError) -> ReplyPayload {
        while true {
            guard let message = try readMessage(timeoutMilliseconds: Self.replyTimeoutMilliseconds) else {
                throw ToastClientError(.connection, "toastd closed the connection without replying")
            }
            switch message {
            case .event(let event): queuedEvents.append(event)
            case .reply(.ok(let payload)): return payload
            case .reply(.error(let error)): throw ToastClientError(.daemon(error.code), "\(error.code.rawValue): \(error.message)")
            }
        }
    }

    /// The next event (a subscribed toast's `closed` or `action`, a followed `status`), waiting as long
    /// as it takes; nil when toastd hangs up.
    public func nextEvent() throws(ToastClientError) -> Event? {
        if !queuedEvents.isEmpty { return queuedEvents.removeFirst() }
        while true {
            guard let message = try readMessage(timeoutMilliseconds: -1) else { return nil }
            if case .event(let event) = message { return event }
            throw ToastClientError(.connection, "toastd sent a reply nobody asked for")
        }
    }

    /// Blocks until toastd closes the connection (a spinner held by this process).
    public func waitForHangUp() throws(ToastClientError) {
        while try readMessage(timeoutMilliseconds: -1) != nil {}
    }

    /// One connect to `path`: the socket, or the errno.
    private static func connect(to path: String) -> Result<Int32, Errno> {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(Errno(errno)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            // The path was checked to fit with its NUL.
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
            Glibc.close(fd)
            return .failure(Errno(code))
        }
        return .success(fd)
    }

    /// A failed connect's errno.
    private struct Errno: Error {
        var code: Int32
        init(_ code: Int32) { self.code = code }
    }

    /// No socket, or a stale one: no daemon, which may be started.
    private static func isNobodyListening(_ error: Errno) -> Bool {
        error.code == ENOENT || error.code == ECONNREFUSED
    }

    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Reads the next line and decodes it; nil at end of stream. A negative timeout waits forever.
    private func readMessage(timeoutMilliseconds: Int32) throws(ToastClientError) -> ServerMessage? {
        while true {
            if let item = splitter.next() {
                switch item {
                case .tooLong: throw ToastClientError(.connection, "toastd sent a line over \(splitter.limit) bytes")
                case .line(let line): return try decode(line)
                }
            }
            guard fd >= 0 else { return nil }
            let socket = FileDescriptor(rawValue: fd)
            let n: Int
            do {
                guard try socket.poll(Int16(POLLIN), timeoutMilliseconds: timeoutMilliseconds) != 0 else {
                    throw ToastClientError(.noAnswer, "toastd did not answer within \(timeoutMilliseconds) ms")
                }
                n = try socket.receive(into: UnsafeMutableRawBufferPointer(readBuffer))
            } catch let error as SystemError {
                throw ToastClientError(.connection, error.call == "poll" ? "\(error)" : "lost the connection to toastd: \(error.reason)")
            } catch let error as ToastClientError {
                throw error
            } catch {
                throw ToastClientError(.connection, "\(error)")
            }
            if n == 0 {
                guard let last = splitter.finish() else { return nil }
                return try decode(last)
            }
            splitter.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
        }
    }

    private func decode(_ line: [UInt8]) throws(ToastClientError) -> ServerMessage {
        do throws(ProtocolError) {
            return try ServerMessage.parse(line: line)
        } catch {
            throw ToastClientError(.connection, "cannot understand toastd: \(error.description)")
        }
    }
}
