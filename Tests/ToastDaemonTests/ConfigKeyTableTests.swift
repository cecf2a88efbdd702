import Foundation
@testable import ToastConfig
import ToastVocabulary
import XCTest

/// The key table (`ConfigKeys`): every key reads a value in each place it claims and is refused in
/// the others with the parser's message; what it reads reaches the configuration; and the docs
/// (toastd(5), docs/configuration.md) list exactly its keys, with its ranges.
final class ConfigKeyTableTests: XCTestCase {
    private func parse(_ text: String) -> ParsedConfig { ConfigParser.parse(text, path: "cfg") }

    /// Two different values each reader accepts (so that a key wired to nothing, or to the wrong
    /// field, shows), and one it refuses.
    private func samples(_ kind: ValueKind) -> (first: String, second: String, bad: String) {
        switch kind {
        case .wholeNumber(let range): ("\(range.lowerBound)", "\(range.upperBound)", "\(range.upperBound + 1)")
        case .decimal(let range): ("\(range.lowerBound)", "\(range.upperBound)", "\(range.upperBound + 1)")
        case .timeout: ("1500", "0", "-1")
        case .colour: ("#11223344", "#abcdef", "red")
        case .boolean: ("yes", "off", "maybe")
        case .choice(let words): (words[0], words[words.count - 1], "sideways")
        case .margins: ("1", "1,2,3,4", "1 2 3 4 5")
        case .font: ("Serif 11", "Mono", "Sans 1000")
        case .output: ("all", "HDMI-A-1", String(repeating: "x", count: 300))
        case .binding: ("dismiss-all", "exec true", "explode")
        case .format: ("%s", "<b>%a</b>", "%z")
        case .groupBy: ("app-name", "summary,body", "colour")
        case .sound: ("bell", "/usr/share/sounds/x.oga", "../x")
        case .command: ("/usr/bin/true", "none", String(repeating: "x", count: 1100))
        case .themeName: ("Adwaita", "hicolor", "../x")
        case .directories: ("/usr/share/icons", "/a:/b", "relative/dir")
        }
    }

    func testTheTableIsConsistent() {
        XCTAssertEqual(ConfigKeys.named.count, ConfigKeys.all.count, "a key is in the table twice")
        XCTAssertGreaterThan(ConfigKeys.all.count, 50)
        for entry in ConfigKeys.all {
            XCTAssertEqual(entry.name, entry.name.lowercased(), entry.name)
            XCTAssertTrue(entry.global != nil || entry.section != nil, "\(entry.name) applies nowhere")
            if entry.perUrgency != nil {
                XCTAssertNotNil(entry.section, "\(entry.name): an [urgency=...] section is a criteria section too")
                XCTAssertNotNil(entry.global, "\(entry.name): per urgency but not global")
            }
        }
        for (alias, key) in ConfigKeys.aliases {
            XCTAssertNil(ConfigKeys.named[alias], alias)
            XCTAssertNotNil(ConfigKeys.named[key], "the alias \(alias) names no key")
        }
        XCTAssertTrue(ConfigKeys.makoKeys.isDisjoint(with: ConfigParser.keys), "a mako key toastd does is called unsupported")
        XCTAssertEqual(Set(ConfigParser.urgencyKeys), ["default-timeout", "background", "border-color", "progress-color"])
    }

