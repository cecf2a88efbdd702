/// What `osd` changes and shows: the sound server's default output or input, a backlight, a lock
/// key's state, or the media player that changed state last.
public enum OsdTarget: String, CaseIterable, Equatable, Sendable {
    case volume, mic, brightness, capslock, numlock, media

    /// A level of the sound server (volume, mic): these take mute changes and `max`.
    public var isSound: Bool { self == .volume || self == .mic }
}

/// What `osd` does to its target's level.
public enum OsdAction: Equatable, Sendable {
    /// Nothing: show the level (the only action of the lock keys).
    case show
    /// One configured step (`volume-step`, `brightness-step`) up or down.
    case up, down
    /// Up (positive) or down by this many points: `+5%`, `-5%`.
    case by(Int)
    /// To this percentage: `set 40%`.
    case set(Int)
    /// The sound targets' mute.
    case mute, unmute, toggleMute
    /// The media player's (MPRIS) commands.
    case playPause, next, previous, stop

    /// A media player's command, not a level's change.
    public var isMedia: Bool { [.playPause, .next, .previous, .stop].contains(self) }

    /// The wire name (`"action"` member).
    public var name: String {
        switch self {
        case .show: "show"
        case .up: "up"
        case .down: "down"
        case .by: "by"
        case .set: "set"
        case .mute: "mute"
        case .unmute: "unmute"
        case .toggleMute: "toggle_mute"
        case .playPause: "play_pause"
        case .next: "next"
        case .previous: "previous"
        case .stop: "stop"
        }
    }

    /// The number it carries (`"value"` member), if any.
    var value: Int? {
        switch self {
        case .by(let points): points
        case .set(let percent): percent
        default: nil
        }
    }

    static let names = ["show", "up", "down", "by", "set", "mute", "unmute", "toggle_mute", "play_pause", "next",
                        "previous", "stop"]
}

/// An `osd` request: change a device's level (or only read it) and show the bar with what it holds after.
public struct OsdParams: Equatable, Sendable {
    public var target: OsdTarget
    public var action: OsdAction
    /// Which device: a sink or source name of the sound server, or a `backlight` device (nil: the
    /// default sink or source, or the first backlight).
    public var device: String?
    /// `brightness` of an LED device (`/sys/class/leds/NAME`, a keyboard backlight) instead of a backlight.
    public var leds: String?
    /// The highest volume a step or `set` reaches, in percent (nil: `volume-max`).
    public var max: Int?

    public init(target: OsdTarget, action: OsdAction, device: String? = nil, leds: String? = nil, max: Int? = nil) {
        self.target = target
        self.action = action
        self.device = device
        self.leds = leds
        self.max = max
    }

    /// The percentages a level takes (`set`, `max`), as the HUD draws them (above 100: amplified).
    public static let percentRange = HudParams.valueRange

    /// Why the request cannot apply to its target, if it cannot.
    public var problem: String? {
        if (target == .media) != action.isMedia {
            return target == .media ? "media takes play_pause, next, previous or stop" : "\(action.name) is for media only"
        }
        switch (target, action) {
        case (.capslock, .show), (.numlock, .show), (.media, _): break
        case (.capslock, _), (.numlock, _): return "\(target.rawValue) only shows its state (action \"show\")"
        case (.brightness, .mute), (.brightness, .unmute), (.brightness, .toggleMute):
            return "brightness has no mute"
        default: break
        }
        if leds != nil && target != .brightness { return "\"leds\" applies to brightness only" }
        if device != nil && target == .media { return "\"device\" does not apply to media" }
        if leds != nil && device != nil { return "give \"device\" or \"leds\", not both" }
        if max != nil && !target.isSound { return "\"max\" applies to volume and mic only" }
        return nil
    }

    func encode(into o: inout JSONObject) {
        o["target"] = .string(target.rawValue)
        o["action"] = .string(action.name)
        o.set("value", action.value.map { .int(Int64($0)) })
        o.set("device", device.map { .string($0) })
        o.set("leds", leds.map { .string($0) })
        o.set("max", max.map { .int(Int64($0)) })
    }

    static func decode(_ r: inout FieldReader) throws(ProtocolError) -> OsdParams {
        guard let target = try r.enumeration("target", OsdTarget.self) else { throw r.missing("target") }
        let actionName = try r.requiredString("action")
        let range = Int64(percentRange.lowerBound)...Int64(percentRange.upperBound)
        let action: OsdAction
        switch actionName {
        case "show": action = .show
        case "up": action = .up
        case "down": action = .down
        case "by":
            guard let points = try r.int("value", in: -range.upperBound...range.upperBound) else { throw r.missing("value") }
            action = .by(Int(points))
        case "set":
            guard let percent = try r.int("value", in: range) else { throw r.missing("value") }
            action = .set(Int(percent))
        case "mute": action = .mute
        case "unmute": action = .unmute
        case "toggle_mute": action = .toggleMute
        case "play_pause": action = .playPause
        case "next": action = .next
        case "previous": action = .previous
        case "stop": action = .stop
        default:
            throw r.outOfRange("action", "must be one of \(OsdAction.names.joined(separator: ", ")), not \"\(actionName.prefix(40))\"")
        }
        if action.value == nil && r.has("value") { throw r.outOfRange("value", "is only given with \"by\" and \"set\"") }
        let params = OsdParams(target: target, action: action, device: try r.name("device"), leds: try r.name("leds"),
                               max: try r.int("max", in: range).map { Int($0) })
        if let problem = params.problem { throw ProtocolError(.conflictingFields, problem) }
        return params
    }
}

/// What `osd` reports: the level after the change, as the bar shows it.
public struct LevelInfo: Equatable, Sendable {
    /// Percent (a lock key: 100 on, 0 off).
    public var value: Int
    /// Muted (a lock key: off).
    public var muted: Bool

    public init(value: Int, muted: Bool) {
        self.value = value
        self.muted = muted
    }

    var json: JSONValue { .object(JSONObject([("value", .int(Int64(value))), ("muted", .bool(muted))])) }

    static func decode(_ r: inout FieldReader) throws(ProtocolError) -> LevelInfo {
        LevelInfo(value: Int(try r.requiredInt("value", in: 0...Int64(Int32.max))), muted: try r.bool("muted") ?? false)
    }
}
