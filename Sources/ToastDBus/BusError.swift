/// Why the bus front door failed, or why a call was refused.
///
/// Every case carries enough to log one clear line (`description`).
public enum BusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No session bus could be reached (no `DBUS_SESSION_BUS_ADDRESS` and no `$XDG_RUNTIME_DIR/bus`,
    /// or the connect failed). `errno` is the positive error number from sd-bus.
    case noSessionBus(errno: Int32)
    /// Another connection owns `org.freedesktop.Notifications` and we did not (or could not) replace it.
    case nameTaken(NameOwner)
    /// An sd-bus call failed; `call` names it, `errno` is positive.
    case sdBus(call: String, errno: Int32)
    /// The bus connection is gone (the bus daemon exited or closed us).
    case disconnected
    /// A method call was refused by the delegate; sent to the caller as a D-Bus error
    /// (`name` defaults to `org.freedesktop.DBus.Error.Failed`).
    case refused(message: String, name: String = BusErrorName.failed)

    public var description: String {
        switch self {
        case .noSessionBus(let e):
            return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset or unreachable): \(errnoText(e))"
        case .nameTaken(let owner):
            var who = "\(owner.uniqueName)"
            if let pid = owner.pid { who += ", pid \(pid)" }
            if let cmd = owner.command { who += ", \(cmd)" }
            let stop = owner.stopAdvice
            if owner.allowsReplacement == false {
                return "\(NotificationsBus.busName) is already owned by \(who), which does not allow replacement: "
                    + "stop it first (\(stop)), then start toastd"
            }
            return "\(NotificationsBus.busName) is already owned by \(who); stop it (\(stop)) or take it over "
                + "with toastd --replace"
        case .sdBus(let call, let e):
            return "\(call) failed: \(errnoText(e))"
        case .disconnected:
            return "D-Bus connection closed"
        case .refused(let message, let name):
            return "\(name): \(message)"
        }
    }
}

/// Who owns a bus name, as far as the bus and /proc tell.
public struct NameOwner: Equatable, Sendable {
    /// Unique connection name, e.g. `:1.42`.
    public var uniqueName: String
    /// From `org.freedesktop.DBus.GetConnectionUnixProcessID`; nil if the bus would not say.
    public var pid: Int32?
    /// `/proc/PID/cmdline` (arguments joined by spaces), else `/proc/PID/comm`.
    public var command: String?
    /// The process's name, `/proc/PID/comm` (`mako`, `dunst`): what `killall` and its unit go by.
    public var processName: String?
    /// False when our replace request was refused (the owner did not allow replacement); nil when unknown.
    public var allowsReplacement: Bool?

    public init(uniqueName: String, pid: Int32?, command: String?, processName: String? = nil,
                allowsReplacement: Bool? = nil) {
        self.uniqueName = uniqueName
        self.pid = pid
        self.command = command
        self.processName = processName
        self.allowsReplacement = allowsReplacement
    }

    /// The commands that stop this owner. mako and dunst, the usual ones, run as a systemd user unit
    /// of their process's name or straight from the compositor's config; their ctl tools cannot stop them.
    public var stopAdvice: String {
        guard let name = processName, !name.isEmpty else { return pid.map { "kill \($0)" } ?? "its own way" }
        return "`systemctl --user stop \(name)` if systemd runs it, else `killall \(name)`"
    }
}

/// D-Bus error names we send.
public enum BusErrorName {
    public static let failed = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
}
