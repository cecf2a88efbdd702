import ToastProtocol
import ToastVocabulary

/// One-line calls for Swift programs, over toastd's control socket (each opens a connection, asks, and
/// hangs up):
///
/// ```swift
/// import ToastClient
///
/// try Toast.show("Saved")
/// try Toast.show("Build failed", body: "3 errors", urgency: .critical)
/// try Toast.hud(.volume, 40)
/// let spinner = try Loading.start("sync", label: "Syncing")
/// defer { spinner.stop() }
/// ```
public enum Toast {
    /// Shows a toast and returns its id. `timeoutMilliseconds`: nil the daemon's default, 0 never.
    /// `appName`: nil the program's name (`programName`), as notify-send's is its own.
    @discardableResult
    public static func show(_ summary: String, body: String? = nil, urgency: Urgency? = nil,
                            timeoutMilliseconds: Int32? = nil, icon: String? = nil, appName: String? = nil,
                            tag: String? = nil, value: Int? = nil) throws(ToastClientError) -> NotificationID {
        var params = NotifyParams(summary: summary, body: body, urgency: urgency)
        params.expireMs = timeoutMilliseconds ?? -1
        params.icon = icon
        params.appName = appName ?? programName
        params.tag = tag
        params.value = value
        guard case .id(let id) = try ToastConnection().call(.notify(params)) else {
            throw ToastClientError(.connection, "toastd's notify reply carries no id")
        }
        return id
    }

    /// The running program's name (the last part of its `argv[0]`): the app name a toast goes by when
    /// the caller names none, so that rules and history tell apps apart.
    public static var programName: String? {
        guard let first = CommandLine.arguments.first, let name = first.split(separator: "/").last, !name.isEmpty else {
            return nil
        }
        return String(name)
    }

    /// Shows or updates the value bar of `kind` at `value` percent (0–200; above 100 is overdrive).
    public static func hud(_ kind: HudKind, _ value: Int, muted: Bool = false, label: String? = nil,
                           icon: String? = nil) throws(ToastClientError) {
        let clamped = min(max(value, HudParams.valueRange.lowerBound), HudParams.valueRange.upperBound)
        try ToastConnection().call(.hud(HudParams(kind: kind.rawValue, value: clamped, muted: muted, label: label, icon: icon)))
    }

    /// Closes a toast, as the user would.
    public static func dismiss(_ id: NotificationID) throws(ToastClientError) {
        try ToastConnection().call(.dismiss(.ids([id])))
    }
}

/// The urgency of a toast (`.low`, `.normal`, `.critical`), without importing ToastVocabulary.
public typealias Urgency = ToastVocabulary.Urgency
/// A toast's id, as `Toast.show` returns it.
public typealias NotificationID = ToastVocabulary.NotificationID

/// What a HUD bar shows; one bar per kind, updated in place. Any name works: `HudKind("fan")`.
public struct HudKind: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { rawValue = name }
    public init(stringLiteral name: String) { rawValue = name }

    public static let volume = HudKind("volume")
    public static let brightness = HudKind("brightness")
    public static let mic = HudKind("mic")
}

/// A loading spinner held by this process: it shows from `start` until `stop`, and if the process
/// ends without stopping it, toastd stops it after its loading grace (the connection that started it
/// is gone).
public final class Loading {
    public let key: String
    private var connection: ToastConnection?

    private init(key: String, connection: ToastConnection) {
        self.key = key
        self.connection = connection
    }

    /// Starts (or joins) the spinner named `key`.
    public static func start(_ key: String, label: String? = nil) throws(ToastClientError) -> Loading {
        let connection = try ToastConnection()
        try connection.call(.loadingStart(key: key, label: label, detach: false))
        return Loading(key: key, connection: connection)
    }

    /// Stops the spinner now. Calling it again does nothing; a toastd that went away is no error.
    public func stop() {
        guard let connection else { return }
        self.connection = nil
        _ = try? connection.call(.loadingStop(key: key))
        connection.close()
    }

    deinit { stop() }
}

/// An alert: one call that asks, from anywhere, with a dialog centred above every window that takes the
/// keyboard until answered (`toast alert`):
///
/// ```swift
/// if try Alert.ask("Deploy?", actions: [("yes", "Yes"), ("no", "No")]) == "yes" { deploy() }
/// ```
public enum Alert {
    /// Shows the alert and waits for the answer: the chosen action's key, or nil when the user pressed
    /// Escape or `timeoutSeconds` passed. Without actions the dialog has one button, `ok`.
    public static func ask(_ title: String, body: String? = nil, actions: [(key: String, label: String)] = [],
                           timeoutSeconds: Int32? = nil) throws(ToastClientError) -> String? {
        let buttons = actions.isEmpty ? [NotificationAction(key: "ok", label: "OK")]
                                      : actions.map { NotificationAction(key: $0.key, label: $0.label) }
        var params = NotifyParams(summary: title, body: body, urgency: .critical,
                                  expireMs: timeoutSeconds.map { $0 * 1000 } ?? 0, actions: buttons, wait: true)
        params.alert = true
        let connection = try ToastConnection()
        defer { connection.close() }
        guard case .id(let id) = try connection.call(.notify(params)) else {
            throw ToastClientError(.connection, "toastd's notify reply carries no id")
        }
        while let event = try connection.nextEvent() {
            guard event.id == id else { continue }
            switch event {
            case .action(_, let key): return key
            case .closed: return nil
            default: continue
            }
        }
        throw ToastClientError(.connection, "toastd hung up before the alert was answered")
    }
}
