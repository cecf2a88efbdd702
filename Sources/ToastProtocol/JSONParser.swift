import ToastVocabulary

/// A strict JSON parser (RFC 8259) over raw bytes.
///
/// It rejects invalid UTF-8 (including overlong forms and encoded surrogates), raw control characters
/// in strings, bad escapes, lone surrogate escapes, duplicate object keys, leading zeros, trailing
/// commas, trailing garbage after the value, and nesting deeper than `ProtocolLimits.maxDepth`.
/// Errors are `ProtocolError`s with code `invalid_utf8` or `invalid_json` and the byte offset in the
/// message.
public enum JSONParser {
    /// Parses exactly one JSON value (surrounded by optional whitespace) from `bytes`.
    public static func parse(_ bytes: [UInt8]) -> Result<JSONValue, ProtocolError> {
        bytes.withUnsafeBufferPointer { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Parses exactly one JSON value from `buffer` (valid only for the duration of the call).
    public static func parse(_ buffer: UnsafeRawBufferPointer) -> Result<JSONValue, ProtocolError> {
        do throws(ProtocolError) {
            return .success(try value(buffer))
        } catch {
            return .failure(error)
        }
    }

    /// `parse`, throwing. The CLI reads its reply through this: a `Result` of a value would need its
    /// type metadata made at run time to be destroyed, and with it a walk of every conformance record
    /// of the binary (`ProtocolError: Error`), at every start.
    public static func value(_ bytes: [UInt8]) throws(ProtocolError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(ProtocolError) in try value(UnsafeRawBufferPointer(buffer)) }
    }

    /// `parse`, throwing, from `buffer` (valid only for the duration of the call).
    public static func value(_ buffer: UnsafeRawBufferPointer) throws(ProtocolError) -> JSONValue {
        if let bad = UTF8Validator.firstInvalidOffset(buffer) {
            throw ProtocolError(.invalidUTF8, "invalid UTF-8 at byte \(bad)")
        }
        var reader = Reader(bytes: buffer)
        reader.skipWhitespace()
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        if reader.position != buffer.count {
            throw reader.error("unexpected data after the JSON value")
        }
        return value
    }

    /// Parses a string as JSON (convenience for tests and tools).
    public static func parse(_ text: String) -> Result<JSONValue, ProtocolError> {
        parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func error(_ what: String) -> ProtocolError {
        ProtocolError(.invalidJSON, "invalid JSON at byte \(position): \(what)")
    }

    var atEnd: Bool { position >= bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipWhitespace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { position += 1 }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(ProtocolError) {
        guard peek == byte else { throw error(atEnd ? "unexpected end, expected \(what)" : "expected \(what)") }
        position += 1
    }

    mutating func parseValue(depth: Int) throws(ProtocolError) -> JSONValue {
        guard let b = peek else { throw error("unexpected end, expected a value") }
        switch b {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character, expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(ProtocolError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw error("truncated literal") }
        for i in 0..<count where bytes[position + i] != word.utf8Start[i] {
            throw error("invalid literal")
        }
        position += count
    }

    mutating func parseObject(depth: Int) throws(ProtocolError) -> JSONValue {
        guard depth <= ProtocolLimits.maxDepth else {
            throw error("nesting deeper than \(ProtocolLimits.maxDepth)")
        }
        position += 1  // {
        var object = JSONObject()
        var seen = KeySet()
        skipWhitespace()
        if peek == UInt8(ascii: "}") { position += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                throw error(atEnd ? "unexpected end, expected a key" : "expected a string key")
            }
            let keyStart = position
            let key = try parseString()
            if !seen.insert(key) {
                position = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            object.appendNew(key, try parseValue(depth: depth))
            skipWhitespace()
            if peek == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return .object(object)
        }
    }

    mutating func parseArray(depth: Int) throws(ProtocolError) -> JSONValue {
        guard depth <= ProtocolLimits.maxDepth else {
            throw error("nesting deeper than \(ProtocolLimits.maxDepth)")
        }
        position += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if peek == UInt8(ascii: "]") { position += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            if peek == UInt8(ascii: ",") { position += 1; continue }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(items)
        }
    }

    /// Runs of bytes that need nothing done (neither a quote, a backslash nor a control character)
    /// are taken whole: byte by byte, a string cost ~50 instructions a byte, and a history file of
    /// long bodies read back at start ~24M instructions.
    mutating func parseString() throws(ProtocolError) -> String {
        position += 1  // opening quote
        var out: [UInt8] = []
        while true {
            let run = position
            position = plainRunEnd(from: run)
            guard position < bytes.count else { throw error("unterminated string") }
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                let plain = UnsafeRawBufferPointer(rebasing: bytes[run..<position])
                position += 1
                // The whole buffer was validated as UTF-8 and escapes produce valid scalars.
                guard !out.isEmpty else { return String(decoding: plain, as: UTF8.self) }
                out.append(contentsOf: plain)
                return String(decoding: out, as: UTF8.self)
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<position]))
            guard b == UInt8(ascii: "\\") else { throw error("raw control character in string") }
            position += 1
            try parseEscape(into: &out)
        }
    }

    /// Where the run of bytes a string holds as they are (neither a quote, a backslash nor a control
    /// character) that starts at `start` ends. Scanned with a local index: through `position`, a
    /// stored property, each byte cost a load and a store more.
    private func plainRunEnd(from start: Int) -> Int {
        var end = start
        let count = bytes.count
        while end < count {
            let b = bytes[end]
            if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { break }
            end += 1
        }
        return end
    }

    mutating func parseEscape(into out: inout [UInt8]) throws(ProtocolError) {
        guard let e = peek else { throw error("unterminated escape") }
        position += 1
        switch e {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800...0xDBFF).contains(code) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                      bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("lone surrogate \\u\(String(code, radix: 16))")
                }
                position += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("lone surrogate \\u\(String(code, radix: 16))")
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw error("lone surrogate \\u\(String(code, radix: 16))")
            }
            // Safe: surrogates were excluded above and the range is at most 0x10FFFF.
            out.append(contentsOf: UTF8.encode(Unicode.Scalar(code)!)!)
        default:
            position -= 1
            throw error("invalid escape")
        }
    }

    mutating func hex4() throws(ProtocolError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[position]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    mutating func parseNumber() throws(ProtocolError) -> JSONValue {
        let start = position
        var isInteger = true
        if peek == UInt8(ascii: "-") { position += 1 }
        guard let first = peek, isDigit(first) else { throw error("expected a digit") }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = peek, isDigit(next) { throw error("leading zero in number") }
        } else {
            skipDigits()
        }
        if peek == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let d = peek, isDigit(d) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard let d = peek, isDigit(d) else { throw error("expected a digit in exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else {
            position = start
            throw error("number out of range")
        }
        return .double(d)
    }

    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    mutating func skipDigits() {
        while let b = peek, isDigit(b) { position += 1 }
    }
}

/// Strict UTF-8 validation (Unicode 15, table 3-7): no overlong forms, no encoded surrogates, nothing
/// above U+10FFFF, no truncated sequences.
public enum UTF8Validator {
    /// The offset of the first byte of the first invalid sequence, or nil if `bytes` is valid UTF-8.
    public static func firstInvalidOffset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF  // allowed range of the second byte
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard n - i >= length else { return i }
            let b1 = bytes[i + 1]
            guard b1 >= low && b1 <= high else { return i }
            for k in 2..<max(length, 2) where bytes[i + k] & 0xC0 != 0x80 {
                return i
            }
            i += length
        }
        return nil
    }
}
