import Foundation
import XCTest

/// One source of truth for what toastd accepts, checked against what documents it: every toastd flag
/// is in toastd(1); every verb and flag of `toast` is in toast(1), under its verb, and in the bash,
/// zsh and fish completions. The flags come from the built binaries' `--help` (and, for toastd, from
/// Options.swift's parser, which must agree with it). The config keys are checked against toastd(5)
/// and docs/configuration.md from the key table itself, in ToastDaemonTests' ConfigKeyTableTests.
/// No stage needed: only the binaries of TOASTD_BIN_DIR and the repository's files.
final class DocsAgreementTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    private static let binDirectory = ProcessInfo.processInfo.environment["TOASTD_BIN_DIR"]
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path

    private func file(_ path: String) throws -> String {
        try String(contentsOfFile: "\(Self.repository)/\(path)", encoding: .utf8)
    }

    private func binary(_ name: String) throws -> String {
        let path = "\(Self.binDirectory)/\(name)"
        guard access(path, X_OK) == 0 else { throw XCTSkip("\(path) is not built (set TOASTD_BIN_DIR)") }
        return path
    }

    private func help(_ argv: [String]) throws -> String {
        let result = try IntegrationTests.run(argv, timeout: 20)
        XCTAssertTrue(result.succeeded, "\(argv.joined(separator: " ")): \(result.stderrText)")
        return result.stdoutText
    }

    // MARK: - toastd's flags

    func testEveryToastdFlagIsInToastd1() throws {
        let usage = try help([try binary("toastd"), "--help"])
        let fromHelp = Self.optionFlags(in: usage)
        XCTAssertGreaterThan(fromHelp.count, 6, "no flags found in toastd --help:\n\(usage)")
        // The hand-written parser and its usage text must name the same flags.
        let options = try file("Sources/ToastDaemon/Options.swift")
        let parsed = Self.matches(of: #"case ((?:"--?[A-Za-z][\w-]*"(?:, )?)+):"#, in: options)
            .flatMap { Self.matches(of: #""(--?[A-Za-z][\w-]*)""#, in: $0) }
        XCTAssertEqual(Set(parsed), Set(fromHelp), "Options.swift's parser and toastd --help disagree")

        let page = try file("docs/man/toastd.1.scd")
        let optionsPart = try XCTUnwrap(Self.section("OPTIONS", of: page), "toastd(1) has no OPTIONS")
        let synopsis = try XCTUnwrap(Self.section("SYNOPSIS", of: page), "toastd(1) has no SYNOPSIS")
        for flag in Set(fromHelp).union(parsed) {
            XCTAssertTrue(Self.definesTerm(flag, in: optionsPart), "toastd(1)'s OPTIONS does not document \(flag)")
            XCTAssertTrue(synopsis.contains("*\(flag)*"), "toastd(1)'s SYNOPSIS does not show \(flag)")
        }
    }

    // MARK: - toast's verbs and flags

    func testEveryToastVerbAndFlagIsInToast1AndTheCompletions() throws {
        let toast = try binary("toast")
        let verbs = Self.subcommands(in: try help([toast, "--help"]))
        XCTAssertTrue(verbs.contains("send") && verbs.contains("hud") && verbs.count >= 10, "verbs of toast --help: \(verbs)")

        // Every command path (["send"], ["loading", "start"], ...) with the flags its help lists.
        var commands: [[String]: [String]] = [[]: Self.optionFlags(in: try help([toast, "--help"]))]
        var pending = verbs.map { [$0] }
        while let path = pending.popLast() {
            let text = try help([toast, "help"] + path)
            commands[path] = Self.optionFlags(in: text)
            pending += Self.subcommands(in: text).map { path + [$0] }
        }
        XCTAssertNotNil(commands[["loading", "start"]], "toast help loading lists no start")
        XCTAssertEqual(commands[["send"]]?.contains("--urgency"), true, "toast help send lists no --urgency")

        let page = try file("docs/man/toast.1.scd")
        let bash = try file("completions/toast.bash")
        let zsh = try file("completions/_toast")
        let fish = try file("completions/toast.fish")
        // ArgumentParser's own: on every command, documented once under GLOBAL OPTIONS.
        let global: Set<String> = ["--help", "--version"]
        let globalPart = try XCTUnwrap(Self.section("GLOBAL OPTIONS", of: page), "toast(1) has no GLOBAL OPTIONS")
        for flag in global { XCTAssertTrue(Self.definesTerm(flag, in: globalPart), "toast(1) GLOBAL OPTIONS lacks \(flag)") }

        // SYNOPSIS: every verb and sub-verb (issue #36: it left out menu, reload and osd).
        let synopsis = try XCTUnwrap(Self.section("SYNOPSIS", of: page), "toast(1) has no SYNOPSIS")
        for path in commands.keys where !path.isEmpty {
            let name = path.joined(separator: " ")
            let shown = synopsis.contains("*toast \(name)*") || synopsis.contains("*toast \(name) ")
                || (name == "send" && synopsis.contains("*toast* [*send*]"))
            XCTAssertTrue(shown, "toast(1)'s SYNOPSIS does not show 'toast \(name)'")
        }

        for (path, flags) in commands where !path.isEmpty {
            let name = path.joined(separator: " ")
            let function = "_toast_" + path.joined(separator: "_")
            // toast(1): a "## VERB" part per verb; a sub-verb is named in its verb's part.
            let part = Self.subsection(path[0], of: page)
            XCTAssertNotNil(part, "toast(1) has no '## \(path[0])' for the verb \(path[0])")
            if path.count > 1 { XCTAssertTrue(part?.contains("*toast \(name)*") == true, "toast(1) does not show 'toast \(name)'") }
            // Completions: a function per command in bash and zsh, a condition naming it in fish.
            let bashBody = Self.shellFunction(function, in: bash)
            let zshBody = Self.shellFunction(function, in: zsh)
            XCTAssertNotNil(bashBody, "completions/toast.bash has no \(function) for 'toast \(name)'")
            XCTAssertNotNil(zshBody, "completions/_toast has no \(function) for 'toast \(name)'")
            let fishLines = fish.split(separator: "\n").filter { $0.contains("\"toast \(name)\"") }
            XCTAssertTrue(fish.contains("'\(path.last!)'"), "completions/toast.fish does not offer '\(path.last!)'")

            for flag in flags where !global.contains(flag) {
                XCTAssertTrue(Self.definesTerm(flag, in: part ?? ""), "toast(1)'s '## \(path[0])' does not document \(flag) of 'toast \(name)'")
                XCTAssertTrue(Self.containsWord(flag, in: bashBody ?? ""), "completions/toast.bash lacks \(flag) of 'toast \(name)'")
                XCTAssertTrue(Self.containsWord(flag, in: zshBody ?? ""), "completions/_toast lacks \(flag) of 'toast \(name)'")
                let fishOption = flag.hasPrefix("--") ? "-l '\(flag.dropFirst(2))'" : "-s '\(flag.dropFirst())'"
                XCTAssertTrue(fishLines.contains { $0.contains(fishOption) },
                              "completions/toast.fish lacks \(flag) of 'toast \(name)'")
            }
        }
    }

    // MARK: - Reading help, sources and pages

    /// The flags of an OPTIONS section (`  -u, --urgency <urgency>   ...`, `  --replace   ...`): each
    /// line that starts with two blanks and a dash, up to its description.
    static func optionFlags(in help: String) -> [String] {
        var flags: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let head = matches(of: #"^ {2}(-[^ ].*?)(?: {2,}|$)"#, in: String(line)).first else { continue }
            flags += matches(of: #"(?<![\w-])(--?[A-Za-z][\w-]*)"#, in: head)
        }
        return flags
    }

    /// The names under ArgumentParser's `SUBCOMMANDS:` (`  send (default)   Show ...`).
    static func subcommands(in help: String) -> [String] {
        guard let range = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[range.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .compactMap { matches(of: #"^ {2}([a-z][a-z-]*)(?: \(default\))?(?: |$)"#, in: String($0)).first }
    }

    /// Whether an scdoc page part has a definition of `flag`: a term line (`*-u*, *--urgency* _LEVEL_`,
    /// followed by an indented description) that names it in bold before any argument.
    static func definesTerm(_ flag: String, in part: String) -> Bool {
        let lines = part.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.indices.dropLast().contains { i in
            let line = lines[i]
            guard line.hasPrefix("*"), lines[i + 1].hasPrefix("\t") else { return false }
            let names = line.prefix { $0 != "_" && $0 != "[" && $0 != "|" }
            return names.contains("*\(flag)*")
        }
    }

    /// A `# TITLE` section of an scdoc page, up to the next `# `.
    static func section(_ title: String, of page: String) -> String? {
        part(after: "\n# \(title)\n", until: "\n# ", of: page)
    }

    /// A `## NAME` part of an scdoc page, up to the next `## ` or `# `.
    static func subsection(_ name: String, of page: String) -> String? {
        guard let text = part(after: "\n## \(name)\n", until: "\n#", of: page) else { return nil }
        return text
    }

    private static func part(after start: String, until end: String, of page: String) -> String? {
        guard let begin = page.range(of: start) else { return nil }
        let rest = page[begin.upperBound...]
        return String(rest[..<(rest.range(of: end)?.lowerBound ?? rest.endIndex)])
    }

    /// The body of a shell function `NAME() {` up to its closing `}` at the start of a line.
    static func shellFunction(_ name: String, in script: String) -> String? {
        part(after: "\n\(name)() {\n", until: "\n}", of: script)
    }

    /// `word` in `text`, not as part of a longer flag or name.
    static func containsWord(_ word: String, in text: String) -> Bool {
        !matches(of: #"(?<![\w-])(\#(NSRegularExpression.escapedPattern(for: word)))(?![\w-])"#, in: text).isEmpty
    }

    /// The first capture group of every match.
    static func matches(of pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map {
            ns.substring(with: $0.range(at: 1))
        }
    }
}
