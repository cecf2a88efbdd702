import ToastVocabulary
import ToastCore
import ToastRender

/// Everything the configuration file sets (docs/configuration.md). The defaults are what toastd does
/// with no file at all.
public struct DaemonConfig: Equatable, Sendable {
    /// Timeouts and history size of notifications.
    public var notifications = NotificationConfig()
    /// Value bar timeout and loading grace.
    public var hud = HUDConfig()
    /// Colours, fonts and sizes of toasts and HUDs.
    public var style = ToastStyle()
    /// Where the toast stack sits; it grows away from this edge.
    public var anchor = ScreenAnchor.topRight
    public var margins = Margins(all: 12)
    /// mako's `outer-margin`: added to `margins` (mako keeps it apart from the margin around each toast).
    public var outerMargins = Margins(all: 0)
    /// The order of a stack's toasts (mako's `sort`).
    package var sort = ToastSort.default
    /// Where the HUD (value bar, spinner) sits.
    public var hudAnchor = ScreenAnchor.bottomCenter
    public var hudMargins = Margins(all: 64)
    /// Fades and the turning spinner; `--no-animations` wins over the file.
    public var animations = true
    /// Toasts take clicks (a pill its action, the rest of a toast its default action or a dismissal);
    /// off, every click passes through. `--clickable-actions` turns it on whatever the file says.
    public var clickableActions = false
    /// The history outlives the daemon: kept in `$XDG_STATE_HOME/toastd/history` (`HistoryFile`),
    /// read back at start. Off, nothing is read or written.
    public var persistentHistory = true
    /// Screen readers hear toasts (`accessibility`): `auto` exposes them over AT-SPI while assistive
    /// technology is on (docs/accessibility.md); `off` never looks.
    package var accessibility = AccessibilityMode.auto
    /// The HUD bar's value is told to screen readers at most once in this long (`a11y-hud-interval`,
    /// seconds in the file); the last value set is always told. 0: every value.
    package var accessibleHudInterval: Milliseconds = 1000
    /// After this long without input (the compositor's idle notification), timeouts stop until the
    /// seat is active again (`idle-threshold`, in seconds in the file); 0 turns it off.
    public var idleThreshold: Milliseconds = 120_000
    /// The command that plays a sound, the file appended as its last argument (`sound-command`). nil:
    /// the first of pw-play, paplay, canberra-gtk-play found on PATH; empty: no sounds.
    public var soundCommand: [String]?
    /// Output to show toasts on: `focused`, `all` or a name (`--output` wins over the file); nil:
    /// `focused` where the compositor tells the focus (foreign-toplevel), else its own choice.
    public var output: String?
    /// Output to show the HUD on, the same values; nil: as `output`.
    public var hudOutput: String?
    /// Layer of the toast stacks (`layer`): `overlay`, above fullscreen windows, unless `top`.
    package var layer = StackLayer.overlay
    /// What toasts do while a fullscreen window has the focus (`fullscreen`).
    package var fullscreen = FullscreenPolicy.show
    /// The notification center's look and side (`[center]`).
    public var center = CenterConfig()
    /// The criteria sections, in file order (docs/configuration.md); none by default.
    package var rules = RuleSet()
    /// Icon theme searched first (`icon-theme`); nil: GTK's `gtk-icon-theme-name`, else hicolor.
    public var iconTheme: String?
    /// Directories searched for icons before any theme (`icon-path`, colon-separated, as mako's).
    public var iconPaths: [String] = []
    /// `toast osd`'s steps and ceiling, and `hud-follow-volume`.
    package var osd = OsdConfig()

    public init() {}
}

/// One problem found in a configuration file; `description` is `path:line: message` (or `path: message`
/// for the whole file), the form editors and compilers use.
public struct ConfigDiagnostic: Equatable, Sendable, CustomStringConvertible {
    public var path: String
    /// 1-based line number; nil when the whole file is concerned.
    public var line: Int?
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path; self.line = line; self.message = message
    }

    public var description: String {
        if let line { "\(path):\(line): \(message)" } else { "\(path): \(message)" }
    }
}

/// Whether toasts are exposed to assistive technology (`accessibility`).
package enum AccessibilityMode: String, CaseIterable, Sendable {
    /// While `org.a11y.Status` says assistive technology is on.
    case auto
    /// Never: toastd does not ask.
    case off
}
