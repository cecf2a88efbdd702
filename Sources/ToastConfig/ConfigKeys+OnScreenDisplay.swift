extension ConfigKeys {
    /// `toast osd`'s steps and ceiling, and what other programs' changes show (`OsdConfig`).
    static let onScreenDisplay: [ConfigKey] = [
        ConfigKey("volume-step", Values.wholeNumber(1...100), global: .specific { $0.osd.volumeStep = $1 }),
        ConfigKey("volume-max", Values.wholeNumber(1...200), global: .specific { $0.osd.volumeMax = $1 }),
        ConfigKey("brightness-step", Values.wholeNumber(1...100), global: .specific { $0.osd.brightnessStep = $1 }),
        ConfigKey("hud-follow-volume", Values.boolean, global: .specific { $0.osd.followVolume = $1 }),
        ConfigKey("mpris", Values.boolean, global: .specific { $0.osd.mediaToasts = $1 }),
    ]
}
