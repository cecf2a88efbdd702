extension ConfigKeys {
    /// How long notifications, the HUD and the history last; what a rule hides or keeps.
    static let timeouts: [ConfigKey] = [
        // Low and normal; critical keeps its own unless an [urgency=critical] section says.
        ConfigKey("default-timeout", Values.timeout,
                  global: .broad { $0.notifications.defaultTimeouts.low = $1; $0.notifications.defaultTimeouts.normal = $1 },
                  section: { $0.behaviour.defaultTimeout = .some($1) },
                  perUrgency: { $0.notifications.defaultTimeouts[$1] = $2 }),
        ConfigKey("low-timeout", Values.timeout, global: .specific { $0.notifications.defaultTimeouts.low = $1 }),
        ConfigKey("normal-timeout", Values.timeout, global: .specific { $0.notifications.defaultTimeouts.normal = $1 }),
        ConfigKey("critical-timeout", Values.timeout, global: .specific { $0.notifications.defaultTimeouts.critical = $1 }),
        ConfigKey("ignore-timeout", Values.boolean, global: nil, section: { $0.behaviour.ignoreTimeout = $1 }),
        ConfigKey("invisible", Values.boolean, global: nil, section: { $0.behaviour.invisible = $1 }),
        // Globally the history's size; in a section, whether the notifications it matches go there.
        ConfigKey("history",
                  global: GlobalUse(Values.wholeNumber(0...1000), rank: .specific) { $0.notifications.historyLimit = $1 },
                  section: Use(Values.boolean) { $0.behaviour.history = $1 }),
        ConfigKey("hud-timeout", Values.milliseconds(1...600_000), global: .specific { $0.hud.barTimeout = $1 }),
        ConfigKey("loading-grace", Values.milliseconds(0...600_000), global: .specific { $0.hud.loadingGrace = $1 }),
    ]
}
