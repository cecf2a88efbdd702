import Foundation
import Glibc
import XCTest
@testable import ToastDaemon
@testable import ToastPlatform
import ToastProtocol

/// The control socket's transport against clients of our own on a real socket and loop: replies of any
/// size reach a client that reads them, a client that does not read is dropped by a bound in bytes, and
/// idle or half-line clients give their slots back.
final class ControlServerTests: XCTestCase {
    private var path = ""

    override func setUp() {
        path = NSTemporaryDirectory() + "cs-\(UUID().uuidString.prefix(8)).sock"
    }

    private func connect() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(result, 0)
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        return fd
    }

    /// Everything the client can read now (0 bytes and `ended` at end of stream).
    private func drain(_ fd: Int32) -> (count: Int, ended: Bool) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { total += n; continue }
            return (total, n == 0)
        }
    }

    /// A 64 MiB reply (a `history` of a thousand toasts full of escaped control characters is ~100 MB)
    /// reaches a client that reads it, while a megabyte of small lines follows it.
    func testAReplyFarLargerThanTheBoundReachesAReadingClient() throws {
        let loop = try EventLoop()
        let server = try ControlServer(path: path, loop: loop)
        var clients: [ControlServer.ClientID] = []
        server.onReceive = { id, _ in clients.append(id) }
        let fd = try connect()
        defer { close(fd) }
        XCTAssertEqual(write(fd, "list\n", 5), 5)
        for _ in 0..<20 where clients.isEmpty { loop.wait(timeoutMilliseconds: 500) }
        let id = try XCTUnwrap(clients.first)
        let reply = [UInt8](repeating: 0x41, count: 64 << 20) + [0x0A]
        server.send(reply, to: id)
        let event = [UInt8](repeating: 0x42, count: 1023) + [0x0A]
        for _ in 0..<1000 { server.send(event, to: id) }
        var received = 0
        while received < reply.count + 1000 * event.count {
            loop.wait(timeoutMilliseconds: 0)
            let (count, ended) = drain(fd)
            received += count
            XCTAssertFalse(ended, "dropped after \(received) bytes")
            if ended { return }
        }
        XCTAssertEqual(received, reply.count + 1000 * event.count)
    }

    /// A client that lets more than the bound pile up behind the reply being written is dropped.
    func testAClientThatDoesNotReadIsDroppedPastTheBound() throws {
        let loop = try EventLoop()
        var limits = ControlServer.Limits()
        limits.maxQueuedBytes = 1 << 20
        let server = try ControlServer(path: path, loop: loop, limits: limits)
        var clients: [ControlServer.ClientID] = [], gone: [ControlServer.ClientID] = []
        server.onReceive = { id, _ in clients.append(id) }
        server.onDisconnect = { gone.append($0) }
        let fd = try connect()
        defer { close(fd) }
        XCTAssertEqual(write(fd, "x\n", 2), 2)
        for _ in 0..<20 where clients.isEmpty { loop.wait(timeoutMilliseconds: 500) }
        let id = try XCTUnwrap(clients.first)
        server.send([UInt8](repeating: 0x41, count: 8 << 20) + [0x0A], to: id)
        XCTAssertEqual(gone, [], "one reply of any size may wait")
        let line = [UInt8](repeating: 0x42, count: 4095) + [0x0A]
        for _ in 0..<300 where gone.isEmpty { server.send(line, to: id) }
        XCTAssertEqual(gone, [id], "1.2 MB waiting behind the reply")
    }

    /// A half line, an idle client and one that holds something: the first two are closed when their
    /// time is up, the third stays; and a newcomer to a full table takes the slot of the quietest idle one.
    func testIdleAndHalfLineClientsTimeOutAndGiveWayToNewcomers() throws {
        let loop = try EventLoop()
        var limits = ControlServer.Limits()
        limits.maxClients = 3
        limits.timeouts = ClientTimeouts.Limits(idle: 300_000_000, partialLine: 100_000_000)
        let server = try ControlServer(path: path, loop: loop, limits: limits)
        var order: [ControlServer.ClientID] = [], gone: [ControlServer.ClientID] = []
        server.onReceive = { id, _ in if !order.contains(id) { order.append(id) } }
        server.onDisconnect = { gone.append($0) }
        let holding = try connect(), half = try connect(), idle = try connect()
        defer { close(holding); close(half); close(idle) }
        for (index, (fd, text)) in [(holding, "subscribe\n"), (half, "{\"v\":1,"), (idle, "version\n")].enumerated() {
            XCTAssertEqual(write(fd, text, text.utf8.count), text.utf8.count)
            for _ in 0..<20 where order.count <= index { loop.wait(timeoutMilliseconds: 500) }
        }
        XCTAssertEqual(order.count, 3)
        server.isHolding = { $0 == order[0] }
        let deadline = MonotonicClock.nanoseconds() + 10_000_000_000
        while gone.count < 2 && MonotonicClock.nanoseconds() < deadline { loop.wait(timeoutMilliseconds: 100) }
        XCTAssertEqual(gone, [order[1], order[2]], "the half line first, then the idle one")
        XCTAssertEqual(server.clientCount, 1, "the holding client stays")

        // A full table: a newcomer takes the quietest idle client's slot instead of hearing `busy`.
        let second = try connect(), third = try connect()
        defer { close(second); close(third) }
        for _ in 0..<20 where server.clientCount < 3 { loop.wait(timeoutMilliseconds: 500) }
        XCTAssertEqual(server.clientCount, 3)
        let newcomer = try connect()
        defer { close(newcomer) }
        for _ in 0..<20 where gone.count < 3 { loop.wait(timeoutMilliseconds: 500) }
        XCTAssertEqual(server.clientCount, 3)
        XCTAssertEqual(gone.count, 3, "one idle client made room")
        XCTAssertTrue(drain(second).ended, "the quietest idle client went")
        XCTAssertFalse(drain(newcomer).ended, "the newcomer was taken")
    }

    // MARK: The pure parts

    func testTheBacklogCountsOnlyWhatWaitsBehindTheLineBeingWritten() {
        var lines = OutgoingLines()
        lines.append([UInt8](repeating: 1, count: 1000))
        XCTAssertEqual(lines.backlog, 0)
        lines.append([2, 2, 2])
        lines.append([3])
        XCTAssertEqual(lines.backlog, 4)
        XCTAssertEqual(lines.unwritten, 1004)
        XCTAssertEqual(lines.writeFirst { min($0.count, 600) }, 600)
        XCTAssertEqual(lines.unwritten, 404)
        XCTAssertEqual(lines.writeFirst { $0.count }, 400)
        XCTAssertEqual(lines.backlog, 1, "the second line is the one being written now")
        XCTAssertEqual(lines.writeFirst { buffer in XCTAssertEqual(Array(buffer), [2, 2, 2]); return 3 }, 3)
        XCTAssertEqual(lines.writeFirst { _ in -1 }, -1, "EAGAIN takes nothing")
        XCTAssertEqual(lines.writeFirst { $0.count }, 1)
        XCTAssertTrue(lines.isEmpty)
        XCTAssertEqual(lines.unwritten, 0)
    }

    /// `list` and `history` are encoded in pieces of whole toasts as the client reads: together exactly the
    /// reply's one line, the empty list included.
    func testAToastsReplyInPiecesIsTheWholeReply() {
        for count in [0, 1, 50] {
            let toasts = (0..<count).map {
                ToastInfo(id: UInt32($0 + 1), summary: "toast \($0)", body: String(repeating: "\u{1}\n", count: 4000),
                          reason: .dismissed)
            }
            let pieces = ToastsReplyPieces(toasts)
            var joined: [UInt8] = [], sizes: [Int] = []
            while let piece = pieces.nextPiece() { joined += piece; sizes.append(piece.count) }
            XCTAssertEqual(joined, Reply.ok(.toasts(toasts)).encodedLine(), "\(count) toasts")
            XCTAssertTrue(sizes.dropLast().allSatisfy { $0 >= ToastsReplyPieces.pieceBytes }, "\(sizes)")
            XCTAssertNil(pieces.nextPiece())
        }
        var lines = OutgoingLines()
        lines.append([1, 0x0A])
        lines.append(ToastsReplyPieces([]))
        XCTAssertEqual(lines.backlog, OutgoingLines.waitingPiecesWeight)
        var out: [UInt8] = []
        while !lines.isEmpty { _ = lines.writeFirst { out += $0; return $0.count } }
        XCTAssertEqual(out, [1, 0x0A] + Reply.ok(.toasts([])).encodedLine())
        XCTAssertEqual(lines.backlog, 0)
    }

    /// On a hand-driven clock: a line must be finished within `partialLine` of its first byte, however
    /// it trickles; an idle client holding nothing goes after `idle`; one holding something stays.
    func testTimeoutsOnAHandClock() {
        let second: Int64 = 1_000_000_000
        var timeouts = ClientTimeouts(limits: .init(idle: 60 * second, partialLine: 10 * second))
        timeouts.connected(1, now: 0)
        timeouts.connected(2, now: 0)
        timeouts.connected(3, now: 0)
        timeouts.received(from: 1, endsLine: false, now: 1 * second)
        for t in 2...10 { timeouts.received(from: 1, endsLine: false, now: Int64(t) * second) }  // trickling
        XCTAssertEqual(timeouts.nextDeadline, 11 * second)
        XCTAssertEqual(timeouts.expire(now: 11 * second, holding: { _ in false }), [1])
        timeouts.received(from: 2, endsLine: true, now: 30 * second)
        XCTAssertEqual(timeouts.expire(now: 60 * second, holding: { $0 == 3 }), [], "3 holds; 2 spoke at 30 s")
        XCTAssertEqual(timeouts.evictable(holding: { $0 == 3 }), 2)
        timeouts.connected(4, now: 61 * second)
        XCTAssertEqual(timeouts.evictable(holding: { $0 == 3 }), 4, "one that never spoke goes before one that did")
        timeouts.left(4)
        XCTAssertNil(timeouts.evictable(holding: { _ in true }))
        XCTAssertEqual(timeouts.expire(now: 90 * second, holding: { $0 == 3 }), [2])
        XCTAssertEqual(timeouts.expire(now: 200 * second, holding: { _ in false }), [3], "3 let go: idle since 60 s")
        XCTAssertNil(timeouts.nextDeadline)
    }
}
