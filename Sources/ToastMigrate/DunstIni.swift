import Glibc

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
        private(set) var entries: [Entry] = []
        /// Lines of this section dunst skips, and later values of a key already given.
        var unreadable: [Unreadable] = []
        /// Where each key's entry is in `entries` (a file of 100,000 keys must not take quadratic time).
        private var positions: [String: Int] = [:]

        init(name: String, line: Int) {
            self.name = name; self.line = line
        }

        /// The first entry with `key`, which is the one dunst uses.
        func entry(_ key: String) -> Entry? { positions[key].map { entries[$0] } }

        /// Adds `entry`, whose key is new here.
        mutating func add(_ entry: Entry) {
            positions[entry.key] = entries.count
            entries.append(entry)
        }
    }

    /// Sections in the order of their first header.
    private(set) var sections: [Section] = []
    private var positions: [String: Int] = [:]
    /// Lines before any section header: dunst ignores them.
    var outside: [Unreadable] = []

    func section(_ name: String) -> Section? { positions[name].map { sections[$0] } }

    /// The index of the section `name`, made at `line` when it is the first header of that name.
    mutating func open(_ name: String, line: Int) -> Int {
        if let index = positions[name] { return index }
        positions[name] = sections.count
        sections.append(Section(name: name, line: line))
        return sections.count - 1
    }

    /// The section being read: the last header's.
    var current: Int?
    /// Lines dunst skips beyond `DunstIniReader.maxUnreadable`: counted, not kept.
    var unlisted = 0
    private var unreadableCount = 0

    /// Adds a line of the current section, whose key is new there.
    mutating func add(_ entry: Entry) {
        guard let current else { return }
        sections[current].add(entry)
    }

    /// Whether another line dunst skips is kept (else it is only counted in `unlisted`).
    var keepsUnreadable: Bool { unreadableCount < DunstIniReader.maxUnreadable }

    /// Keeps a line dunst skips, in the current section (or before any).
    mutating func skip(_ unreadable: Unreadable) {
        unreadableCount += 1
        if let current { sections[current].unreadable.append(unreadable) } else { outside.append(unreadable) }
    }
}

/// Why a dunstrc could not be read at all.
public struct MigrationError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    init(_ message: String) { self.message = message }
}

enum DunstIniReader {
    /// Lines dunst skips that are kept to be named; the others are only counted (a file of a million
    /// bad lines must not make a million comments, nor hold them).
    static let maxUnreadable = 1000

    /// Reads `bytes`. A NUL byte makes the whole file unreadable: it is no text file, and toastd's
    /// configuration must never carry one. Lines are found with `memchr` and taken apart as bytes (every
    /// byte dunst looks for is ASCII); only the parts kept become strings.
    static func read(_ bytes: [UInt8]) -> Result<DunstFile, MigrationError> {
        bytes.withUnsafeBufferPointer { buffer in
            if let nul = find(0, in: buffer, 0..<buffer.count) {
                return .failure(MigrationError("not a text file (NUL byte at offset \(nul))"))
            }
            var file = DunstFile()
            var start = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var lineNumber = 0
            while start <= buffer.count {
                let end = find(0x0A, in: buffer, start..<buffer.count) ?? buffer.count
                lineNumber += 1
                readLine(UnsafeBufferPointer(rebasing: buffer[start..<end]), number: lineNumber, into: &file)
                start = end + 1
            }
            return .success(file)
        }
    }

    private static func readLine(_ raw: UnsafeBufferPointer<UInt8>, number: Int, into file: inout DunstFile) {
        let line = stripped(raw, 0..<raw.count)
        func skip(_ reason: @autoclosure () -> String) {
            guard file.keepsUnreadable else { file.unlisted += 1; return }
            file.skip(DunstFile.Unreadable(line: number, text: string(raw, line), reason: reason()))
        }
        guard !line.isEmpty, raw[line.lowerBound] != UInt8(ascii: "#"), raw[line.lowerBound] != UInt8(ascii: ";") else { return }
        guard String(validating: UnsafeBufferPointer(rebasing: raw[line]), as: UTF8.self) != nil else {
            return skip("not valid UTF-8")
        }
        if raw[line.lowerBound] == UInt8(ascii: "[") {
            guard let close = find(UInt8(ascii: "]"), in: raw, (line.lowerBound + 1)..<line.upperBound) else {
                return skip("a section header without its ']' (dunst skips this line)")
            }
            file.current = file.open(string(raw, (line.lowerBound + 1)..<close), line: number)
            return
        }
        guard let equals = find(UInt8(ascii: "="), in: raw, (line.lowerBound + 1)..<line.upperBound) else {
            return skip("no '=' (dunst skips this line)")
        }
        guard let value = value(in: raw, stripped(raw, (equals + 1)..<line.upperBound)) else {
            return skip("a quote is not closed (dunst skips this line)")
        }
        guard let current = file.current else { return skip("before any section (dunst ignores it)") }
        let key = string(raw, stripped(raw, line.lowerBound..<equals))
        if let first = file.sections[current].entry(key) {
            return skip("'\(key)' is already set in [\(file.sections[current].name)] at line \(first.line), and dunst uses the first")
        }
        file.add(DunstFile.Entry(line: number, key: key, value: string(raw, value), text: string(raw, line)))
    }

    /// The value as dunst keeps it: up to a comment outside quotes, blanks trimmed, one pair of quotes
    /// around it removed. Nil when a quote is left open.
    private static func value(in raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int>? {
        let quoteByte = UInt8(ascii: "\"")
        var from = range.lowerBound  // where a comment may start
        if let quote = find(quoteByte, in: raw, range) {
            guard let closing = find(quoteByte, in: raw, (quote + 1)..<range.upperBound) else { return nil }
            from = closing
        }
        let hash = find(UInt8(ascii: "#"), in: raw, from..<range.upperBound) ?? range.upperBound
        let semicolon = find(UInt8(ascii: ";"), in: raw, from..<range.upperBound) ?? range.upperBound
        var value = stripped(raw, range.lowerBound..<min(hash, semicolon))
        if value.count >= 2, raw[value.lowerBound] == quoteByte, raw[value.upperBound - 1] == quoteByte {
            value = (value.lowerBound + 1)..<(value.upperBound - 1)
        }
        return value
    }

    /// `range` without what `g_strstrip` removes: blanks, tabs, line breaks, vertical tabs, form feeds.
    private static func stripped(_ raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        func blank(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, blank(raw[lower]) { lower += 1 }
        while upper > lower, blank(raw[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The first `byte` in `range`, found by the C library (a 10 MB file is not walked byte by byte in
    /// Swift, which is slow in a debug build).
    private static func find(_ byte: UInt8, in raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard let base = raw.baseAddress, !range.isEmpty else { return nil }
        guard let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private static func string(_ raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: raw[range]), as: UTF8.self)
    }
}