    func testEveryKeyReadsItsValuesGlobally() {
        for entry in ConfigKeys.all {
            let key = entry.name
            let kind = entry.global?.kind ?? entry.section!.kind
            let (first, second, bad) = samples(kind)
            let one = parse("\(key) = \(first)"), other = parse("\(key) = \(second)")
            XCTAssertEqual(one.diagnostics, [], key)
            XCTAssertEqual(other.diagnostics, [], key)
            XCTAssertNotEqual(one.config, other.config, "\(key): \(first) and \(second) change nothing different")
            if entry.global == nil {
                // A behaviour only rules have: a rule matching every notification.
                XCTAssertEqual(one.config.rules.rules.map(\.criteria), [Criteria()], key)
            } else {
                XCTAssertTrue(one.config.rules.isEmpty, "\(key): a global key made a rule")
            }
            let refused = parse("\(key) = \(bad)")
            XCTAssertEqual(refused.diagnostics.count, 1, "\(key) = \(bad)")
            XCTAssertTrue(refused.diagnostics.first?.message.hasPrefix("'\(key)'") == true,
                          "\(key) = \(bad): \(refused.diagnostics.map(\.message))")
            XCTAssertEqual(refused.config, DaemonConfig(withRules: refused.config.rules), "\(key) = \(bad) changed the configuration")
            let empty = parse("\(key) =").diagnostics.map(\.message)
            XCTAssertEqual(empty, kind == .output ? [] : ["'\(key)' needs a value"], key)
        }
    }

    func testEveryKeyReadsItsValuesInACriteriaSectionOrIsRefusedThere() {
        let ruleKeys = ConfigParser.ruleKeys.joined(separator: ", ")
        for entry in ConfigKeys.all {
            let key = entry.name
            guard let use = entry.section else {
                let (first, _, _) = samples(entry.global!.kind)
                let refused = parse("[app-name=x]\n\(key) = \(first)")
                XCTAssertEqual(refused.diagnostics.map(\.description),
                               ["cfg:2: '\(key)' cannot be set in a criteria section (there only: \(ruleKeys))"])
                XCTAssertEqual(refused.config.rules.rules.map(\.look), [LookPatch()], key)
                continue
            }
            let (first, second, bad) = samples(use.kind)
            let one = parse("[app-name=x]\n\(key) = \(first)"), other = parse("[app-name=x]\n\(key) = \(second)")
            XCTAssertEqual(one.diagnostics, [], key)
            XCTAssertEqual(other.diagnostics, [], key)
            XCTAssertNotEqual(one.config.rules, other.config.rules, "\(key): \(first) and \(second) make the same rule")
            XCTAssertNotEqual(one.config.rules, parse("[app-name=x]").config.rules, "\(key) set nothing")
            XCTAssertEqual(one.config, DaemonConfig(withRules: one.config.rules), "\(key) in a section changed a global value")
            let refused = parse("[app-name=x]\n\(key) = \(bad)")
            XCTAssertTrue(refused.diagnostics.first?.message.hasPrefix("'\(key)'") == true,
                          "\(key) = \(bad): \(refused.diagnostics.map(\.message))")
            XCTAssertEqual(parse("[app-name=x]\n\(key) =").diagnostics.map(\.message), ["'\(key)' needs a value"])
        }
    }

    func testOnlyThePerUrgencyKeysSetTheGlobalValueOfAnUrgency() {
        for entry in ConfigKeys.all {
            let key = entry.name
            guard let use = entry.section else { continue }
            let (first, second, _) = samples(use.kind)
            let one = parse("[urgency=critical]\n\(key) = \(first)"), other = parse("[urgency=critical]\n\(key) = \(second)")
            XCTAssertEqual(one.diagnostics, [], key)
            let globalOne = DaemonConfig(withRules: RuleSet(), from: one.config)
            let globalOther = DaemonConfig(withRules: RuleSet(), from: other.config)
            if entry.perUrgency != nil {
                XCTAssertNotEqual(globalOne, globalOther, "\(key) in [urgency=critical] sets no global value")
                XCTAssertEqual(globalOne.notifications.defaultTimeouts.low, DaemonConfig().notifications.defaultTimeouts.low)
                XCTAssertEqual(globalOne.style.borders.low, DaemonConfig().style.borders.low, "\(key): low changed too")
                XCTAssertTrue(one.config.rules.isEmpty, "\(key): a leading per-urgency section stays a rule")
            } else {
                XCTAssertEqual(globalOne, DaemonConfig(), "\(key) in [urgency=critical] changed a global value")
                XCTAssertEqual(one.config.rules.rules.count, 1, key)
            }
        }
    }

    // MARK: - Docs

