import ToastCore
import ToastVocabulary

/// The keys of time that respects the person: `idle-threshold`, `dnd-allows`, `flood-limit`,
/// `flood-window`. Each value is read by its own function; `ConfigParser.setting` hands them here.
package enum TimeSettings {
    package static let keys = ["idle-threshold", "dnd-allows", "flood-limit", "flood-window"]

    /// How `key = value` changes the configuration; a bad value is a message for a diagnostic.
    package static func setting(key: String, value: String) throws(ConfigParser.SettingError) -> (inout DaemonConfig) -> Void {
        switch key {
        case "idle-threshold":
            let ms = try seconds(key, value, in: 0...86_400)
            return { $0.idleThreshold = ms }
        case "dnd-allows":
            let critical = try dndAllows(value)
            return { $0.notifications.dndAllowsCritical = critical }
        case "flood-limit":
            guard let limit = Int(value), (0...10_000).contains(limit) else {
                throw .init("'flood-limit' must be a whole number from 0 (off) to 10000, not '\(value.prefix(40))'")
            }
            return { $0.notifications.floodLimit = limit }
        default:  // flood-window
            let ms = try seconds(key, value, in: 0.001...60)
            return { $0.notifications.floodWindow = ms }
        }
    }

    /// Seconds, whole or with a fraction ("120", "0.5"), within `range`, as milliseconds.
    static func seconds(_ key: String, _ value: String, in range: ClosedRange<Double>) throws(ConfigParser.SettingError) -> Milliseconds {
        guard value.utf8.count <= 20, value.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (48...57).contains($0) }),
              let seconds = Double(value), range.contains(seconds) else {
            throw .init("'\(key)' must be seconds from \(format(range.lowerBound)) to \(format(range.upperBound)), not '\(value.prefix(40))'")
        }
        return Milliseconds((seconds * 1000).rounded())
    }

    /// `critical` (the default: critical notifications show through do-not-disturb) or `none`.
    static func dndAllows(_ value: String) throws(ConfigParser.SettingError) -> Bool {
        switch value.lowercased() {
        case "critical": true
        case "none": false
        default: throw .init("'dnd-allows' must be critical or none, not '\(value.prefix(40))'")
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
