extension ConfigKeys {
    /// What notifications do on arrival and on a click, sounds, animations, the history file.
    static let behaviour: [ConfigKey] = [
        ConfigKey("sound", Values.sound, global: nil, section: { $0.behaviour.sound = .some($1) }),
        ConfigKey("on-notify", Values.binding, global: nil, section: { $0.behaviour.onNotify = $1 }),
        ConfigKey("on-button-left", Values.binding, global: nil, section: { $0.behaviour.onButtonLeft = $1 }),
        ConfigKey("on-button-right", Values.binding, global: nil, section: { $0.behaviour.onButtonRight = $1 }),
        ConfigKey("on-button-middle", Values.binding, global: nil, section: { $0.behaviour.onButtonMiddle = $1 }),
        ConfigKey("sound-command", Values.command, global: .specific { $0.soundCommand = $1 }),
        ConfigKey("animations", Values.boolean, global: .specific { $0.animations = $1 }),
        ConfigKey("clickable-actions", Values.boolean, global: .specific { $0.clickableActions = $1 }),
        ConfigKey("accessibility", Values.choice(of: AccessibilityMode.self, listed: .oneOf),
                  global: .specific { $0.accessibility = $1 }),
        ConfigKey("a11y-hud-interval", Values.seconds(0...60), global: .specific { $0.accessibleHudInterval = $1 }),
        ConfigKey("persistent-history", Values.boolean, global: .specific { $0.persistentHistory = $1 }),
    ]
}
