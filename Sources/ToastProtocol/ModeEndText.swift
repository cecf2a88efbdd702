/// How a person writes when a mode ends: `--for 30m`, `--for 1h30m`, `--for 2h`, `--for 45s`;
/// `--until 09:00` (the next 09:00, local time). Pure: the local clock is the caller's.
public enum ModeEndText {
    /// The longest `--for`: a week. Longer is a mistake, not a plan.
    public static let maxDuration: Int64 = 7 * 86_400

    /// Seconds in `text`: numbers each followed by `d`, `h`, `m` or `s` (`1h30m`); nil when it does not read.
    public static func seconds(_ text: String) -> Int64? {
        var total: Int64 = 0, number: Int64?, units = 0
        for byte in text.utf8 {
            if (48...57).contains(byte) {
                let digit = Int64(byte - 48)
                guard (number ?? 0) < 1_000_000 else { return nil }
                number = (number ?? 0) * 10 + digit
                continue
            }
            let unit: Int64
            switch byte {
            case UInt8(ascii: "d"): unit = 86_400
            case UInt8(ascii: "h"): unit = 3_600
            case UInt8(ascii: "m"): unit = 60
            case UInt8(ascii: "s"): unit = 1
            default: return nil
            }
            guard let value = number else { return nil }
            total += value * unit
            number = nil
            units += 1
        }
        guard number == nil, units > 0, total > 0, total <= maxDuration else { return nil }
        return total
    }

    /// The hour and minute of `HH:MM` (24-hour, `9:00` too); nil when it does not read.
    public static func clockTime(_ text: String) -> (hour: Int, minute: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (hour, minute)
    }

    /// What `--for` and `--until` take, for messages.
    public static let forHelp = "a duration like 30m, 2h, 1h30m or 45s (at most 7d)"
    public static let untilHelp = "a time of day like 09:00 or 18:30 (the next one, local time)"
}
