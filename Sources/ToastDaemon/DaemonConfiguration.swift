import Glibc
import ToastConfig
import ToastCore
import ToastDBus
import ToastPlatform
import ToastRender
import ToastScene
import ToastVocabulary

extension Daemon {
    /// The configuration in `path` at start (defaults where it says nothing or something wrong).
    static func loadConfig(_ path: String, options: DaemonOptions) -> DaemonConfig {
        let loaded = ConfigFile.load(path, explicit: options.configPath != nil, allowWritable: options.allowWritableConfig)
        if loaded.found { Log.info("config \(path) (\(loaded.warnings.count) warnings)") }
        return loaded.parsed?.config ?? DaemonConfig()
    }

    /// The largest output scale: what pictures and the prewarm are made for.
    var largestScale: PixelScale { PixelScale(wayland.outputs.map(\.scale).max() ?? 1) }

    /// SIGHUP and `toast reload`: reads the configuration file again and applies it. Look, placement and
    /// output apply at once (the overlays are remade); timeouts and history apply to what comes next. An
    /// unusable file (unreadable, binary) changes nothing; bad lines are skipped as at startup.
    /// Returns the problems found, one `path:line: message` each, for `toast reload` to print.
    @discardableResult
    func reloadConfig() -> [String] {
        guard let configPath else {
            Log.info("config reloaded (no configuration file: neither XDG_CONFIG_HOME nor HOME is set)")
            return []
        }
        let loaded = ConfigFile.load(configPath, explicit: options.configPath != nil, allowWritable: options.allowWritableConfig)
        guard let parsed = loaded.parsed else {
            Log.warning("config not reloaded; keeping the one in use")
            return loaded.warnings + ["config not reloaded; keeping the one in use"]
        }
        apply(parsed.config)
        Log.info("config reloaded (\(loaded.warnings.count) warnings)")
        return loaded.warnings
    }

    func apply(_ new: DaemonConfig) {
        let old = config
        config = new
        service.reconfigure(notifications: new.notifications, hud: new.hud)
        if new.persistentHistory != old.persistentHistory { keepHistory() }
        if new.soundCommand != old.soundCommand {
            soundPlayer.reconfigure(configured: new.soundCommand, environment: Environment.variable)
            offerSound()
        }
        // Always anew: a reload also drops the icon cache, so newly installed icons are found.
        service.replaceIcons(Self.iconTheme(new))
        let animations = options.animations && new.animations
        screen.clickableActions = options.clickableActions || new.clickableActions
        if animations != animator.animationsEnabled {
            animator = Animator(animations: animations)
            placeToasts()
        }
        service.rules = new.rules
        animator.restyle(rules: new.rules, style: new.style)
        if new.style != old.style {
            renderer = ToastRenderer(style: new.style)
            renderer.prewarm(scale: largestScale)
        }
        if new.style != old.style || new.anchor != old.anchor || new.margins != old.margins
            || new.hudAnchor != old.hudAnchor || new.hudMargins != old.hudMargins || new.output != old.output
            || new.hudOutput != old.hudOutput || new.layer != old.layer || new.fullscreen != old.fullscreen
            || new.rules != old.rules {
            // Every toast is placed again by the new keys (the stacks are made anew).
            animator.forgetPlaces()
            screen.reconfigure(renderer: renderer, hudOutput: hudOutput(new), defaultStack: stackDefaults(new).key,
                               toasts: Self.toastPlacement(new), hud: Self.hudPlacement(new))
            if new.output != old.output { warnIfUnknown(output: options.output ?? new.output) }
        }
    }

    /// The global placement of toasts (`output`, `anchor`, `layer`, `fullscreen`; `--output` wins).
    func stackDefaults(_ config: DaemonConfig) -> StackDefaults {
        let focusKnown = wayland.toplevels != nil
        return StackDefaults(output: OutputChoice(configured: options.output ?? config.output, focusKnown: focusKnown),
                             anchor: config.anchor, layer: config.layer, fullscreen: config.fullscreen,
                             focusKnown: focusKnown)
    }

    /// Where the HUD shows: `hud-output`, else where toasts do.
    func hudOutput(_ config: DaemonConfig) -> OutputChoice {
        OutputChoice(configured: config.hudOutput ?? options.output ?? config.output, focusKnown: wayland.toplevels != nil)
    }

    /// Tells the animator where each arriving toast goes (the rules' stack, the focused output now),
    /// and which wait while a fullscreen window has the focus.
    func placeToasts() {
        animator.placer = { [unowned self] notification in
            self.service.rules.placement(of: notification, modes: self.service.model.modes,
                                         defaults: self.stackDefaults(self.config)) {
                self.wayland.focusedOutput?.name
            }
        }
        animator.holds = { [unowned self] notification, placement in
            guard placement.fullscreen.holds(critical: notification.urgency == .critical),
                  let fullscreen = self.wayland.fullscreenOutput else { return false }
            // A stack pinned to another output is not under the fullscreen window.
            if case .named(let name) = placement.place.key.output, self.wayland.output(named: name) != nil {
                return fullscreen.name == name
            }
            return true
        }
    }

    /// A misspelt `output` would otherwise be silently ignored (toasts go where the compositor puts
    /// them): say so, with the names there are.
    func warnIfUnknown(output name: String?) {
        guard let name, name != "focused", name != "all", wayland.output(named: name) == nil else { return }
        let known = wayland.outputs.compactMap(\.name)
        Log.warning("no output named '\(name)' (outputs: \(known.isEmpty ? "none yet" : known.joined(separator: ", "))); "
                    + "showing where the compositor chooses")
    }

    /// The icon search of `config` in this environment.
    static func iconTheme(_ config: DaemonConfig) -> IconTheme {
        IconTheme.fromEnvironment(theme: config.iconTheme, iconPaths: config.iconPaths, Environment.variable)
    }

    /// The stack's surface reaches `shadowExtent` past the toasts for their shadows: its margins are
    /// that much smaller, so the boxes stay where `margin` puts them (or as near as an edge allows).
    /// The HUD's the same.
    static func toastPlacement(_ config: DaemonConfig) -> OverlaySurface.Placement {
        let bleed = config.style.shadowExtent, m = config.margins
        return OverlaySurface.Placement(anchor: config.anchor,
                                        margins: Margins(top: max(0, m.top - bleed), right: max(0, m.right - bleed),
                                                         bottom: max(0, m.bottom - bleed), left: max(0, m.left - bleed)))
    }

    static func hudPlacement(_ config: DaemonConfig) -> OverlaySurface.Placement {
        let bleed = config.style.shadowExtent, m = config.hudMargins
        return OverlaySurface.Placement(anchor: config.hudAnchor,
                                        margins: Margins(top: max(0, m.top - bleed), right: max(0, m.right - bleed),
                                                         bottom: max(0, m.bottom - bleed), left: max(0, m.left - bleed)))
    }
}
