import ToastVocabulary
import XCTest
import ToastProtocol

final class LineSplitterTests: XCTestCase {
    func drain(_ s: inout LineSplitter) -> [LineSplitter.Item] {
        var items: [LineSplitter.Item] = []
        while let item = s.next() { items.append(item) }
        return items
    }

    func line(_ text: String) -> LineSplitter.Item { .line(Array(text.utf8)) }

    func testSplitsAcrossChunks() {
        var s = LineSplitter(limit: 100)
        s.append(Array("ab".utf8))
        XCTAssertEqual(drain(&s), [])
        s.append(Array("c\nde\n\nf".utf8))
        XCTAssertEqual(drain(&s), [line("abc"), line("de"), line("")])
        XCTAssertEqual(s.pendingCount, 1)
        s.append(Array("g\n".utf8))
        XCTAssertEqual(drain(&s), [line("fg")])
        XCTAssertEqual(s.pendingCount, 0)
        XCTAssertNil(s.finish())
    }

    func testLineExactlyAtTheLimitPasses() {
        var s = LineSplitter(limit: 4)
        s.append(Array("abcd".utf8))
        XCTAssertEqual(drain(&s), [])
        s.append(Array("\n".utf8))
        XCTAssertEqual(drain(&s), [line("abcd")])
    }

    func testTooLongLineIsReportedOnceAndSkipped() {
        var s = LineSplitter(limit: 4)
        s.append(Array("ok\nabcdef".utf8))
        XCTAssertEqual(drain(&s), [line("ok"), .tooLong(discardedBytes: 6)])
        XCTAssertEqual(s.pendingCount, 0, "an over-long line is not kept")
        // More of the same line: dropped silently, memory stays bounded.
        for _ in 0..<1000 {
            s.append([UInt8](repeating: UInt8(ascii: "x"), count: 1000))
            XCTAssertEqual(drain(&s), [])
            XCTAssertLessThanOrEqual(s.pendingCount, 4)
        }
        s.append(Array("yz\nnext\n".utf8))
        XCTAssertEqual(drain(&s), [line("next")])
    }

    func testTooLongCompleteLineInOneChunk() {
        var s = LineSplitter(limit: 3)
        s.append(Array("abcd\nxy\n".utf8))
        XCTAssertEqual(drain(&s), [.tooLong(discardedBytes: 4), line("xy")])
    }

    func testPendingNeverExceedsTheLimitAfterDraining() {
        var s = LineSplitter(limit: 8)
        for chunk in ["abc", "def", "ghi", "jkl"] {
            s.append(Array(chunk.utf8))
            _ = drain(&s)
            XCTAssertLessThanOrEqual(s.pendingCount, 8)
        }
    }

    func testFinishReturnsUnterminatedLine() {
        var s = LineSplitter(limit: 10)
        s.append(Array("a\nlast".utf8))
        XCTAssertEqual(drain(&s), [line("a")])
        XCTAssertEqual(s.finish(), Array("last".utf8))
        XCTAssertNil(s.finish())
    }

    func testFinishDropsTheTailOfAnOverlongLine() {
        var s = LineSplitter(limit: 2)
        s.append(Array("abcdef".utf8))
        XCTAssertEqual(drain(&s), [.tooLong(discardedBytes: 6)])
        XCTAssertNil(s.finish())
    }

    func testDefaultLimitIsTheProtocolLimit() {
        XCTAssertEqual(LineSplitter().limit, 64 * 1024)
        XCTAssertEqual(ProtocolError.lineTooLong(discardedBytes: 70_000).code, .lineTooLong)
        XCTAssertTrue(ProtocolError.lineTooLong(discardedBytes: 70_000).message.contains("65536"))
    }
}

final class SocketPathTests: XCTestCase {
    func testResolution() {
        XCTAssertEqual(try SocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]).get(),
                       "/run/user/1000/toastd.sock")
        XCTAssertEqual(try SocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"]).get(),
                       "/run/user/1000/toastd.sock")
        XCTAssertEqual(try SocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000",
                                                            "TOASTD_SOCKET": "/tmp/t.sock"]).get(),
                       "/tmp/t.sock")
        XCTAssertEqual(try SocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/r", "TOASTD_SOCKET": ""]).get(),
                       "/r/toastd.sock")
    }

    func testErrors() {
        XCTAssertEqual(SocketPath.resolve(environment: [:]), .failure(.notSet))
        XCTAssertEqual(SocketPath.resolve(environment: ["XDG_RUNTIME_DIR": ""]), .failure(.notSet))
        XCTAssertEqual(SocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "run"]), .failure(.relativeRuntimeDir("run")))
        let long = "/" + String(repeating: "d", count: 200)
        XCTAssertEqual(SocketPath.resolve(environment: ["TOASTD_SOCKET": long]), .failure(.tooLong(long)))
        XCTAssertTrue(SocketPath.ResolveError.notSet.description.contains("XDG_RUNTIME_DIR"))
        XCTAssertTrue(SocketPath.ResolveError.notSet.description.contains("TOASTD_SOCKET"))
    }
}
