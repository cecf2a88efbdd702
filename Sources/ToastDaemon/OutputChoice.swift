/// Which output a stack (or the HUD) shows on (`output`, `hud-output`, `toastd --output`).
enum OutputChoice: Hashable, Sendable {
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
    init(configured value: String?, focusKnown: Bool) {
        switch value {
        case nil, "focused": self = focusKnown ? .focused : .compositor
        case "all": self = .all
        case let name?: self = .named(name)
        }
    }

    /// The value as written in the configuration.
    var configValue: String {
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
enum StackLayer: String, CaseIterable, Hashable, Sendable {
    case overlay
    case top
}

/// What toasts do while the focused output shows a fullscreen window (`fullscreen`).
enum FullscreenPolicy: String, CaseIterable, Hashable, Sendable {
    /// Shown as ever (the overlay promise).
    case show
    /// Low and normal toasts wait until the window leaves fullscreen or loses the focus; critical
    /// ones still show.
    case hideLow = "hide-low"
    /// Every toast waits, critical ones too (otherwise it would be `hide-low` by another name).
    case hide

    /// Whether a toast (critical or not) waits while a fullscreen window has the focus.
    func holds(critical: Bool) -> Bool {
        switch self {
        case .show: false
        case .hideLow: !critical
        case .hide: true
        }
    }
}

/// One toast stack: separate stacks are separate layer surfaces (as mako's per-criteria `anchor`,
/// `output` and `layer`).
struct StackKey: Hashable, Sendable {
    var output: OutputChoice
    var anchor: ScreenAnchor
    var layer: StackLayer
}

/// Where one toast is drawn, decided once when it arrives so that it never jumps: its stack, and for
/// a `focused` stack the name of the output that had the focus then.
struct StackPlace: Hashable, Sendable {
    var key: StackKey
    /// The output chosen at arrival (`focused` stacks); nil for the others.
    var output: String?
}

/// What the rules and the global keys decide about one toast's placement.
struct ToastPlacement: Equatable, Sendable {
    var place: StackPlace
    /// The stack's `max-visible` (nil: the global one).
    var maxVisible: Int?
    var fullscreen: FullscreenPolicy = .show
}
