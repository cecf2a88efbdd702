import Foundation
import XCTest

/// The shell completions: completions/ holds what `toast --generate-completion-script` prints, and
/// bash's completes what a user types (issue #36: nothing after `toast hud`, the verbs after `-u`).
/// No stage needed: the built `toast` and bash.
final class CompletionTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    private static let binDirectory = ProcessInfo.processInfo.environment["TOASTD_BIN_DIR"]
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path

    private func toast() throws -> String {
        let path = "\(Self.binDirectory)/toast"
        guard access(path, X_OK) == 0 else { throw XCTSkip("\(path) is not built (set TOASTD_BIN_DIR)") }
        return path
    }

    func testCompletionsInTheRepositoryAreWhatToastGenerates() throws {
        for (shell, file) in [("bash", "toast.bash"), ("zsh", "_toast"), ("fish", "toast.fish")] {
            let generated = try IntegrationTests.run([try toast(), "--generate-completion-script", shell], timeout: 20)
            XCTAssertTrue(generated.succeeded, generated.stderrText)
            let stored = try String(contentsOfFile: "\(Self.repository)/completions/\(file)", encoding: .utf8)
            XCTAssertTrue(generated.stdoutText == stored,
                          "completions/\(file) is stale: toast --generate-completion-script \(shell) > completions/\(file)")
        }
    }

    /// What bash offers for `line` (the cursor at its end) with completions/toast.bash loaded.
    private func bashCompletes(_ line: String) throws -> [String] {
        var words = line.split(separator: " ").map(String.init)
        if line.hasSuffix(" ") { words.append("") }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let script = """
            source '\(Self.repository)/completions/toast.bash'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
            _toast toast "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try IntegrationTests.run(["/bin/bash", "-c", script], timeout: 20)
        XCTAssertTrue(result.succeeded, result.stderrText)
        return result.stdoutText.split(separator: "\n").map(String.init)
    }

    func testBashCompletesFlagValuesAndHudNames() throws {
        _ = try toast()
        XCTAssertEqual(try bashCompletes("toast -u "), ["low", "normal", "critical"], "the urgencies after -u, not the verbs")
        XCTAssertEqual(try bashCompletes("toast -u cr"), ["critical"])
        XCTAssertEqual(try bashCompletes("toast send -u "), ["low", "normal", "critical"])
        let afterUrgency = try bashCompletes("toast -u low -")
        XCTAssertTrue(afterUrgency.contains("--expire-time"), "\(afterUrgency)")
        XCTAssertTrue(try bashCompletes("toast -").contains("--urgency"), "send's flags where a line starts")
        XCTAssertTrue(try bashCompletes("toast -c ").contains("email.arrived"))
        XCTAssertTrue(try bashCompletes("toast -h ").contains("string:sound-name:"))

        let kinds = try bashCompletes("toast hud ")
        XCTAssertTrue(["volume", "mic", "brightness", "keyboard-brightness"].allSatisfy(kinds.contains), "\(kinds)")
        XCTAssertEqual(try bashCompletes("toast hud bri"), ["brightness"])
        XCTAssertTrue(try bashCompletes("toast mode -a ").contains("do-not-disturb"))

        // The verbs where a verb goes.
        let verbs = try bashCompletes("toast ")
        XCTAssertTrue(verbs.contains("hud") && verbs.contains("send") && !verbs.contains("low"), "\(verbs)")
        XCTAssertEqual(try bashCompletes("toast lo"), ["loading"])
    }
}
