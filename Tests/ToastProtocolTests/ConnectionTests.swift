import Glibc
import ToastVocabulary
import XCTest
import ToastProtocol
@testable import toast

/// The CLI's socket client against a socket served from the test itself (one thread: the kernel's
/// socket buffers hold what each side writes before the other reads).
final class ConnectionTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/toast-test-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw XCTSkip("mkdtemp failed") }
        directory = String(cString: dir)
    }

    override func tearDown() {
        unlink(directory + "/toastd.sock")
        rmdir(directory)
    }

    func lookup(_ name: String) -> String? { name == "XDG_RUNTIME_DIR" ? directory : nil }

    /// A bound socket at the test path; listening unless `listening` is false (a stale socket).
    func makeServer(listening: Bool = true) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = directory + "/toastd.sock"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        XCTAssertEqual(bound, 0)
        if listening { XCTAssertEqual(listen(fd, 4), 0) }
        return fd
    }

    func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }, bytes.count)
    }

    func readLine(_ fd: Int32) -> [UInt8] {
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if case .line(let line)? = splitter.next() { return line }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return [] }
            splitter.append(Array(buffer[0..<n]))
        }
    }

    func testMissingSocketFailsAtOnceWithHowToStart() {
        do {
            _ = try Connection(environment: lookup, startService: nil)
            XCTFail("connected to nothing")
        } catch {
            XCTAssertEqual(error.status, Exit.unavailable)
            XCTAssertTrue(error.message.contains("toastd is not running"), error.message)
            XCTAssertTrue(error.message.contains("toastd &"), error.message)
        }
    }

    func testStaleSocketFailsAtOnce() throws {
        let fd = try makeServer(listening: false)
        defer { close(fd) }
        do {
            _ = try Connection(environment: lookup, startService: nil)
            XCTFail("connected to a socket nobody listens on")
        } catch {
            XCTAssertEqual(error.status, Exit.unavailable)
            XCTAssertTrue(error.message.contains("stale socket"), error.message)
        }
    }

    func testNoEnvironmentIsAnError() {
        do {
            _ = try Connection(environment: { _ in nil }, startService: nil)
            XCTFail("resolved a path from nothing")
        } catch {
            XCTAssertEqual(error.status, Exit.unavailable)
            XCTAssertTrue(error.message.contains("XDG_RUNTIME_DIR"), error.message)
        }
    }

    func testRequestReplyAndQueuedEvents() throws {
        let server = try makeServer()
        defer { close(server) }
        let connection = try Connection(environment: lookup, startService: nil)
        let peer = accept(server, nil, nil)
        XCTAssertGreaterThanOrEqual(peer, 0)
        defer { close(peer) }
        // An unrelated event first, then the reply, then this toast's events, split mid-line.
        write(peer, Event.closed(id: 3, reason: .expired).encode() + "\n" + Reply.ok(.id(7)).encode() + "\n")
        write(peer, #"{"v":1,"event":"action","id":7,"#)
        write(peer, #""key":"yes"}"# + "\n" + Event.closed(id: 7, reason: .dismissed).encode() + "\n")

        let request = Request.notify(NotifyParams(summary: "Q", actions: [NotificationAction(key: "yes", label: "Yes")], wait: true))
        XCTAssertEqual(try connection.call(request), .id(7))
        XCTAssertEqual(try Request.decode(line: readLine(peer)).get(), request)
        XCTAssertEqual(try connection.nextEvent(), .closed(id: 3, reason: .expired), "queued while waiting for the reply")
        XCTAssertEqual(try connection.nextEvent(), .action(id: 7, key: "yes"))
        XCTAssertEqual(try connection.nextEvent(), .closed(id: 7, reason: .dismissed))
        shutdown(peer, Int32(SHUT_WR))
        XCTAssertNil(try connection.nextEvent(), "end of stream")
    }

    func testErrorReplyBecomesExitStatusOne() throws {
        let server = try makeServer()
        defer { close(server) }
        let connection = try Connection(environment: lookup, startService: nil)
        let peer = accept(server, nil, nil)
        defer { close(peer) }
        write(peer, Reply.error(ProtocolError(.notFound, "no toast 9")).encode() + "\n")
        do {
            _ = try connection.call(.dismiss(.ids([9])))
            XCTFail("error reply accepted")
        } catch {
            XCTAssertEqual(error.status, Exit.daemonError)
            XCTAssertEqual(error.message, "not_found: no toast 9")
        }
    }

    func testGarbageFromTheDaemonIsAProtocolFailure() throws {
        let server = try makeServer()
        defer { close(server) }
        let connection = try Connection(environment: lookup, startService: nil)
        let peer = accept(server, nil, nil)
        defer { close(peer) }
        write(peer, "hello\n")
        do {
            _ = try connection.call(.list)
            XCTFail("garbage accepted")
        } catch {
            XCTAssertEqual(error.status, Exit.protocolFailure)
        }
    }

    func testHangUpBeforeReplyIsAProtocolFailure() throws {
        let server = try makeServer()
        defer { close(server) }
        let connection = try Connection(environment: lookup, startService: nil)
        let peer = accept(server, nil, nil)
        shutdown(peer, Int32(SHUT_WR))
        defer { close(peer) }
        do {
            _ = try connection.call(.version)
            XCTFail("no reply accepted")
        } catch {
            XCTAssertEqual(error.status, Exit.protocolFailure)
        }
    }
}
