/// A device's level as the HUD shows it: percent (of the sound server's normal volume, where 100 is
/// 0 dB and above is amplified; of a backlight's maximum), and whether it is muted.
package struct DeviceLevel: Equatable, Sendable {
    package var percent: Int
    package var muted: Bool

    package init(percent: Int, muted: Bool) {
        self.percent = percent
        self.muted = muted
    }
}

/// Which device of the sound server: the default output (a sink) or the default input (a source), or
/// one named.
package struct SoundDevice: Equatable, Hashable, Sendable {
    package enum Direction: Sendable { case output, input }
    package var direction: Direction
    /// The server's name for it; nil: the server's default (`@DEFAULT_SINK@`, `@DEFAULT_SOURCE@`).
    package var name: String?

    package init(_ direction: Direction, name: String? = nil) {
        self.direction = direction
        self.name = name
    }

    /// The name the server looks it up by.
    package var serverName: String { name ?? (direction == .output ? "@DEFAULT_SINK@" : "@DEFAULT_SOURCE@") }
}

/// What a request does to a level: nothing (only show it), a step up or down in points, set it, or
/// change the mute.
package enum LevelChange: Equatable, Sendable {
    case show
    case by(Int)
    case set(Int)
    case mute, unmute, toggleMute
}

/// Volume arithmetic on the server's channel volumes (`pa_volume_t`, linear: PA_VOLUME_NORM is 100%),
/// as pactl does it: a step adds the same amount to every channel, so the balance stays.
package enum ChannelVolumes {
    /// PA_VOLUME_NORM, fixed by libpulse's ABI.
    package static let norm: UInt32 = 0x10000

    /// `volume` in percent, rounded as pactl prints it.
    package static func percent(_ volume: UInt32) -> Int {
        Int((UInt64(volume) * 100 + UInt64(norm / 2)) / UInt64(norm))
    }

    /// `percent` as a channel volume (rounded to the nearest).
    package static func volume(percent: Int) -> UInt32 {
        UInt32((Int64(max(percent, 0)) * Int64(norm) + 50) / 100)
    }

    /// The level the bar shows: the loudest channel.
    package static func percent(of channels: [UInt32]) -> Int { percent(channels.max() ?? 0) }

    /// `channels` after `change`, kept within `ceiling` percent. A step up never lowers a channel already
    /// above the ceiling (set there by another program); a step down stops at 0.
    package static func apply(_ change: LevelChange, to channels: [UInt32], ceiling: Int) -> [UInt32] {
        let top = volume(percent: ceiling)
        switch change {
        case .by(let points):
            let step = Int64(volume(percent: abs(points)))
            return channels.map { channel in
                let current = Int64(channel)
                if points >= 0 {
                    return UInt32(max(current, min(current + step, Int64(top))))
                }
                return UInt32(max(current - step, 0))
            }
        case .set(let value):
            return channels.map { _ in min(volume(percent: value), top) }
        case .show, .mute, .unmute, .toggleMute:
            return channels
        }
    }

    /// The mute after `change`, from `muted` now.
    package static func mute(after change: LevelChange, from muted: Bool) -> Bool {
        switch change {
        case .mute: true
        case .unmute: false
        case .toggleMute: !muted
        case .show, .by, .set: muted
        }
    }
}
