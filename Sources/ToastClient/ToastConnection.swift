#if canImport(Glibc)
import Glibc
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
        /// The connection broke, timed out, or carried something that is not the protocol.
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
/// spinner lasts as long as the connection that started it.
public final class ToastConnection {
    /// How long a reply may take before the daemon is taken for stuck.
    public static let replyTimeoutMilliseconds: Int32 = 5000

    /// The socket's path: `$TOASTD_SOCKET`, else `$XDG_RUNTIME_DIR/toastd.sock`.
    public let path: String
    private var fd: Int32
    private var splitter = LineSplitter(limit: ProtocolLimits.maxReplyLength)
    private var queuedEvents: [Event] = []

    /// Connects at once or fails at once (a missing socket answers ENOENT or ECONNREFUSED right away).
    public init(path: String? = nil) throws(ToastClientError) {
        if let path {
            self.path = path
        } else {
            switch SocketPath.resolve({ getenv($0).map { String(cString: $0) } }) {
            case .failure(let error): throw ToastClientError(.notRunning, error.description)
            case .success(let resolved): self.path = resolved
            }
        }
        guard self.path.utf8.count <= SocketPath.maxLength else {
            throw ToastClientError(.notRunning, "socket path too long: \(self.path)")
        }
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ToastClientError(.notRunning, "socket: \(Self.errorText(errno))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(self.path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result != 0 {
            let code = errno
            Glibc.close(fd)
            fd = -1
            throw ToastClientError(.notRunning, "toastd is not running (\(self.path): \(Self.errorText(code)))")
        }
    }

    deinit { close() }

    /// Hangs up (a spinner started on this connection stops after toastd's loading grace).
    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// Sends `request` and returns its successful reply's payload; an error reply throws.
    @discardableResult
    public func call(_ request: Request) throws(ToastClientError) -> ReplyPayload {
        try send(request.encodedLine())
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

    private func send(_ line: [UInt8]) throws(ToastClientError) {
        guard fd >= 0 else { throw ToastClientError(.connection, "the connection is closed") }
        var offset = 0
        while offset < line.count {
            // MSG_NOSIGNAL: a daemon that went away is an error to report, not a SIGPIPE.
            let n = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ToastClientError(.connection, "lost the connection to toastd: \(Self.errorText(errno))")
            }
            offset += n
        }
    }

    private func readMessage(timeoutMilliseconds: Int32) throws(ToastClientError) -> ServerMessage? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let item = splitter.next() {
                switch item {
                case .tooLong: throw ToastClientError(.connection, "toastd sent a line over \(splitter.limit) bytes")
                case .line(let line): return try decode(line)
                }
            }
            guard fd >= 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, timeoutMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw ToastClientError(.connection, "poll: \(Self.errorText(errno))")
            }
            if ready == 0 {
                throw ToastClientError(.connection, "toastd did not answer within \(timeoutMilliseconds) ms")
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ToastClientError(.connection, "lost the connection to toastd: \(Self.errorText(errno))")
            }
            if n == 0 {
                guard let last = splitter.finish() else { return nil }
                return try decode(last)
            }
            buffer.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    private func decode(_ line: [UInt8]) throws(ToastClientError) -> ServerMessage {
        switch ServerMessage.decode(line: line) {
        case .success(let message): return message
        case .failure(let error): throw ToastClientError(.connection, "cannot understand toastd: \(error.description)")
        }
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
