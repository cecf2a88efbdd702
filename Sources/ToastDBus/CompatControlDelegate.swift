/// A notification as mako's and dunst's controllers see it (`makoctl list`, `dunstctl history`).
public struct ControlledNotification: Sendable, Equatable {
    public var id: UInt32
    public var appName = ""
    public var appIcon = ""
    public var summary = ""
    public var body = ""
    public var category = ""
    public var desktopEntry = ""
    /// 0 low, 1 normal, 2 critical (the specification's byte).
    public var urgency: UInt8 = 1
    /// Key and title of each action, in the order the app sent them.
    public var actions: [StringPair] = []
    /// 0...100, or -1 without a value (dunst's convention).
    public var progress: Int32 = -1
    /// When it arrived, in microseconds of the monotonic clock (dunst's `timestamp`).
    public var arrivedMicroseconds: Int64 = 0
    /// The grouping tag (`x-dunst-stack-tag` and its kin), or "".
    public var tag = ""

    public init(id: UInt32) { self.id = id }
}

/// What mako's (`fr.emersion.Mako`) and dunst's (`org.dunstproject.cmd0`) control interfaces ask of
/// the daemon, so `makoctl` and `dunstctl` keep working. Calls arrive inside `NotificationsBus.process()`.
public protocol CompatControlDelegate: AnyObject {
    /// Closes (dismissed) notification `id` (nil: the newest showing), the ones drawn as one with it
    /// too with `group`; every open one with `all`.
    func controlDismiss(id: UInt32?, group: Bool, all: Bool)
    /// Invokes action `key` of `id` (nil: the newest showing); an unknown id or key does nothing, as in mako.
    func controlInvoke(id: UInt32?, key: String)
    /// Reopens history entry `id` (nil: the most recent); false when there is none.
    func controlRestore(id: UInt32?) -> Bool
    /// Forgets the history; returns how many entries it held.
    func controlClearHistory() -> UInt32
    /// The open notifications showing, newest first.
    func controlShowing() -> [ControlledNotification]
    /// Open notifications held back (do-not-disturb, `invisible`).
    func controlWaitingCount() -> UInt32
    /// The history, newest first.
    func controlHistory() -> [ControlledNotification]
    /// The modes on; `do-not-disturb` among them is dunst's `paused`.
    func controlModes() -> [String]
    /// Sets the modes on, or says why not (an invalid name).
    func controlSetModes(_ modes: [String]) -> Result<Void, BusError>
    /// Rereads the configuration; the error when it could not be read.
    func controlReload() -> Result<Void, BusError>
}
