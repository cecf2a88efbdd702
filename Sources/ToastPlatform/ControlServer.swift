import CLinux
import Glibc

/// The control socket's transport: a listening Unix socket and its non-blocking clients, with bounded
/// buffers in both directions. It knows nothing of the protocol; the daemon frames and decodes lines.
///
/// Safety rules kept here: the socket file is mode 0600; peers of another uid are refused
/// (SO_PEERCRED); a stale socket of a dead daemon is replaced, a live one is an error unless taken over
/// (`toastd --replace`); at most
/// `maxClients` at once, idle and half-line clients timing out and giving way to newcomers
/// (`ClientTimeouts`); a reply of any size reaches a client that reads it, and a client that lets more
/// than `maxQueuedBytes` pile up behind the line being written is dropped (`OutgoingLines`), so a slow
/// or stuck reader can never grow the daemon's memory or block the loop.
package final class ControlServer {
    package typealias ClientID = Int

    package struct Limits {
        package var maxClients = 128
        package var maxQueuedBytes = 1 << 20
        /// Descriptors a client may have passed and not yet used; more are closed on arrival.
        package var maxPassedFDs = 2
        package var timeouts = ClientTimeouts.Limits()

        package init() {}
    }

    /// Why the server could not start.
    package enum StartError: Error, CustomStringConvertible {
        case alreadyRunning(path: String)
        case pathTooLong(path: String)
        case system(SystemError)

        package var description: String {
            switch self {
            case .alreadyRunning(let path): "another toastd is already listening on \(path)"
            case .pathTooLong(let path): "socket path too long: \(path)"
            case .system(let error): "control socket: \(error)"
            }
        }
    }

    /// A class, not a struct: a struct copied out of `clients` to append to `pending` would copy the
    /// whole queue on every reply (quadratic for a slow reader: seconds of CPU before the drop).
    private final class Client {
        let fd: Int32
        var pending = OutgoingLines()
        var closeWhenFlushed = false
        /// Descriptors the client passed (SCM_RIGHTS), oldest first, until a request takes them.
        var passedFDs: [Int32] = []

        init(fd: Int32) { self.fd = fd }
    }

    package let path: String
    /// Whether a live daemon listened on `path` and this server took the path over from it.
    package let tookOver: Bool
    private let listenFD: Int32
    /// The socket file's device and inode: the path is unlinked at the end only while it is still ours
    /// (a daemon that took it over has bound a new file there).
    private var boundFile: (device: UInt, inode: UInt) = (0, 0)
    private let loop: EventLoop
    private let limits: Limits
    private var clients: [ClientID: Client] = [:]
    private var nextID: ClientID = 1
    private var timeouts: ClientTimeouts
    /// Wakes the server when the next client may have timed out.
    private let timeoutTimer: DeadlineTimer
    /// Where reads land: made once, since zeroing a fresh 16 KiB buffer on every wakeup was a tenth of
    /// the daemon's instructions per streamed HUD value.
    private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// The most written to one client per wakeup; level-triggered EPOLLOUT brings the loop back for more.
    private static let writeBudget = 256 * 1024
    /// Idle clients closed for newcomers since the last log line about it.
    private var evictions = 0

    /// Bytes received from a client, in arrival order.
    package var onReceive: (ClientID, ArraySlice<UInt8>) -> Void = { _, _ in }
    /// A client is gone (hung up, errored, or was dropped); its id is never reused.
    package var onDisconnect: (ClientID) -> Void = { _ in }
    /// Whether the client holds something it waits on (a subscription, a followed status, a loading
    /// spinner, a HUD stream): such a client is never closed for being idle.
    package var isHolding: (ClientID) -> Bool = { _ in false }

    /// Listens on `path`. With `takeOver`, a live daemon's socket there is replaced by ours: new clients
    /// reach us, its connected ones stay with it (`toastd --replace`).
    package init(path: String, loop: EventLoop, limits: Limits = Limits(), takeOver: Bool = false) throws(StartError) {
        self.path = path
        self.loop = loop
        self.limits = limits
        timeouts = ClientTimeouts(limits: limits.timeouts)
        do {
            timeoutTimer = try DeadlineTimer()
        } catch {
            throw .system(error)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw .pathTooLong(path: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }

        let live = ControlServer.someoneListens(on: &address)
        if live && !takeOver { throw .alreadyRunning(path: path) }
        tookOver = live
        unlink(path)  // stale file of a dead daemon, a live one taken over, or nothing

        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(SystemError("socket")) }
        // umask makes the file 0600 from birth: no window where another user could connect.
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(oldMask)
        guard bound == 0, listen(fd, 64) == 0 else {
            let error = SystemError("bind/listen \(path)")
            close(fd)
            throw .system(error)
        }
        chmod(path, 0o600)
        listenFD = fd
        var info = stat()
        if stat(path, &info) == 0 { boundFile = (UInt(info.st_dev), UInt(info.st_ino)) }
        do {
            try loop.add(fd: fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in self.acceptAll() }
            try loop.add(fd: timeoutTimer.fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in
                self.timeoutTimer.acknowledge()
                self.closeTimedOut()
            }
        } catch {
            loop.remove(fd: fd)
            close(fd)
            throw .system(error)
        }
    }

    deinit {
        for id in Array(clients.keys) { drop(id, notify: false) }
        loop.remove(fd: timeoutTimer.fd)
        loop.remove(fd: listenFD)
        close(listenFD)
        var info = stat()
        if stat(path, &info) == 0, (UInt(info.st_dev), UInt(info.st_ino)) == boundFile { unlink(path) }
    }

    /// Queues `line` (one whole reply or event) for the client and writes as much as the socket takes
    /// now. The client is dropped if more than `maxQueuedBytes` wait behind the line being written.
    package func send(_ line: [UInt8], to id: ClientID) {
        queue(for: id) { $0.append(line) }
    }

    /// Queues a line encoded as the client reads it (`LinePieces`), and writes what the socket takes now.
    package func send(_ pieces: LinePieces, to id: ClientID) {
        queue(for: id) { $0.append(pieces) }
    }

    private func queue(for id: ClientID, _ append: (inout OutgoingLines) -> Void) {
        guard let client = clients[id] else { return }
        let wasEmpty = client.pending.isEmpty
        append(&client.pending)
        if client.pending.backlog > limits.maxQueuedBytes {
            Log.warning("control client \(id) did not read \(client.pending.unwritten) bytes of replies and events; closed")
            drop(id)
            return
        }
        guard wasEmpty else { return }  // already waiting for EPOLLOUT
        flush(id)
        if let client = clients[id], !client.pending.isEmpty {
            loop.modify(fd: client.fd, events: UInt32(EPOLLIN.rawValue | EPOLLOUT.rawValue))
        }
    }

    /// Closes the client once everything queued for it is written (used after a fatal protocol error).
    package func closeAfterFlush(_ id: ClientID) {
        guard let client = clients[id] else { return }
        if client.pending.isEmpty { drop(id); return }
        client.closeWhenFlushed = true
    }

    /// Closes the client now.
    package func disconnect(_ id: ClientID) { drop(id) }

    package var clientCount: Int { clients.count }

    /// The oldest descriptor `id` passed with its bytes and no request has taken yet; the caller owns it.
    package func takePassedFD(from id: ClientID) -> Int32? {
        guard let client = clients[id], !client.passedFDs.isEmpty else { return nil }
        return client.passedFDs.removeFirst()
    }

    // MARK: - Loop handlers

    private func acceptAll() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 { return }  // EAGAIN: all accepted
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            guard ControlServer.peerUID(fd) == getuid() else {
                ControlServer.refuse(fd, message: #"{"v":1,"ok":false,"error":{"code":"permission_denied","message":"peer uid differs from the daemon's"}}"#)
                continue
            }
            if clients.count >= limits.maxClients {
                guard let idle = timeouts.evictable(holding: isHolding) else {
                    ControlServer.refuse(fd, message: #"{"v":1,"ok":false,"error":{"code":"busy","message":"too many clients"}}"#)
                    continue
                }
                evictions += 1
                drop(idle)
            }
            let id = nextID
            nextID += 1
            clients[id] = Client(fd: fd)
            timeouts.connected(id, now: MonotonicClock.nanoseconds())
            armTimeouts()
            do {
                try loop.add(fd: fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] events in
                    self.handle(id, events: events)
                }
            } catch {
                clients[id] = nil
                timeouts.left(id)
                close(fd)
                continue
            }
            // What it sent already is taken now: a client that spoke is not the first to give way when
            // a flood of connections fills the table in this same turn.
            readAvailable(id)
        }
    }

    private func handle(_ id: ClientID, events: UInt32) {
        if events & UInt32(EPOLLOUT.rawValue) != 0 { flush(id) }
        if events & UInt32(EPOLLIN.rawValue) != 0 { readAvailable(id) }
        if events & UInt32(EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0, clients[id] != nil {
            readAvailable(id)  // take what is left, then the read of 0 drops it
        }
    }

    private func readAvailable(_ id: ClientID) {
        // Bounded per wakeup: a flooding client cannot starve the others.
        for _ in 0..<8 {
            guard let client = clients[id] else { return }
            var fds: (Int32, Int32, Int32, Int32) = (-1, -1, -1, -1)
            var fdCount: Int32 = 0
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                withUnsafeMutableBytes(of: &fds) {
                    clinux_recv_with_fds(client.fd, buffer.baseAddress, buffer.count,
                                         $0.baseAddress!.assumingMemoryBound(to: Int32.self), 4, &fdCount)
                }
            }
            withUnsafeBytes(of: fds) { raw in
                for fd in raw.bindMemory(to: Int32.self).prefix(Int(fdCount)) {
                    if client.passedFDs.count < limits.maxPassedFDs { client.passedFDs.append(fd) } else { close(fd) }
                }
            }
            if count > 0 {
                timeouts.received(from: id, endsLine: readBuffer[count - 1] == 0x0A, now: MonotonicClock.nanoseconds())
                onReceive(id, readBuffer[0..<count])
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                drop(id)
                return
            } else {
                return
            }
        }
    }

    /// Writes what the socket takes now, line by line, at most `writeBudget` bytes (a client reading as
    /// fast as it can on another core would otherwise keep the loop here for a whole 100 MB reply); stops
    /// watching for EPOLLOUT once all is written.
    private func flush(_ id: ClientID) {
        guard let client = clients[id] else { return }
        var progressed = false
        var budget = Self.writeBudget
        while !client.pending.isEmpty && budget > 0 {
            let written = client.pending.writeFirst { Glibc.send(client.fd, $0.baseAddress, min($0.count, budget), Int32(MSG_NOSIGNAL)) }
            if written > 0 { progressed = true; budget -= written; continue }
            if written < 0 && errno == EINTR { continue }
            if written < 0 && errno != EAGAIN && errno != EWOULDBLOCK { drop(id); return }
            break
        }
        if progressed { timeouts.wrote(to: id, now: MonotonicClock.nanoseconds()) }
        if client.pending.isEmpty {
            if client.closeWhenFlushed { drop(id); return }
            loop.modify(fd: client.fd, events: UInt32(EPOLLIN.rawValue))
        }
    }

    /// Closes the clients whose time is up (`ClientTimeouts`), with one log line for all of them.
    private func closeTimedOut() {
        let due = timeouts.expire(now: MonotonicClock.nanoseconds(), holding: isHolding)
        for id in due { drop(id) }
        if !due.isEmpty || evictions > 0 {
            Log.info("closed \(due.count) idle or half-line control clients"
                     + (evictions > 0 ? "; \(evictions) more gave their slot to a newcomer" : ""))
            evictions = 0
        }
        armTimeouts()
    }

    private func armTimeouts() {
        // The evictions since the last report are told at the next deadline (at once if none is due).
        let due = timeouts.nextDeadline
        timeoutTimer.arm(at: evictions > 0 ? min(due ?? .max, MonotonicClock.nanoseconds() + 1_000_000_000) : due,
                         keepingEarlier: true)
    }

    private func drop(_ id: ClientID, notify: Bool = true) {
        guard let client = clients.removeValue(forKey: id) else { return }
        timeouts.left(id)
        loop.remove(fd: client.fd)
        close(client.fd)
        for fd in client.passedFDs { close(fd) }
        if notify { onDisconnect(id) }
    }

    // MARK: - Helpers

    private static func peerUID(_ fd: Int32) -> uid_t? {
        var credentials = clinux_ucred()
        var length = socklen_t(MemoryLayout<clinux_ucred>.size)
        guard getsockopt(fd, SOL_SOCKET, CLINUX_SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    private static func refuse(_ fd: Int32, message: String) {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// True when a live process accepts connections on the socket (a second daemon must not steal it).
    private static func someoneListens(on address: inout sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}
