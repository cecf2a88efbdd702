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
}
