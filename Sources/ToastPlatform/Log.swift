import Glibc

/// The daemon's log: one line per event on stderr (fd 2), which journald or the terminal keeps.
///
/// Messages quote what clients sent (app names, paths, commands): control characters in them are
/// escaped (`\n`, `\x1b`), so a client's text can neither start a line that looks like toastd's own
/// ("toastd: ready") nor send escape sequences to the terminal that shows the log.
package enum Log {
    package static func info(_ message: String) { write("toastd: \(escaped(message))\n") }
    package static func warning(_ message: String) { write("toastd: warning: \(escaped(message))\n") }
    package static func error(_ message: String) { write("toastd: error: \(escaped(message))\n") }

    /// `message` with C0 controls (but tab), DEL and C1 controls written as escapes; a backslash
    /// stays as it is (a log is read by people, not parsed back).
    package static func escaped(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: needsEscape) else { return message }
        var out = ""
        out.reserveCapacity(message.utf8.count + 8)
        for scalar in message.unicodeScalars {
            guard needsEscape(scalar) else { out.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                let hex = String(scalar.value, radix: 16)
                out += scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }

    private static func write(_ line: String) {
        var line = line
        line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
