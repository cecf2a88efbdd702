extension ConfigKeys {
    /// Time that respects the person: idle time that does not count, what do-not-disturb lets
    /// through, and floods from one app.
    static let time: [ConfigKey] = [
        ConfigKey("idle-threshold", Values.seconds(0...86_400), global: .specific { $0.idleThreshold = $1 }),
        ConfigKey("dnd-allows", Values.choice([("critical", true), ("none", false)], listed: .alternatives),
                  global: .specific { $0.notifications.dndAllowsCritical = $1 }),
        ConfigKey("flood-limit", Values.wholeNumber(0...10_000), global: .specific { $0.notifications.floodLimit = $1 }),
        ConfigKey("flood-window", Values.seconds(0.001...60), global: .specific { $0.notifications.floodWindow = $1 }),
    ]
}
