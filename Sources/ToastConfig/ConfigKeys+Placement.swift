extension ConfigKeys {
    /// Where toasts and the HUD go: anchor, margins, output, layer, how many, under fullscreen windows.
    static let placement: [ConfigKey] = [
        ConfigKey("anchor", Values.choice(of: ScreenAnchor.self, listed: .oneOf),
                  global: .specific { $0.anchor = $1 }, section: { $0.stack.anchor = $1 }),
        ConfigKey("output", Values.output, global: .specific { $0.output = $1 }, section: { $0.stack.output = $1 }),
        // Overlay or top: mako's bottom and background would hide toasts under windows.
        ConfigKey("layer", Values.choice(of: StackLayer.self, listed: .alternatives),
                  global: .specific { $0.layer = $1 }, section: { $0.stack.layer = $1 }),
        ConfigKey("max-visible", Values.wholeNumber(1...100),
                  global: .specific { $0.style.maxVisible = $1 }, section: { $0.stack.maxVisible = $1 }),
        ConfigKey("fullscreen", Values.choice(of: FullscreenPolicy.self, listed: .alternatives),
                  global: .specific { $0.fullscreen = $1 }, section: { $0.stack.fullscreen = $1 }),
        ConfigKey("margin", Values.margins, global: .specific { $0.margins = $1 }),
        ConfigKey("hud-anchor", Values.choice(of: ScreenAnchor.self, listed: .oneOf), global: .specific { $0.hudAnchor = $1 }),
        ConfigKey("hud-margin", Values.margins, global: .specific { $0.hudMargins = $1 }),
        ConfigKey("hud-output", Values.output, global: .specific { $0.hudOutput = $1 }),
    ]
}
