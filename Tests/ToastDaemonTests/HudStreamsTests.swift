import Glibc
import XCTest
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene

/// A handed-over HUD stream, read through the daemon's own loop from a real pipe.
final class HudStreamsTests: XCTestCase {
    func testValuesProblemsAndTheEndArriveInOrder() throws {
        let loop = try EventLoop()
        let streams = HudStreams(loop: loop)
        var values: [String] = [], outcomes: [String] = []
        streams.onValue = { bar, value, muted in
            values.append("\(bar.kind) \(value)\(muted ? " muted" : "")")
            return nil
        }
        streams.onOutcome = { owner, outcome in
            switch outcome {
            case .problem(let line, let message): outcomes.append("\(owner) line \(line): \(message)")
            case .ended: outcomes.append("\(owner) ended")
            }
        }
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        XCTAssertTrue(streams.start(fd: ends[0], bar: .init(kind: "volume", muted: false), owner: 7))
        let input = "30\n\nloud\n40% muted\n55"  // a blank line, a bad one, and a last line with no newline
        _ = input.withCString { write(ends[1], $0, strlen($0)) }
        close(ends[1])
        for _ in 0..<10 where !outcomes.contains("7 ended") { loop.wait(timeoutMilliseconds: 1000) }
        XCTAssertEqual(values, ["volume 30", "volume 40 muted", "volume 55"])
        XCTAssertEqual(outcomes, ["7 line 3: \"loud\" is not a number", "7 ended"])
    }

    func testAClientWithAStreamCannotStartAnotherAndItsStreamClosesWhenItLeaves() throws {
        let loop = try EventLoop()
        let streams = HudStreams(loop: loop)
        var first: [Int32] = [0, 0], second: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&first), 0)
        XCTAssertEqual(pipe(&second), 0)
        XCTAssertTrue(streams.start(fd: first[0], bar: .init(kind: "volume", muted: false), owner: 1))
        XCTAssertFalse(streams.start(fd: second[0], bar: .init(kind: "mic", muted: false), owner: 1))
        XCTAssertEqual(fcntl(second[0], F_GETFD), -1, "the refused descriptor is closed")
        streams.stop(1)
        // The read end is gone: writing to the pipe now fails (EPIPE, SIGPIPE ignored here).
        signal(SIGPIPE, SIG_IGN)
        XCTAssertEqual(write(first[1], "1\n", 2), -1)
        XCTAssertEqual(errno, EPIPE)
        close(first[1]); close(second[1])
    }

    /// A client may pass a socket whose receive low-water mark it set to 1 MiB: epoll calls it readable
    /// with one byte queued, and a plain read then waits for the megabyte, freezing the whole loop. The
    /// stream must take the value at once, and the client's own descriptor keep its flags.
    func testASocketWithAHugeLowWaterMarkDoesNotBlockTheLoop() throws {
        let loop = try EventLoop()
        let streams = HudStreams(loop: loop)
        var values: [Int] = []
        streams.onValue = { _, value, _ in values.append(value); return nil }
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        defer { close(pair[1]) }
        var lowWater: Int32 = 1 << 20
        XCTAssertEqual(setsockopt(pair[0], SOL_SOCKET, SO_RCVLOWAT, &lowWater, socklen_t(MemoryLayout<Int32>.size)), 0)
        let flagsBefore = fcntl(pair[0], F_GETFL)
        XCTAssertTrue(streams.start(fd: pair[0], bar: .init(kind: "volume", muted: false), owner: 3))
        XCTAssertEqual(write(pair[1], "42\n", 3), 3)
        // A blocking read would never return from this wait (the test would hang, not fail).
        for _ in 0..<10 where values.isEmpty { loop.wait(timeoutMilliseconds: 1000) }
        XCTAssertEqual(values, [42])
        XCTAssertEqual(fcntl(pair[0], F_GETFL) & O_NONBLOCK, flagsBefore & O_NONBLOCK, "the client's flags changed")
        streams.stop(3)
    }

    /// A pipe is read through a file description of the daemon's own (made non-blocking), never by
    /// changing the one the client shares with its shell.
    func testAPipeIsReadWithoutChangingTheClientsFlags() throws {
        let loop = try EventLoop()
        let streams = HudStreams(loop: loop)
        var values: [Int] = []
        streams.onValue = { _, value, _ in values.append(value); return nil }
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let shared = dup(ends[0])  // the client's own copy of the same open file
        defer { close(shared); close(ends[1]) }
        XCTAssertTrue(streams.start(fd: ends[0], bar: .init(kind: "volume", muted: false), owner: 4))
        XCTAssertEqual(write(ends[1], "7\n", 2), 2)
        for _ in 0..<10 where values.isEmpty { loop.wait(timeoutMilliseconds: 1000) }
        XCTAssertEqual(values, [7])
        XCTAssertEqual(fcntl(shared, F_GETFL) & O_NONBLOCK, 0, "the shared open file became non-blocking")
        XCTAssertFalse(streams.start(fd: open("/etc/hostname", O_RDONLY), bar: .init(kind: "x", muted: false), owner: 5),
                       "a regular file is refused")
        streams.stop(4)
    }
}
