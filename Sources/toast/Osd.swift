import ArgumentParser
import ToastProtocol

/// `toast osd TARGET [ACTION]`: toastd changes the level itself (the sound server's volume, a
/// backlight) and shows the bar with the value read back, as SwayOSD does.
struct Osd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osd",
        abstract: "Change the volume, microphone or brightness and show it; show a lock key; control the media player.",
        discussion: """
            toast osd volume|mic up|down|+5%|-5%|set 40%|mute|unmute|toggle-mute [--sink|--source NAME] [--max 150]
            toast osd brightness up|down|+10%|-10%|set 50% [--device NAME | --leds NAME]
            toast osd capslock|numlock
            toast osd media play-pause|next|previous|stop

            Without an action the level is only shown. The value read back is printed ("55%", "55% muted", \
            "on", "off"). media controls the MPRIS player that changed state last and prints its \
            status after ("Paused"). Exit status 6: no sound server, backlight, LED or player to ask.
            """)

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("TARGET and ACTION.", valueName: "target action"))
    var words: [String] = []

    @Option(help: "The sound server's sink (volume) instead of the default one.",
            completion: .shellCommand("pactl list short sinks 2>/dev/null | cut -f2"))
    var sink: String?

    @Option(help: "The sound server's source (mic) instead of the default one.",
            completion: .shellCommand("pactl list short sources 2>/dev/null | cut -f2"))
    var source: String?

    @Option(help: "The backlight (/sys/class/backlight/NAME) instead of the first one.",
            completion: .shellCommand("ls /sys/class/backlight 2>/dev/null"))
    var device: String?

    @Option(help: "An LED device's brightness (/sys/class/leds/NAME, a keyboard backlight).",
            completion: .shellCommand("ls /sys/class/leds 2>/dev/null"))
    var leds: String?

    @Option(help: "The highest volume a step or set reaches, in percent (default: volume-max).")
    var max: Int?

    var request: Request {
        get throws { .osd(try argument(Self.parse(words, sink: sink, source: source, device: device, leds: leds, max: max))) }
    }

    mutating func validate() throws { _ = try request }

    func run() throws {
        let request = try request
        try reportingFailures { () throws(ClientFailure) in
            let payload = try Connection().call(request)
            if case .playback(let status) = payload { return Output.line(status) }
            guard case .level(let level) = payload, case .osd(let params) = request else { return }
            let isLock = params.target == .capslock || params.target == .numlock
            Output.line(isLock ? (level.muted ? "off" : "on") : "\(level.value)%\(level.muted ? " muted" : "")")
        }
    }

    /// The words after `osd` (TARGET, then an action) as a request.
    static func parse(_ words: [String], sink: String? = nil, source: String? = nil, device: String? = nil,
                      leds: String? = nil, max: Int? = nil) -> Result<OsdParams, ProtocolError> {
        func usage(_ text: String) -> Result<OsdParams, ProtocolError> { .failure(ProtocolError(.outOfRange, text)) }
        guard let first = words.first else { return usage("missing TARGET: one of \(targets)") }
        guard let target = OsdTarget(rawValue: first) else { return usage("unknown TARGET '\(first)': one of \(targets)") }
        let rest = Array(words.dropFirst())
        let action: OsdAction
        let actionWords = "up, down, +N%, -N%, set N%, mute, unmute, toggle-mute"
        switch (rest.first, rest.count) {
        case (nil, _): action = .show
        case ("up", 1): action = .up
        case ("down", 1): action = .down
        case ("mute", 1): action = .mute
        case ("unmute", 1): action = .unmute
        case ("toggle-mute", 1): action = .toggleMute
        case ("play-pause", 1): action = .playPause
        case ("next", 1): action = .next
        case ("previous", 1): action = .previous
        case ("stop", 1): action = .stop
        case ("set", 2):
            guard let percent = HudStreamLine.percent(Substring(rest[1])), OsdParams.percentRange.contains(percent) else {
                return usage("set needs a percentage in \(OsdParams.percentRange), like 40%, not '\(rest[1])'")
            }
            action = .set(percent)
        case (let step?, 1) where step.first == "+" || step.first == "-":
            guard let points = HudStreamLine.percent(Substring(step.dropFirst())),
                  (0...OsdParams.percentRange.upperBound).contains(points) else {
                return usage("a step is +N% or -N%, not '\(step)'")
            }
            action = .by(step.first == "-" ? -points : points)
        default:
            return usage("unknown action '\(rest.joined(separator: " "))': \(actionWords)")
        }
        if sink != nil && target != .volume { return usage("--sink applies to volume only") }
        if source != nil && target != .mic { return usage("--source applies to mic only") }
        if device != nil && target != .brightness { return usage("--device applies to brightness only") }
        if let max, !OsdParams.percentRange.contains(max) { return usage("--max must be in \(OsdParams.percentRange)") }
        let params = OsdParams(target: target, action: action, device: sink ?? source ?? device, leds: leds, max: max)
        if let problem = params.problem { return usage(problem) }
        return .success(params)
    }

    private static let targets = OsdTarget.allCases.map(\.rawValue).joined(separator: ", ")
}
