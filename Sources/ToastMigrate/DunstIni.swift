/// A dunstrc read the way dunst's own ini reader (src/ini.c) reads it, with the line each entry came
/// from, so that what cannot be carried over can be named by its line.
///
/// dunst's dialect: a line is stripped of blanks; `#` or `;` first makes it a comment; `[name]` opens a
/// section (what follows the first `]` is ignored); otherwise `key = value`, split at the first `=`
/// after the key's first character. A value may hold a quoted part, which must be closed; after it
/// (or from the value's start when there is none), `#` or `;` starts a comment. One pair of quotes
/// around the whole value is removed. Sections of the same name are one section, in the place of the
/// first, and a key given twice in it means its first value (dunst looks keys up from the top).
struct DunstFile: Equatable {
    struct Entry: Equatable {
        var line: Int
        var key: String
        var value: String
        /// The line as written, blanks trimmed, for comments.
        var text: String
    }

    /// A line dunst skips (and warns about): kept to be printed as a comment.
    struct Unreadable: Equatable {
        var line: Int
        var text: String
        var reason: String
    }

    struct Section: Equatable {
        var name: String
        /// The line of its first header.
        var line: Int
        var entries: [Entry] = []
        /// Lines of this section dunst skips, and later values of a key already given.
        var unreadable: [Unreadable] = []

        /// The first entry with `key`, which is the one dunst uses.
        func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }
    }

    /// Sections in the order of their first header.
    var sections: [Section] = []
    /// Lines before any section header: dunst ignores them.
    var outside: [Unreadable] = []

    func section(_ name: String) -> Section? { sections.first { $0.name == name } }
}

/// Why a dunstrc could not be read at all.
public struct MigrationError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    init(_ message: String) { self.message = message }
}

enum DunstIniReader {
    /// Reads `bytes`. A NUL byte makes the whole file unreadable: it is no text file, and toastd's
    /// configuration must never carry one.
    static func read(_ bytes: [UInt8]) -> Result<DunstFile, MigrationError> {
        if let nul = bytes.firstIndex(of: 0) {
            return .failure(MigrationError("not a text file (NUL byte at offset \(nul))"))
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var file = DunstFile()
        var current: Int?  // index into file.sections
        var lineNumber = 0
        for raw in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            func skip(_ text: String, _ reason: String) {
                let unreadable = DunstFile.Unreadable(line: lineNumber, text: text, reason: reason)
                if let current { file.sections[current].unreadable.append(unreadable) } else { file.outside.append(unreadable) }
            }
            guard let decoded = String(validating: raw, as: UTF8.self) else {
                skip(Text.printable(String(decoding: raw, as: UTF8.self)), "not valid UTF-8")
                continue
            }
            let line = Text.stripped(decoded[...])
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard let close = line.dropFirst().firstIndex(of: "]") else {
                    skip(String(line), "a section header without its ']' (dunst skips this line)")
                    continue
                }
                let name = String(line[line.index(after: line.startIndex)..<close])
                if let index = file.sections.firstIndex(where: { $0.name == name }) {
                    current = index
                } else {
                    file.sections.append(DunstFile.Section(name: name, line: lineNumber))
                    current = file.sections.count - 1
                }
                continue
            }
            guard let equals = line.dropFirst().firstIndex(of: "=") else {
                skip(String(line), "no '=' (dunst skips this line)")
                continue
            }
            let key = String(Text.stripped(line[..<equals]))
            guard let value = value(of: Text.stripped(line[line.index(after: equals)...])) else {
                skip(String(line), "a quote is not closed (dunst skips this line)")
                continue
            }
            guard let current else {
                skip(String(line), "before any section (dunst ignores it)")
                continue
            }
            let entry = DunstFile.Entry(line: lineNumber, key: key, value: value, text: String(line))
            if let first = file.sections[current].entry(key) {
                file.sections[current].unreadable.append(DunstFile.Unreadable(
                    line: lineNumber, text: entry.text,
                    reason: "'\(key)' is already set in [\(file.sections[current].name)] at line \(first.line), and dunst uses the first"))
            } else {
                file.sections[current].entries.append(entry)
            }
        }
        return .success(file)
    }

    /// The value as dunst keeps it: up to a comment outside quotes, blanks trimmed, one pair of quotes
    /// around it removed. Nil when a quote is left open.
    static func value(of text: Substring) -> String? {
        var end = text.startIndex  // where a comment may start
        if let quote = text.firstIndex(of: "\"") {
            guard let closing = text[text.index(after: quote)...].firstIndex(of: "\"") else { return nil }
            end = closing
        }
        let comment = text[end...].firstIndex { $0 == "#" || $0 == ";" }
        var value = Text.stripped(text[..<(comment ?? text.endIndex)])
        if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
        return String(value)
    }
}
