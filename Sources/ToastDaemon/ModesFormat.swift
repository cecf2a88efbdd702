/// The modes file's text: the modes turned on for a while and when each ends, so that do-not-disturb
/// until 09:00 is still on (and still ends) after a restart. A first line names the format; then one
/// `NAME END` a line, END in wall-clock milliseconds since the epoch. Lines that do not read are
/// skipped: a damaged file loses a mode, never the daemon.
enum ModesFormat {
    static let header = "toastd-modes 1"
    /// A file larger than this is not ours.
    static let maxBytes = 64 << 10

    static func encode(_ modes: [TimedMode]) -> [UInt8] {
        Array((([header] + modes.map { "\($0.name) \($0.end)" }).joined(separator: "\n") + "\n").utf8)
    }

    static func decode(_ bytes: [UInt8]) -> [TimedMode] {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard lines.first == Substring(header) else { return [] }
        return lines.dropFirst().compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let end = Int64(parts[1]) else { return nil }
            return TimedMode(name: String(parts[0]), end: end)
        }
    }
}
