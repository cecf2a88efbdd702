import Foundation
import Glibc
import XCTest
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform

/// What a hostile program of the session could do to the daemon's own files, log and children, each
/// refused (issue 37; docs/security.md). The socket and bus attacks run against a real daemon in
/// IntegrationTests/HardeningTests.swift.
final class HardeningTests: ScratchDirectoryTestCase {
    // MARK: Files

    /// A FIFO at the configuration (or history) path: opened without waiting for a writer, and refused.
    /// A blocking open would hang here (and hang toastd's start or `toast reload`) until someone wrote.
    func testAFIFOAtTheConfigPathIsRefusedWithoutWaiting() throws {
        let fifo = directory + "/config"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        guard case .unusable(let reason) = ConfigFile.read(fifo) else { return XCTFail("a FIFO was read") }
        XCTAssertEqual(reason, "not a regular file")
        let loaded = ConfigFile.load(fifo, explicit: true)
        XCTAssertNil(loaded.parsed)
        XCTAssertEqual(HistoryFile(path: fifo).load(), [], "the history path is read the same way")
    }

    /// A configuration file others could write runs their `exec` lines as the user: refused with a
    /// message naming the fix, unless `--allow-writable-config`.
    func testAConfigFileOthersMayWriteIsRefusedUnlessAllowed() throws {
        let path = directory + "/config"
        try "on-notify = exec true\nwidth = 300\n".write(toFile: path, atomically: true, encoding: .utf8)
        for mode: mode_t in [0o666, 0o620, 0o602] {
            XCTAssertEqual(chmod(path, mode), 0)
            let refused = ConfigFile.load(path, explicit: true)
            XCTAssertNil(refused.parsed, "mode \(String(mode, radix: 8)) loaded")
            XCTAssertTrue(refused.warnings.contains { $0.contains("writable by others") && $0.contains("--allow-writable-config") },
                          "\(refused.warnings)")
            XCTAssertNotNil(ConfigFile.load(path, explicit: true, allowWritable: true).parsed, "the option lets it load")
        }
        XCTAssertEqual(chmod(path, 0o644), 0)
        XCTAssertNotNil(ConfigFile.load(path, explicit: true).parsed, "0644 is the user's own")
        XCTAssertNotNil(ConfigFile.privacyProblem(mode: 0o644, owner: 1234, user: 1000), "another user's file")
        XCTAssertNil(ConfigFile.privacyProblem(mode: 0o644, owner: 0, user: 1000), "root's file (a system default)")
    }

    /// The history's temporary file is a new one: a symlink planted where the old code wrote
    /// (`history.tmp-PID`) is not followed, its target keeps its bytes, and the state directory
    /// becomes 0700.
    func testTheHistoryIsNotWrittenThroughAPlantedLinkAndItsDirectoryIsPrivate() throws {
        let state = directory + "/state/toastd"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(state, 0o755), 0)
        let victim = directory + "/victim"
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        XCTAssertEqual(symlink(victim, state + "/history.tmp-\(getpid())"), 0)
        let file = HistoryFile(path: state + "/history")
        try file.save(Array("new history\n".utf8))
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n", "written through the link")
        XCTAssertEqual(try String(contentsOfFile: state + "/history", encoding: .utf8), "new history\n")
        var info = stat()
        XCTAssertEqual(stat(state, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700, "the state directory stays open to others")
        XCTAssertEqual(stat(state + "/history", &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix("history.tmp-") && !$0.hasSuffix("\(getpid())") }
        XCTAssertEqual(leftovers, [], "temporary files left behind")
    }

    // MARK: Log

    /// A newline in client text cannot start a line of its own: "toastd: ready" cannot be forged, and
    /// escape sequences do not reach the terminal.
    func testLogLinesEscapeControlCharacters() {
        XCTAssertEqual(Log.escaped("image /tmp/a\ntoastd: ready"), "image /tmp/a\\ntoastd: ready")
        XCTAssertEqual(Log.escaped("a\r\u{1b}[31mred\u{7f}\u{85}\u{2028}b"), "a\\r\\x1b[31mred\\x7f\\x85\\u{2028}b")
        XCTAssertEqual(Log.escaped("tab\tand ünïcødé stay"), "tab\tand ünïcødé stay")
    }

    // MARK: Children

    /// One bound for every child: what does not fit is dropped, the first of a burst logged at once and
    /// the burst counted when a child ends, never a line per drop.
    func testTheChildBudgetLogsOnceABurst() {
        var lines: [String] = []
        let budget = ChildBudget(limit: 2) { lines.append($0) }
        XCTAssertTrue(budget.take())
        XCTAssertTrue(budget.take())
        XCTAssertFalse(budget.take(), "over the bound")
        for index in 0..<50 { budget.drop("sound", "the sound of app\(index)") }
        budget.drop("command", "'echo'")
        XCTAssertEqual(lines.count, 1, "\(lines)")
        XCTAssertTrue(lines[0].contains("the sound of app0"), lines[0])
        budget.release()
        XCTAssertEqual(lines.last, "1 command and 50 sounds dropped while 2 programs were running")
        budget.release()
        XCTAssertEqual(lines.count, 2, "a release with nothing dropped says nothing")
        XCTAssertEqual(budget.running, 0)
    }

    /// Commands share the budget with sounds: those that find it full wait in order in a bounded
    /// queue and start as children end; beyond the queue they are dropped, with a log line.
    func testCommandsWaitForTheSharedBudgetThenAreDropped() throws {
        var lines: [String] = []
        let budget = ChildBudget(limit: 1) { lines.append($0) }
        let runner = CommandRunner(limit: 8, queueLimit: 2, budget: budget)
        let marks = directory + "/marks"
        let first = try XCTUnwrap(runner.run("echo first >> \(marks)", environment: []))
        XCTAssertNil(runner.run("echo second >> \(marks)", environment: []), "the budget is spent: queued")
        XCTAssertNil(runner.run("echo third >> \(marks)", environment: []))
        XCTAssertNil(runner.run("echo fourth >> \(marks)", environment: []), "the queue is full: dropped")
        XCTAssertEqual(runner.queued, 2)
        XCTAssertEqual(lines.count, 1, "the drop is logged: \(lines)")
        var status: Int32 = 0
        XCTAssertEqual(waitpid(first, &status, 0), first)
        // The runner reaps by pid: a child already waited for counts as ended.
        runner.reap()
        while runner.queued > 0 || !runner.running.isEmpty {
            for pid in runner.running.keys { _ = waitpid(pid, &status, 0) }
            runner.reap()
        }
        XCTAssertEqual(try String(contentsOfFile: marks, encoding: .utf8), "first\nsecond\nthird\n")
        XCTAssertEqual(budget.running, 0)
        XCTAssertTrue(lines.last?.contains("1 command dropped") == true, "\(lines)")
    }

    /// A sound file is opened once, non-blocking, and must be a regular file: a FIFO (which would keep
    /// a player waiting, and its slot, forever) or a device is refused before any player starts.
    func testASoundFileMustBeARegularFile() throws {
        let fifo = directory + "/fifo.oga"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for path in [fifo, "/dev/zero", directory] {
            guard case .refused = SoundPlayer.openRegularFile(path) else { return XCTFail("\(path) was accepted") }
        }
        let sound = directory + "/bell.oga"
        try Data("OggS".utf8).write(to: URL(fileURLWithPath: sound))
        guard case .file(let fd) = SoundPlayer.openRegularFile(sound) else { return XCTFail("a regular file was refused") }
        close(fd)
    }
}
