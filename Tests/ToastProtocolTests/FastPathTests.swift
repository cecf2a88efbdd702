import ArgumentParser
import ToastVocabulary
import XCTest
import ToastProtocol
@testable import toast

/// The fast parser must agree with ArgumentParser whenever it answers.
final class FastPathTests: XCTestCase {
    /// What ArgumentParser makes of `args`, in the fast parser's terms (nil: an error, or another command).
    func viaArgumentParser(_ args: [String]) -> FastPath.Command? {
        guard let command = try? Toast.parseAsRoot(args) else { return nil }
        if let send = command as? Send { return .send(send.params, printID: send.printID) }
        if let hud = command as? Hud, let value = hud.value, !hud.stream {
            return .hud(hud.params(value: value, muted: hud.muted))
        }
        if let start = command as? Loading.Start { return .loading(start.request) }
        if let stop = command as? Loading.Stop { return .loading(.loadingStop(key: stop.key)) }
        return nil
    }

    func assertAgrees(_ args: [String], file: StaticString = #filePath, line: UInt = #line) {
        guard let fast = FastPath.parse(args) else { return }
        XCTAssertEqual(fast, viaArgumentParser(args), "\(args)", file: file, line: line)
    }

    func testCommonLinesTakeTheFastPath() {
        let lines: [[String]] = [
            ["Hello"], ["Hello", "World"], ["send", "Hello"], ["-u", "critical", "Disk full", "/ is at 99%"],
            ["-t", "0", "-i", "dialog-information", "-a", "backup", "-c", "transfer.complete", "Done"],
            ["-h", "int:x:5", "-h", "string:sound-name:bell", "--hint=byte:urgency:2", "S"],
            ["-A", "yes=Yes", "-A", "No", "Proceed?"], ["-w", "-p", "-e", "--tag", "vol", "--value", "40", "S"],
            ["--urgency=low", "--expire-time=1500", "--replace-id=4", "S", "B"], ["-r", "0", "S"],
            ["hud", "volume", "40"], ["hud", "volume", "0", "--muted"], ["hud", "brightness", "70", "--label", "Screen", "--icon=display"],
            ["loading", "start", "build"], ["loading", "start", "sync", "--label", "Syncing", "--detach"],
            ["loading", "stop", "build"],
        ]
        for args in lines {
            XCTAssertNotNil(FastPath.parse(args), "\(args)")
            assertAgrees(args)
        }
    }

    func testUnusualLinesFallBack() {
        let lines: [[String]] = [
            [], ["--help"], ["--version"], ["list"], ["send", "list"], ["--", "list"], ["-u", "low", "list"],
            ["-ew", "S"], ["-u", "low", "-u", "critical", "S"], ["-w", "-w", "S"], ["-u", "urgent", "S"],
            ["-t", "-2", "S"], ["-t", "S"], ["--value", "101", "S"], ["--tag", "", "S"], ["-h", "int:x", "S"],
            ["a", "b", "c"], ["-x", "S"], ["--wait=yes", "S"], ["-r", "-1", "S"], ["S", "-"],
            ["--generate-completion-script", "bash"], ["hud", "volume"], ["hud", "--stream", "volume"],
            ["hud", "volume", "201"], ["hud", "volume", "x"], ["hud", "", "4"], ["dismiss", "--all"],
            ["loading"], ["loading", "start"], ["loading", "stop", "k", "--detach"], ["loading", "begin", "k"],
            ["loading", "start", "a", "b"], ["loading", "start", ""],
        ]
        for args in lines { XCTAssertNil(FastPath.parse(args), "\(args)") }
    }

    /// Thousands of random command lines from a pool of tokens (fixed seed): whenever the fast parser
    /// answers, ArgumentParser must give the same command.
    func testRandomLinesAgreeWithArgumentParser() {
        let pool = ["-u", "--urgency", "low", "critical", "bogus", "-t", "--expire-time", "0", "-1", "-7", "250",
                    "-i", "icon", "-a", "-c", "-h", "int:x:5", "byte:urgency:9", "bad", "-A", "yes=Yes", "No",
                    "-w", "-p", "-e", "--wait", "--print-id", "--transient", "-r", "3", "0", "--tag", "t", "--value",
                    "100", "101", "Summary", "Body", "list", "send", "hud", "volume", "40", "--muted", "--label",
                    "--icon", "--", "--urgency=low", "--value=5", "--hint=string:a:b", "=", "-", "x=y", "",
                    "loading", "start", "stop", "--detach", "key"]
        var state: UInt64 = 0x9E3779B97F4A7C15
        func random(_ n: Int) -> Int {  // xorshift64, deterministic
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(n))
        }
        var answered = 0
        for _ in 0..<4000 {
            let prefixes: [[String]] = [[], [], ["send"], ["hud"], ["hud", "volume"], ["loading", "start"], ["loading", "stop"]]
            var args = prefixes[random(prefixes.count)]
            for _ in 0..<(1 + random(7)) { args.append(pool[random(pool.count)]) }
            if FastPath.parse(args) != nil { answered += 1 }
            assertAgrees(args)
        }
        XCTAssertGreaterThan(answered, 200, "the random lines should exercise the fast path")
    }
}