    private func file(_ path: String) throws -> String {
        try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/ToastDaemonTests/ConfigKeyTableTests.swift",
                                                                  with: path), encoding: .utf8)
    }

    /// `text` without the part from `start` to the next line starting with `next` (the `[center]`
    /// section's keys, a table of their own: CenterConfigTests checks them).
    private static func without(_ text: String, from start: String, to next: String) -> String {
        guard let from = text.range(of: start) else { return text }
        let end = text[from.upperBound...].range(of: next)?.lowerBound ?? text.endIndex
        return String(text[..<from.lowerBound] + text[end...])
    }

    func testToastd5DocumentsExactlyTheTablesKeys() throws {
        let page = Self.without(try file("docs/man/toastd.5.scd"), from: "\n# CENTER\n", to: "\n# ")
        let terms = try NSRegularExpression(pattern: #"\*([a-z][a-z0-9-]*)\* ="#)
            .matches(in: page, range: NSRange(page.startIndex..., in: page))
            .map { String(page[Range($0.range(at: 1), in: page)!]) }
        XCTAssertEqual(Set(terms).subtracting(ConfigKeys.aliases.keys), Set(ConfigParser.keys),
                       "toastd(5)'s *key* = terms and the key table differ")
        for section in Urgency.allCases.map({ "[urgency=\($0.rawValue)]" }) + ["[global]"] {
            XCTAssertTrue(page.contains("*\(section)*"), "toastd(5) does not document the section \(section)")
        }
        let sections = try XCTUnwrap(page.range(of: "\n# SECTIONS\n").map { page[$0.upperBound...] })
        let sectionsPart = sections[..<(sections.range(of: "\n# ")?.lowerBound ?? sections.endIndex)]
        for key in ConfigParser.urgencyKeys {
            XCTAssertTrue(sectionsPart.contains("*\(key)*"), "toastd(5)'s SECTIONS does not list '\(key)' as per-urgency")
        }
    }

    func testConfigurationMdDocumentsExactlyTheTablesKeysWithTheirRanges() throws {
        let markdown = Self.without(try file("docs/configuration.md"), from: "\n### The notification center\n", to: "\n### ")
        for key in ConfigParser.keys {
            XCTAssertTrue(markdown.contains("| `\(key)` |"), "docs/configuration.md has no table row for '\(key)'")
        }
        for section in Urgency.allCases.map({ "[urgency=\($0.rawValue)]" }) + ["[global]"] {
            XCTAssertTrue(markdown.contains("`\(section)`"), "docs/configuration.md does not document \(section)")
        }
        // The key tables: `| key | default | [range |] what |` (the criteria and bindings have two columns).
        var rows = 0
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") && !line.hasPrefix("| `[") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            rows += 1
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let entry = try XCTUnwrap(ConfigKeys.named[name], "docs/configuration.md documents '\(name)', which the table lacks")
            guard cells.count == 4, let kind = entry.global?.kind ?? entry.section?.kind else { continue }
            if let documented = Self.rangeWords(kind) {
                XCTAssertEqual(cells[2], documented, "docs/configuration.md's range of '\(name)'")
            }
        }
        XCTAssertGreaterThan(rows, 50, "docs/configuration.md's key tables not found")
    }

    /// How docs/configuration.md's range column writes a kind; nil where it describes it in words.
    private static func rangeWords(_ kind: ValueKind) -> String? {
        switch kind {
        case .wholeNumber(let range): "\(range.lowerBound)–\(range.upperBound)"
        case .decimal(let range): "\(Int(range.lowerBound))–\(Int(range.upperBound))"
        case .timeout: "0–\(Values.maxTimeout)"
        case .colour: "colour"
        case .boolean: "boolean"
        case .choice(let words): words.map { "`\($0)`" }.joined(separator: ", ")
        default: nil
        }
    }
}

private extension DaemonConfig {
    /// The defaults with `rules`, or `from`'s global values with `rules`.
    init(withRules rules: RuleSet, from config: DaemonConfig = DaemonConfig()) {
        self = config
        self.rules = rules
    }
}
