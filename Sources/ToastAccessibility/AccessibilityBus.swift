import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// toastd as an AT-SPI application: a second sd-bus connection, to the accessibility bus, on which
/// toastd is embedded in the registry's desktop (`org.a11y.atspi.Socket.Embed`), answers for its
/// objects (`AccessibleTree`) and sends the events screen readers speak.
///
/// Loop contract, as NotificationsBus's: watch `fd` for `epollEvents`, call `process()` when it is
/// readable, and re-read `epollEvents` after `process()` and after `show(_:)` (a queued write adds
/// EPOLLOUT).
package final class AccessibilityBus {
    /// A screen reader invoked a toast's action through its button: (toast id, action key).
    package var onAction: (UInt32, String) -> Void = { _, _ in }
    /// Whether a screen reader listens for announcements changed (`announcementsHeard`).
    package var onAnnouncementsHeard: (Bool) -> Void = { _ in }

    let bus: OpaquePointer
    /// Our unique name on the accessibility bus, the name in every reference to our objects.
    let uniqueName: String
    /// The registry's desktop, our application's parent (Embed's answer; until then the registry's
    /// root by its well-known name).
    var parent = (name: AtspiInterface.registryName, path: AccessibleTree.rootPath)
    private(set) var tree = AccessibleTree()
    /// The bar's value changes as they are told (`a11y-hud-interval`).
    private var barValues = AnnouncementThrottle<AccessibleTree.Bar>(interval: 1000)
    private var slots: [OpaquePointer] = []
    /// The events the screen readers listen for (AccessibilityBus+Readers.swift).
    var readers = ReaderEvents()

    /// Connects to the accessibility bus at `address` (org.a11y.Bus.GetAddress) and asks the registry
    /// to embed toastd's application.
    package init(address: String) throws(AccessibilityError) {
        var connection: OpaquePointer? = nil
        var r = sd_bus_new(&connection)
        guard r >= 0, let connection else { throw .sdBus("sd_bus_new", errno: -r) }
        bus = connection
        r = address.withCString { sd_bus_set_address(connection, $0) }
        if r >= 0 { r = sd_bus_set_bus_client(connection, 1) }
        if r >= 0 { r = sd_bus_start(connection) }
        guard r >= 0 else { sd_bus_flush_close_unref(connection); throw .sdBus("connect to \(address)", errno: -r) }
        // Waits for Hello's answer: the name goes into Embed. The bus is a local socket whose daemon
        // answers Hello at once.
        var name: UnsafePointer<CChar>? = nil
        r = sd_bus_get_unique_name(connection, &name)
        guard r >= 0, let name else { sd_bus_flush_close_unref(connection); throw .sdBus("Hello", errno: -r) }
        uniqueName = String(cString: name)
        try exportObjects()
        try embed()
        try followReaders()
    }

    /// Keeps a slot (a match, a call waiting for its answer) as long as the connection.
    func keep(_ slot: OpaquePointer) { slots.append(slot) }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    package var fd: Int32 { sd_bus_get_fd(bus) }
    package var epollEvents: UInt32 { UInt32(max(sd_bus_get_events(bus), 0)) }

    /// Reads and answers until sd-bus has nothing left. Throws `.disconnected` when the bus is gone.
    package func process() throws(AccessibilityError) {
        while true {
            let r = sd_bus_process(bus, nil)
            if r < 0 { throw [ECONNRESET, ENOTCONN, EPIPE].contains(-r) ? .disconnected : .sdBus("sd_bus_process", errno: -r) }
            if r == 0 { return }
        }
    }

    /// Milliseconds between two announcements of the bar's value (`a11y-hud-interval`).
    package var barInterval: Int64 {
        get { barValues.interval }
        set { barValues.interval = max(newValue, 0) }
    }

    /// Makes the shown toasts `shown`, the value bar `bar` and the object with the keyboard `focus`, and
    /// tells the screen readers what changed; `now` is monotonic milliseconds, for the bar's announcements.
    package func show(_ shown: [AccessibleTree.Toast], bar: AccessibleTree.Bar?, focus: AccessibleTree.Focus? = nil,
                      now: Int64) {
        for change in tree.update(shown) { announce(change) }
        if let change = tree.update(bar: bar) { announce(change, now: now) }
        if let change = tree.update(focus: focus) { announce(change) }
    }

    /// When a value of the bar waits to be told (monotonic milliseconds); nil: none waits.
    package var nextAnnouncement: Int64? { barValues.due }

    /// Tells the bar's waiting value, if its time has come.
    package func announceWaiting(now: Int64) {
        if let bar = barValues.take(now: now) { announceValue(bar) }
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func exportObjects() throws(AccessibilityError) {
        let handler: sd_bus_message_handler_t = { m, userdata, error in
            guard let m, let userdata else { return 0 }
            return Unmanaged<AccessibilityBus>.fromOpaque(userdata).takeUnretainedValue().handleCall(m, error)
        }
        // Every object lives under one prefix: the application, the toasts, their buttons, the cache.
        var slot: OpaquePointer? = nil
        let r = sd_bus_add_fallback(bus, &slot, "/org/a11y/atspi", handler, userdata)
        guard r >= 0, let slot else { throw .sdBus("sd_bus_add_fallback", errno: -r) }
        slots.append(slot)
    }

    private func embed() throws(AccessibilityError) {
        var call: OpaquePointer? = nil
        var r = sd_bus_message_new_method_call(bus, &call, AtspiInterface.registryName, AccessibleTree.rootPath,
                                               AtspiInterface.socket, "Embed")
        guard r >= 0, let call else { throw .sdBus("Embed", errno: -r) }
        defer { sd_bus_message_unref(call) }
        var w = AtspiWriter(call)
        w.reference(uniqueName, AccessibleTree.rootPath)
        guard !w.failed else { throw .sdBus("Embed", errno: EINVAL) }
        let answered: sd_bus_message_handler_t = { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            let me = Unmanaged<AccessibilityBus>.fromOpaque(userdata).takeUnretainedValue()
            if sd_bus_message_is_method_error(m, nil) == 0, let parent = AtspiReader.reference(m) { me.parent = parent }
            return 0
        }
        var slot: OpaquePointer? = nil
        r = sd_bus_call_async(bus, &slot, call, answered, userdata, 0)
        guard r >= 0, let slot else { throw .sdBus("Embed", errno: -r) }
        slots.append(slot)
    }

    // MARK: Events

    /// The events a toolkit sends for a change: `children-changed` on the parent, then
    /// `state-changed:showing` on the notification itself, which is what Orca speaks (its name and
    /// description). A critical toast is told instead by an assertive `Announcement` from the
    /// notification, which Orca presents ahead of what waits, when a reader listens for announcements
    /// (else it would not be heard at all); never both, or Orca would say it twice.
    private func announce(_ change: AccessibleTree.Change) {
        switch change {
        case .added(let toast, let index):
            let path = AccessibleTree.path(toast: toast.id)
            emit(at: AccessibleTree.rootPath, "ChildrenChanged", detail: "add", index, 0) { w in
                w.open("v", "(so)"); w.reference(self.uniqueName, path); w.close()
            }
            if toast.critical && announcementsHeard {
                let words = toast.body.isEmpty ? toast.summary : "\(toast.summary). \(toast.body)"
                emit(at: path, "Announcement", detail: "", LivePoliteness.assertive, 0) { w in
                    w.open("v", "s"); w.string(words); w.close()
                }
            } else {
                emit(at: path, "StateChanged", detail: "showing", 1, 0) { w in w.open("v", "i"); w.int32(0); w.close() }
            }
        case .changed(let toast):
            let path = AccessibleTree.path(toast: toast.id)
            emit(at: path, "PropertyChange", detail: "accessible-name", 0, 0) { w in
                w.open("v", "s"); w.string(toast.summary); w.close()
            }
            emit(at: path, "PropertyChange", detail: "accessible-description", 0, 0) { w in
                w.open("v", "s"); w.string(toast.body); w.close()
            }
        case .removed(let toast, let index):
            let path = AccessibleTree.path(toast: toast.id)
            emit(at: path, "StateChanged", detail: "showing", 0, 0) { w in w.open("v", "i"); w.int32(0); w.close() }
            emit(at: AccessibleTree.rootPath, "ChildrenChanged", detail: "remove", index, 0) { w in
                w.open("v", "(so)"); w.reference(self.uniqueName, path); w.close()
            }
        }
    }

    /// The keyboard moved as a toolkit tells it: `state-changed:focused` off on the object that had it,
    /// then on on the one that has it, which is what Orca speaks (its role and name: "Open, push button").
    private func announce(_ change: AccessibleTree.FocusChange) {
        if let lost = change.lost {
            emit(at: lost, "StateChanged", detail: "focused", 0, 0) { w in w.open("v", "i"); w.int32(0); w.close() }
        }
        if let gained = change.gained {
            emit(at: gained, "StateChanged", detail: "focused", 1, 0) { w in w.open("v", "i"); w.int32(0); w.close() }
        }
    }

    /// The bar as a toolkit tells a progress bar: `children-changed` and `state-changed:showing` as it
    /// comes and goes, and its value (`property-change:accessible-value`, what Orca speaks for a
    /// progress bar) at most once per `barInterval`. A value still waiting when the bar leaves is told
    /// first: the last value set is always heard.
    private func announce(_ change: AccessibleTree.BarChange, now: Int64) {
        let path = AccessibleTree.barPath
        switch change {
        case .shown(let bar, let index):
            emit(at: AccessibleTree.rootPath, "ChildrenChanged", detail: "add", index, 0) { w in
                w.open("v", "(so)"); w.reference(self.uniqueName, path); w.close()
            }
            emit(at: path, "StateChanged", detail: "showing", 1, 0) { w in w.open("v", "i"); w.int32(0); w.close() }
            if let told = barValues.offer(bar, now: now) { announceValue(told) }
        case .changed(let old, let bar):
            if old.name != bar.name {
                emit(at: path, "PropertyChange", detail: "accessible-name", 0, 0) { w in
                    w.open("v", "s"); w.string(bar.name); w.close()
                }
            }
            if (old.value, old.muted) != (bar.value, bar.muted), let told = barValues.offer(bar, now: now) { announceValue(told) }
        case .hidden(_, let index):
            if let told = barValues.flush(now: now) { announceValue(told) }
            emit(at: path, "StateChanged", detail: "showing", 0, 0) { w in w.open("v", "i"); w.int32(0); w.close() }
            emit(at: AccessibleTree.rootPath, "ChildrenChanged", detail: "remove", index, 0) { w in
                w.open("v", "(so)"); w.reference(self.uniqueName, path); w.close()
            }
        }
    }

    private func announceValue(_ bar: AccessibleTree.Bar) {
        emit(at: AccessibleTree.barPath, "PropertyChange", detail: "accessible-value", 0, 0) { w in
            w.open("v", "d"); w.double(Double(bar.value)); w.close()
        }
    }

    /// One `org.a11y.atspi.Event.Object` signal: (detail, detail1, detail2, any_data, properties).
    private func emit(at path: String, _ member: String, detail: String, _ detail1: Int, _ detail2: Int,
                      anyData: (inout AtspiWriter) -> Void)
    {
        var m: OpaquePointer? = nil
        guard sd_bus_message_new_signal(bus, &m, path, AtspiInterface.eventObject, member) >= 0, let m else { return }
        defer { sd_bus_message_unref(m) }
        var w = AtspiWriter(m)
        w.string(detail); w.int32(Int32(clamping: detail1)); w.int32(Int32(clamping: detail2))
        anyData(&w)
        w.emptyArray("{sv}")
        if !w.failed { _ = sd_bus_send(bus, m, nil) }
    }
}

/// AT-SPI's politeness of an announcement (AtspiLive), in its `detail1`.
enum LivePoliteness {
    static let assertive = 2
}

package enum AccessibilityError: Error, CustomStringConvertible {
    case sdBus(String, errno: Int32)
    case disconnected

    package var description: String {
        switch self {
        case .sdBus(let call, let errno): "\(call): \(String(cString: strerror(errno)))"
        case .disconnected: "the accessibility bus went away"
        }
    }
}
