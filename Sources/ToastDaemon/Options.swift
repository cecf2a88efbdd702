/// Command-line options of `toastd`. Parsed by hand: the daemon's start-to-ready time is benchmarked,
/// and a handful of flags do not need a parser library.
public struct DaemonOptions: Equatable, Sendable {
    /// Take org.freedesktop.Notifications and the control socket over from a running daemon.
    public var replace = false
    /// Draw every change at once, no fades, slides or turning spinner frames beyond the first.
    public var animations = true
    /// Toasts take clicks (a pill its action, the rest of a toast its default action or a dismissal); the file's
    /// `clickable-actions` can turn it on too.
    public var clickableActions = false
    /// Control socket path; nil means `$TOASTD_SOCKET` or `$XDG_RUNTIME_DIR/toastd.sock`.
    public var socketPath: String?
    /// Serve only the control socket, never the session bus.
    public var dbus = true
    /// Where toasts show: `focused`, `all` or an output's name (e.g. "HEADLESS-2"); nil: the file's `output`.
    public var output: String?
    /// Configuration file; nil means `$XDG_CONFIG_HOME/toastd/config` (docs/configuration.md).
    public var configPath: String?
    /// Load a configuration file that another user or the group could write (refused otherwise).
    public var allowWritableConfig = false

    public init() {}

    public static let usage = """
        usage: toastd [options]

        Wayland toast and HUD daemon: shows notifications, value bars and spinners in overlay
        layer surfaces that never take a click or a key. Logs to stderr.

        options:
          --config PATH      configuration file (default: $XDG_CONFIG_HOME/toastd/config,
                             else ~/.config/toastd/config); SIGHUP reloads it
          --allow-writable-config
                             load the configuration file even if others than its owner
                             may write it (refused otherwise: its exec lines run as you)
          --check-config [PATH]
                             check the configuration file (default: as --config) and print
                             each problem as path:line: message; exit 0 if there is none
          --replace          take org.freedesktop.Notifications and the control socket over
                             from the toastd that owns them (it exits)
          --no-animations    no fades, slides or spinning; every change is drawn at once
                             (wins over 'animations = true' in the file)
          --clickable-actions
                             toasts take clicks: a button its action, the rest of a toast
                             its default action, else a dismissal; as 'clickable-actions = true'
          --no-dbus          serve the control socket only
          --socket PATH      control socket (default: $TOASTD_SOCKET or $XDG_RUNTIME_DIR/toastd.sock)
          --output NAME      where toasts show: focused, all or an output's name (default:
                             the file's 'output', else focused where the compositor
                             tells the focus, else the compositor's choice)
          -h, --help         show this help
          -V, --version      show the version
        """

    /// What the command line asks for.
    public enum Parsed: Equatable, Sendable {
        case run(DaemonOptions)
        /// Check a configuration file and exit; nil: the file the daemon would read.
        case checkConfig(String?)
        case help
        case version
    }

    /// Parses `arguments` (without the program name); an unknown flag is an error with a message.
    public static func parse(_ arguments: [String]) -> Result<Parsed, OptionsError> {
        var options = DaemonOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": return .success(.help)
            case "-V", "--version": return .success(.version)
            case "--check-config":
                // The path is optional: whatever follows that is not a flag is it.
                if let path = rest.first, !path.hasPrefix("-") { rest = rest.dropFirst(); options.configPath = path }
                return .success(.checkConfig(options.configPath))
            case "--replace": options.replace = true
            case "--allow-writable-config": options.allowWritableConfig = true
            case "--no-animations": options.animations = false
            case "--no-dbus": options.dbus = false
            case "--clickable-actions": options.clickableActions = true
            case "--socket", "--output", "--config":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    return .failure(OptionsError(message: "\(argument) needs a value"))
                }
                switch argument {
                case "--socket": options.socketPath = value
                case "--output": options.output = value
                default: options.configPath = value
                }
            default:
                return .failure(OptionsError(message: "unknown option '\(argument)' (see toastd --help)"))
            }
        }
        return .success(.run(options))
    }
}

/// A command line `toastd` does not understand.
public struct OptionsError: Error, Equatable, Sendable {
    public let message: String
}
