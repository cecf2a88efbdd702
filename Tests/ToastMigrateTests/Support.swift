@testable import ToastConfig
@testable import ToastMigrate
import ToastVocabulary
import XCTest

/// One converted dunstrc, read back by toastd's own parser.
struct Converted {
    var result: DunstMigration.Result
    var parsed: ParsedConfig

    var text: String { result.text }

    /// The settings in file order, with the toastd header they are under ("" at the top).
    var settings: [(header: String, key: String, value: String)] {
        var header = ""
        var out: [(String, String, String)] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") { header = String(line); continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            out.append((header, String(line[..<equals].dropLast()), String(line[line.index(equals, offsetBy: 2)...])))
        }
        return out
    }

    /// The value of `key` under `header`, the last one written (toastd's later line wins).
    func value(_ key: String, in header: String = "") -> String? {
        settings.last { $0.header == header && $0.key == key }?.value
    }

    /// The headers written, in order.
    var headers: [String] { text.split(separator: "\n").filter { $0.hasPrefix("[") }.map(String.init) }

    /// The comment about dunstrc line `line`: the line as written, then the reason's lines joined by
    /// blanks (as they were before wrapping).
    func note(line: Int) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0.hasPrefix("# line \(line): ") }) else { return nil }
        let reason = lines[(index + 1)...].prefix { $0.hasPrefix("#   ") }.map { $0.dropFirst(4) }
        return lines[index] + "\n" + reason.joined(separator: " ")
    }
}

extension XCTestCase {
    /// Converts `dunstrc` and checks that toastd's parser takes the result with no warning.
    func convert(_ dunstrc: String, file: StaticString = #filePath, line: UInt = #line) throws -> Converted {
        try convert(Array(dunstrc.utf8), file: file, line: line)
    }

    func convert(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> Converted {
        let result = try DunstMigration.convert(bytes, source: "dunstrc").get()
        let parsed = ConfigParser.parse(result.text, path: "converted")
        XCTAssertEqual(parsed.diagnostics.map(\.description), [], "toastd refuses lines of:\n\(result.text)", file: file, line: line)
        XCTAssertEqual(parsed.warningCount, 0, file: file, line: line)
        XCTAssertFalse(parsed.fileRejected, file: file, line: line)
        return Converted(result: result, parsed: parsed)
    }
}

/// A notification to match the converted rules against, as toastd matches when it arrives.
func subject(app: String = "app", summary: String = "summary", body: String = "body", icon: String = "",
             urgency: Urgency = .normal, category: String? = nil, desktopEntry: String? = nil) -> CriteriaSubject {
    CriteriaSubject(appName: app, appIcon: icon, summary: summary, body: body, urgency: urgency, category: category,
                    desktopEntry: desktopEntry)
}

extension Converted {
    /// The converted rules `subject` matches (index in the file's rules).
    func rulesMatching(_ subject: CriteriaSubject) -> [Rule] {
        parsed.config.rules.rules.filter { $0.criteria.matches(subject) }
    }
}
