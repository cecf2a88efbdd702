import ToastVocabulary

extension JSONValue {
    /// Compact one-line JSON text. Control characters, `"`, `\`, U+2028 and U+2029 are escaped, so the
    /// result never contains a raw newline and can be framed as one protocol line. NaN and infinities,
    /// which JSON cannot express, are written as `null`.
    public func encoded() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the compact encoding of this value to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite {
                // Swift prints the shortest text that round-trips ("0.1", "1e-05", "5.0"): valid JSON.
                out += d.description
            } else {
                out += "null"
            }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // What needs escaping is ASCII, or U+2028/U+2029 (E2 80 A8/A9): everything between is copied as
        // one run. Appending scalar by scalar cost ~450 instructions a character, and the history file,
        // written whole after toasts close, is mostly such text (4M instructions for 50 records).
        let bytes = s.utf8
        var run = bytes.startIndex  // the first byte not written yet
        var i = bytes.startIndex
        while i != bytes.endIndex {
            var next = bytes.index(after: i)
            let escape: String?
            switch bytes[i] {
            case UInt8(ascii: "\""): escape = "\\\""
            case UInt8(ascii: "\\"): escape = "\\\\"
            case UInt8(ascii: "\n"): escape = "\\n"
            case UInt8(ascii: "\r"): escape = "\\r"
            case UInt8(ascii: "\t"): escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x00...0x1F, 0x7F: escape = unicodeEscape(UInt32(bytes[i]))
            case 0xE2:
                // The rest of a three-byte sequence is there: the string is valid UTF-8.
                let third = bytes.index(after: next)
                if bytes[next] == 0x80, bytes[third] == 0xA8 || bytes[third] == 0xA9 {
                    escape = unicodeEscape(bytes[third] == 0xA8 ? 0x2028 : 0x2029)
                    next = bytes.index(after: third)
                } else {
                    escape = nil
                }
            default: escape = nil
            }
            if let escape {
                out += Substring(bytes[run..<i])
                out += escape
                run = next
            }
            i = next
        }
        out += Substring(bytes[run..<bytes.endIndex])
        out += "\""
    }

    /// `\uXXXX`, lower-case hex.
    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
