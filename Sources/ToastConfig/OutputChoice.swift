/// Which output a stack (or the HUD) shows on (`output`, `hud-output`, `toastd --output`).
package enum OutputChoice: Hashable, Sendable {
    /// No output named: the compositor picks (with no foreign-toplevel, the only way to follow focus).
    case compositor
    /// The output of the activated window, chosen when a toast arrives (`FocusTracker`).
    case focused
    /// Every output, one surface each.
    case all
    /// The output of this name (the compositor's choice while it is absent).
    case named(String)

    /// What a configured value means. nil or `focused` is `focused` where the compositor tells the
    /// focus (foreign-toplevel), else the compositor's choice; `all`; anything else is a name.
    package init(configured value: String?, focusKnown: Bool) {
        switch value {
        case nil, "focused": self = focusKnown ? .focused : .compositor
        case "all": self = .all
        case let name?: self = .named(name)
        }
    }

    /// The value as written in the configuration.
    package var configValue: String {
        switch self {
        case .compositor: "compositor"
        case .focused: "focused"
        case .all: "all"
        case .named(let name): name
        }
    }
}

/// Which layer-shell layer a stack's surfaces are on (`layer`): `overlay` is above fullscreen windows,
/// `top` below them.
package enum StackLayer: String, CaseIterable, Hashable, Sendable {
    case overlay
    case top
}

/// What toasts do while the focused output shows a fullscreen window (`fullscreen`).
package enum FullscreenPolicy: String, CaseIterable, Hashable, Sendable {
    /// Shown as ever (the overlay promise).
    case show
    /// Low and normal toasts wait until the window leaves fullscreen or loses the focus; critical
    /// ones still show.
    case hideLow = "hide-low"
    /// Every toast waits, critical ones too (otherwise it would be `hide-low` by another name).
    case hide

    /// Whether a toast (critical or not) waits while a fullscreen window has the focus.
    package func holds(critical: Bool) -> Bool {
        switch self {
        case .show: false
        case .hideLow: !critical
        case .hide: true
        }
    }
}

/// One toast stack: separate stacks are separate layer surfaces (as mako's per-criteria `anchor`,
/// `output` and `layer`).
package struct StackKey: Hashable, Sendable {
    package var output: OutputChoice
    package var anchor: ScreenAnchor
    package var layer: StackLayer

    package init(output: OutputChoice, anchor: ScreenAnchor, layer: StackLayer) {
        self.output = output
        self.anchor = anchor
        self.layer = layer
    }
}

/// Where one toast is drawn, decided once when it arrives so that it never jumps: its stack, and for
/// a `focused` stack the name of the output that had the focus then.
package struct StackPlace: Hashable, Sendable {
    package var key: StackKey
    /// The output chosen at arrival (`focused` stacks); nil for the others.
    package var output: String?

    package init(key: StackKey, output: String? = nil) {
        self.key = key
        self.output = output
    }
}

/// What the rules and the global keys decide about one toast's placement.
package struct ToastPlacement: Equatable, Sendable {
    package var place: StackPlace
    /// The stack's `max-visible` (nil: the global one).
    package var maxVisible: Int?
    package var fullscreen: FullscreenPolicy = .show

    package init(place: StackPlace, maxVisible: Int? = nil, fullscreen: FullscreenPolicy = .show) {
        self.place = place
        self.maxVisible = maxVisible
        self.fullscreen = fullscreen
    }
}
