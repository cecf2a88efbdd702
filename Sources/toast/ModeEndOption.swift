import ArgumentParser
import Glibc
import ToastProtocol

/// `--for DURATION` / `--until HH:MM` on `toast dnd on` and `toast mode -a`: when the mode ends by
/// itself, as wall-clock seconds since the epoch for the daemon.
struct ModeEndOptions: ParsableArguments {
    @Option(name: .customLong("for"), help: ArgumentHelp("End it after this long: 30m, 2h, 1h30m, 45s.", valueName: "duration"))
    var duration: String?

    @Option(help: ArgumentHelp("End it at the next such time of day (local): 09:00.", valueName: "HH:MM"))
    var until: String?

    var isGiven: Bool { duration != nil || until != nil }

    func validate() throws {
        if duration != nil && until != nil { throw ValidationError("give --for or --until, not both") }
        if let duration, ModeEndText.seconds(duration) == nil {
            throw ValidationError("--for takes \(ModeEndText.forHelp), not '\(duration.prefix(40))'")
        }
        if let until, ModeEndText.clockTime(until) == nil {
            throw ValidationError("--until takes \(ModeEndText.untilHelp), not '\(until.prefix(40))'")
        }
    }

    /// The end, in wall-clock seconds since the epoch; nil when neither option is given.
    func end() -> Int64? {
        let now = Int64(time(nil))
        if let duration, let seconds = ModeEndText.seconds(duration) { return now + seconds }
        guard let until, let (hour, minute) = ModeEndText.clockTime(until) else { return nil }
        var clock = time_t(now)
        var parts = tm()
        localtime_r(&clock, &parts)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = 0
        parts.tm_isdst = -1
        var end = Int64(mktime(&parts))
        if end <= now {
            // Tomorrow's, by the calendar: a day is not always 86400 s (daylight saving time).
            localtime_r(&clock, &parts)
            parts.tm_mday += 1
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = 0
            parts.tm_isdst = -1
            end = Int64(mktime(&parts))
        }
        return end
    }
}

/// A wall-clock end as a person reads it: `09:00`, `09:00:05` when seconds matter, with the date
/// when it is not within a day.
func localTimeText(_ epochSeconds: Int64) -> String {
    var clock = time_t(epochSeconds)
    var parts = tm()
    localtime_r(&clock, &parts)
    let withinDay = epochSeconds - Int64(time(nil)) < 86_400
    let format = (withinDay ? "" : "%Y-%m-%d ") + (parts.tm_sec == 0 ? "%H:%M" : "%H:%M:%S")
    var buffer = [CChar](repeating: 0, count: 64)
    let length = strftime(&buffer, buffer.count, format, &parts)
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
