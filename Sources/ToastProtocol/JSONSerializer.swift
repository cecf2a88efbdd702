import ToastVocabulary

extension JSONValue {
    /// Compact one-line JSON text. Control characters, `"`, `\`, U+2028 and U+2029 are escaped, so the
    /// result never contains a raw newline and can be framed as one protocol line. NaN and infinities,
    /// which JSON cannot express, are written as `null`.
    public func encoded() -> String {
        String(decoding: encodedBytes(), as: UTF8.self)
    }

    /// `encoded()` as its UTF-8 bytes, for a caller that writes bytes anyway.
    public func encodedBytes() -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out)
        return out
    }

    /// Appends the compact encoding of this value to `out`, as UTF-8. Bytes, not a String: appending to
    /// a String cost ~350 instructions a call, and a string's text scalar by scalar ~450 a character,
    /// which made the history file (written whole ~1 s after toasts close) 4.2M instructions for 50 records.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): out += String(i).utf8
        case .double(let d):
            // Swift prints the shortest text that round-trips ("0.1", "1e-05", "5.0"): valid JSON.
            out += (d.isFinite ? d.description : "null").utf8
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // What needs escaping is ASCII, or U+2028/U+2029 (E2 80 A8/A9): everything between is copied as
        // one run.
        var s = s
        s.withUTF8 { bytes in
            var run = 0  // the first byte not written yet
            var i = 0
            while i < bytes.count {
                var next = i + 1
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
                // The rest of a three-byte sequence is there: a String is valid UTF-8.
                case 0xE2 where bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    escape = unicodeEscape(bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029)
                    next = i + 3
                default: escape = nil
                }
                if let escape {
                    out += bytes[run..<i]
                    out += escape.utf8
                    run = next
                }
                i = next
            }
            out += bytes[run...]
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `\uXXXX`, lower-case hex.
    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
