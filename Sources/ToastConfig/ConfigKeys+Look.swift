import ToastRender
import ToastVocabulary

extension ConfigKeys {
    /// Colours, borders, sizes and fonts of toasts and the HUD, and the shadow.
    static let look: [ConfigKey] = [
        // Every urgency; an [urgency=...] section overrides one.
        ConfigKey("background", Values.colour,
                  global: .broad { $0.style.backgrounds = PerUrgency(all: $1) },
                  section: { $0.look.background = $1 },
                  perUrgency: { $0.style.backgrounds[$1] = $2 }),
        ConfigKey("text-color", Values.colour,
                  global: .specific { $0.style.summaryColor = $1; $0.style.bodyColor = $1; $0.style.actionText = $1 },
                  section: { $0.look.textColor = $1 }),
        ConfigKey("border-color", Values.colour,
                  global: .broad { $0.style.borders = PerUrgency(all: $1) },
                  section: { $0.look.borderColor = $1 },
                  perUrgency: { $0.style.borders[$1] = $2 }),
        ConfigKey("progress-color", Values.progressColour,
                  global: .broad { $0.style.accents = PerUrgency(all: $1) },
                  section: { $0.look.progressColor = $1 },
                  perUrgency: { $0.style.accents[$1] = $2 }),
        ConfigKey("border-size", Values.decimal(0...20),
                  global: .specific { $0.style.borderWidth = $1 }, section: { $0.look.borderSize = $1 }),
        ConfigKey("border-radius", Values.decimal(0...100),
                  global: .specific { $0.style.cornerRadius = $1 }, section: { $0.look.borderRadius = $1 }),
        ConfigKey("padding", Values.wholeNumber(0...200),
                  global: .specific { $0.style.padding = $1 }, section: { $0.look.padding = $1 }),
        ConfigKey("width", Values.wholeNumber(100...4000),
                  global: .specific { $0.style.width = $1 }, section: { $0.look.width = $1 }),
        // The summary in its bold, the caption smaller; the HUD's text and value too.
        ConfigKey("font", Values.font,
                  global: .broad { config, fonts in
                      config.style.font = fonts.body
                      config.style.summaryFont = fonts.bold
                      config.style.captionFont = fonts.small
                      config.style.actionFont = fonts.body
                      config.style.hudFont = fonts.body
                      config.style.hudValueFont = fonts.bold
                  },
                  section: { $0.look.font = $1 }),
        ConfigKey("gap", Values.wholeNumber(0...200), global: .specific { $0.style.gap = $1 }),
        ConfigKey("hud-width", Values.wholeNumber(100...4000), global: .specific { $0.style.hudWidth = $1 }),
        ConfigKey("hud-background", Values.colour, global: .specific { $0.style.hudBackground = $1 }),
        ConfigKey("hud-border-color", Values.colour, global: .specific { $0.style.hudBorder = $1 }),
        ConfigKey("hud-bar-color", Values.colour, global: .specific { $0.style.hudFill = $1 }),
        ConfigKey("hud-overdrive-color", Values.colour, global: .specific { $0.style.hudOverflowColor = $1 }),
        ConfigKey("hud-muted-color", Values.colour, global: .specific { $0.style.hudMutedFill = $1 }),
        // `shadow` is broad, so that its colour and radius apply to it wherever they are written.
        ConfigKey("shadow", Values.choice([("none", ToastStyle.Shadow?.none), ("soft", ToastStyle.Shadow())], listed: .alternatives),
                  global: .broad { $0.style.shadow = $1 }),
        ConfigKey("shadow-color", Values.colour, global: .specific { $0.style.shadow?.color = $1 }),
        ConfigKey("shadow-radius", Values.wholeNumber(0...48), global: .specific { $0.style.shadow?.radius = $1 }),
    ]
}
