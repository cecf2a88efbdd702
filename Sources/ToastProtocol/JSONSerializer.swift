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
        var s = s
        s.withUTF8 { bytes in
            // Most strings need no escape: copied whole.
            guard let firstEscape = bytes.firstIndex(where: needsEscape) else {
                out += bytes
                return
            }
            out += bytes[..<firstEscape]
            // The rest written through a pointer into memory reserved for the worst case (every byte six):
            // a body of 16 KiB of control characters, a thousand of them in a `history` reply, took
            // seconds appended byte by byte in a debug build.
            let rest = UnsafeBufferPointer(rebasing: bytes[firstEscape...])
            out += [UInt8](unsafeUninitializedCapacity: rest.count * 6) { buffer, count in
                count = escape(rest, into: buffer.baseAddress!)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `byte` starts something JSON text must not hold raw: ASCII controls, `"`, `\`, DEL, and the
    /// first byte of U+2028/U+2029 (E2; checked in full by `escape`).
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xE2
    }

    /// Writes `bytes` (valid UTF-8) escaped to `out`, which has room for six bytes per byte; returns the
    /// count written.
    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let hex: StaticString = "0123456789abcdef"
        let digits = hex.utf8Start
        var o = 0, i = 0
        let count = bytes.count
        let input = bytes.baseAddress!
        while i < count {
            let byte = input[i]
            i += 1
            var short: UInt8 = 0  // the letter of a two-byte escape
            var code: UInt16 = 0  // the value of a \u escape
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
            case UInt8(ascii: "\n"): short = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): short = UInt8(ascii: "r")
            case UInt8(ascii: "\t"): short = UInt8(ascii: "t")
            case 0x08: short = UInt8(ascii: "b")
            case 0x0C: short = UInt8(ascii: "f")
            case 0x00...0x1F, 0x7F: code = UInt16(byte)
            // The rest of a three-byte sequence is there: a String is valid UTF-8.
            case 0xE2 where input[i] == 0x80 && (input[i + 1] == 0xA8 || input[i + 1] == 0xA9):
                code = input[i + 1] == 0xA8 ? 0x2028 : 0x2029
                i += 2
            default:
                out[o] = byte
                o += 1
                continue
            }
            out[o] = UInt8(ascii: "\\")
            if short != 0 {
                out[o + 1] = short
                o += 2
            } else {
                out[o + 1] = UInt8(ascii: "u")
                out[o + 2] = digits[Int(code >> 12)]
                out[o + 3] = digits[Int(code >> 8 & 0xF)]
                out[o + 4] = digits[Int(code >> 4 & 0xF)]
                out[o + 5] = digits[Int(code & 0xF)]
                o += 6
            }
        }
        return o
    }
}
