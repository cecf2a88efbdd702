import CSystemd
import ToastVocabulary
#if canImport(Glibc)
import Glibc
#endif

/// org.freedesktop.Notifications (spec 1.3) and org.toastd.Hud1 on
/// the session bus, through sd-bus, driven by the caller's own poll/epoll loop.
///
/// Loop contract (one thread, no extra threads):
/// 1. watch `fd` for `epollEvents` (or `pollEvents` with poll(2)); wake by `deadline` at the latest;
/// 2. when woken, and before every wait, call `process(budget:)` (it runs sd_bus_process until idle or
///    the budget is spent, and says which: call it again at once while it reports work left);
/// 3. re-read `epollEvents` and `deadline` after `process()` and after any `emit…` (a queued write adds
///    EPOLLOUT), and after `sendHeld()`.
/// Delegate calls happen inside `process()`.
public final class NotificationsBus {
    public static let busName = "org.freedesktop.Notifications"
    /// A name only toastd owns, taken once it owns `busName`: what `toast` asks D-Bus to start (its own
    /// service file), so a first start cannot activate mako or dunst through `busName`.
    public static let daemonName = "org.toastd.Daemon"
    public static let objectPath = "/org/freedesktop/Notifications"
    public static let interface = "org.freedesktop.Notifications"
    public static let hudPath = "/org/toastd/Hud"
    public static let hudInterface = "org.toastd.Hud1"
    /// Receives calls; held weakly (the daemon usually owns the bus). Calls that arrive while it is
    /// nil are answered with org.freedesktop.DBus.Error.Failed.
    public weak var delegate: NotificationsBusDelegate?
    /// Receives mako's and dunst's control calls (makoctl, dunstctl); held weakly. While it is nil
    /// those calls are answered with org.freedesktop.DBus.Error.Failed.
    public weak var controlDelegate: CompatControlDelegate?

    /// What `GetCapabilities` answers (the daemon adds `sound` while it has a player).
    public var capabilities = ServerIdentity.capabilities

    /// True while we are the primary owner of org.freedesktop.Notifications.
    public private(set) var ownsName = false

    private let bus: OpaquePointer
    /// The RequestName call while its answer is awaited, and the answer once it came.
    private var nameRequest: (slot: OpaquePointer?, replace: Bool, answer: NameRequestAnswer?)?
    /// Object and NameLost slots: live as long as we do.
    private var permanentSlots: [OpaquePointer] = []
    /// LoadingStart callers we watch for disconnection: unique name → NameOwnerChanged match slot.
    private var clientWatches: [String: OpaquePointer] = [:]
    /// Pending GetNameOwner checks (a client may leave before its match is installed).
    private var ownerChecks: [String: OpaquePointer] = [:]
    /// Slots to release once sd_bus_process has returned (not from inside their own callbacks).
    private var retiredSlots: [OpaquePointer] = []

    /// While set, method replies and signals are kept, in the order made, until `sendHeld()`, instead
    /// of being written at once. The daemon holds what a loop turn answers until it has flushed the
    /// turn's drawing to the compositor: a reply written at once woke the bus daemon, which here took
    /// the CPU from toastd (~75 µs) before the toast the call was about was drawn. Errors sd-bus
    /// sends itself (an unknown method, bad arguments) still go at once: no reply is held back
    /// behind them, and the order of replies to different calls means nothing to a client.
    public var holdsOutput = false
    /// Replies and signals made while `holdsOutput` was set, each referenced until sent.
    private var held: [OpaquePointer] = []

    /// Connects to the session bus, exports both objects and requests the name.
    ///
    /// The name is always requested with ALLOW_REPLACEMENT (another daemon may take it over later:
    /// `busNameLost()`); `replace` adds REPLACE_EXISTING to take it from the current owner.
    ///
    /// With `awaitName` false the request is sent but its answer is not waited for: do other start-up
    /// work, then call `awaitNameRequest()` (which throws what this init would have thrown). A daemon
    /// so owns the name sooner, while it connects to the compositor.
    /// - Throws: `.noSessionBus` when there is no bus to connect to; `.nameTaken` (owner's unique name,
    ///   PID and command) when someone else owns the name and we did not or could not replace it.
    /// With `replace`: the process that owned the name when it was requested (nil: none, or unknown).
    public private(set) var replacedPID: Int32?

    public init(delegate: NotificationsBusDelegate, replace: Bool = false, awaitName: Bool = true) throws(BusError) {
        var connection: OpaquePointer? = nil
        let r = sd_bus_open_user(&connection)
        guard r >= 0, let connection else { throw .noSessionBus(errno: -r) }
        bus = connection
        self.delegate = delegate
        // From here on, a throw runs deinit, which releases the connection.
        try exportObjects()
        try watchNameLost()
        // Who is replaced, asked before the name moves: the new daemon waits for it to leave.
        if replace { replacedPID = NameOwnerLookup.owner(of: Self.busName, on: bus)?.pid }
        try sendNameRequest(replace: replace)
        if awaitName { try awaitNameRequest() }
    }

    deinit {
        sendHeld()
        if let slot = nameRequest?.slot { sd_bus_slot_unref(slot) }
        for slot in permanentSlots + Array(clientWatches.values) + Array(ownerChecks.values) + retiredSlots {
            sd_bus_slot_unref(slot)
        }
        sd_bus_flush_close_unref(bus)
    }

    /// The session bus connection itself, for watches that ride on it (assistive technology's status).
    package var connection: OpaquePointer { bus }

    // MARK: Event loop

    /// The connection's file descriptor (stable for the connection's life; negative once closed).
    public var fd: Int32 { sd_bus_get_fd(bus) }

    /// poll(2) flags to wait for (`POLLIN`, plus `POLLOUT` while writes are queued); 0 if closed.
    public var pollEvents: Int32 { max(sd_bus_get_events(bus), 0) }

    /// The same as epoll flags (`EPOLLIN` = `POLLIN`, `EPOLLOUT` = `POLLOUT` on Linux).
    public var epollEvents: UInt32 { UInt32(pollEvents) }

    /// When sd-bus wants `process()` called even without fd activity (a call timeout, queued work):
    /// absolute CLOCK_MONOTONIC microseconds, or nil for never. May be in the past: then don't sleep.
    public var deadline: UInt64? {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else { return nil }
        return usec
    }

    /// A poll/epoll_wait timeout in milliseconds for `deadline` (rounded up; -1 for none, 0 if due).
    public var timeoutMilliseconds: Int32 {
        guard let deadline else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
        guard deadline > nowUsec else { return 0 }
        return Int32(clamping: (deadline - nowUsec + 999) / 1_000)
    }

    /// Reads, dispatches and writes until sd-bus has nothing left to do, or until `budget`
    /// microseconds have passed; returns true when it stopped with work left (call again soon, after
    /// serving the loop's other clients). Delegate calls happen here (and must not call `process()`
    /// again). The budget keeps one huge message (33 MB of image-data arriving while the bus daemon
    /// keeps writing) from holding the loop for the whole transfer.
    /// - Throws: `.disconnected` when the bus is gone (stop watching `fd` then).
    @discardableResult
    public func process(budget: UInt64 = .max) throws(BusError) -> Bool {
        defer { releaseRetiredSlots() }
        let start = Self.monotonicMicroseconds()
        while true {
            let r = sd_bus_process(bus, nil)
            if r < 0 {
                if [ECONNRESET, ENOTCONN, EPIPE].contains(-r) { throw .disconnected }
                throw .sdBus(call: "sd_bus_process", errno: -r)
            }
            if r == 0 { return false }
            if Self.monotonicMicroseconds() - start >= budget { return true }
        }
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }

    // MARK: Signals

    /// NotificationClosed(id, reason).
    @discardableResult
    public func emitClosed(id: UInt32, reason: CloseReason) -> Bool {
        emit("NotificationClosed") { w throws(MessageError) in try w.uint32(id); try w.uint32(reason.specCode) }
    }

    /// ActivationToken(id, activation_token) (spec 1.3), sent just before ActionInvoked.
    @discardableResult
    public func emitActivationToken(id: UInt32, token: String) -> Bool {
        emit("ActivationToken") { w throws(MessageError) in try w.uint32(id); try w.string(token) }
    }

    /// ActionInvoked(id, key).
    @discardableResult
    public func emitActionInvoked(id: UInt32, key: String) -> Bool {
        emit("ActionInvoked") { w throws(MessageError) in try w.uint32(id); try w.string(key) }
    }

    /// NotificationReplied(id, text) (KDE's and swaync's inline replies).
    @discardableResult
    public func emitReplied(id: UInt32, text: String) -> Bool {
        emit("NotificationReplied") { w throws(MessageError) in try w.uint32(id); try w.string(text) }
    }

    private func emit(_ member: String, _ fill: (MessageWriter) throws(MessageError) -> Void) -> Bool {
        var m: OpaquePointer? = nil
        guard sd_bus_message_new_signal(bus, &m, Self.objectPath, Self.interface, member) >= 0, let m else {
            return false
        }
        defer { sd_bus_message_unref(m) }
        do { try fill(MessageWriter(m: m)) } catch { return false }
        return send(m) >= 0
    }

    /// Writes `m` (a reply or a signal), or keeps it for `sendHeld()` while `holdsOutput` is set.
    /// Returns sd_bus_send's result (a negative errno when it failed), 1 when kept.
    func send(_ m: OpaquePointer) -> Int32 {
        guard holdsOutput else { return sd_bus_send(bus, m, nil) }
        held.append(sd_bus_message_ref(m))
        return 1
    }

    /// Stops holding output and writes what was held, in order. Returns how many were held.
    @discardableResult
    public func sendHeld() -> Int {
        holdsOutput = false
        guard !held.isEmpty else { return 0 }
        let messages = held
        held = []
        for m in messages {
            _ = sd_bus_send(bus, m, nil)
            sd_bus_message_unref(m)
        }
        return messages.count
    }

    // MARK: Setup

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func exportObjects() throws(BusError) {
        // One message callback per object; dispatch on interface and member (no vtables from Swift).
        let handler: sd_bus_message_handler_t = { m, userdata, error in
            guard let m, let userdata else { return 0 }
            return Unmanaged<NotificationsBus>.fromOpaque(userdata).takeUnretainedValue().handleMethodCall(m, error)
        }
        for path in BusObject.all.map(\.path) {
            var slot: OpaquePointer? = nil
            let r = sd_bus_add_object(bus, &slot, path, handler, userdata)
            guard r >= 0, let slot else { throw .sdBus(call: "sd_bus_add_object(\(path))", errno: -r) }
            permanentSlots.append(slot)
        }
    }

    private func watchNameLost() throws(BusError) {
        let handler: sd_bus_message_handler_t = { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            Unmanaged<NotificationsBus>.fromOpaque(userdata).takeUnretainedValue().handleNameLost(m)
            return 0
        }
        // Asynchronous: the bus daemon handles AddMatch before the RequestName sent after it, so no
        // NameLost can be missed, and start-up does not wait a round trip for it.
        var slot: OpaquePointer? = nil
        let r = sd_bus_match_signal_async(bus, &slot, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                          "org.freedesktop.DBus", "NameLost", handler, nil, userdata)
        guard r >= 0, let slot else { throw Self.connectError("sd_bus_match_signal_async(NameLost)", errno: -r) }
        permanentSlots.append(slot)
    }

    /// What the bus daemon answered to RequestName.
    private enum NameRequestAnswer {
        case reply(UInt32)
        case error(errno: Int32)
    }

    /// Queues RequestName and flushes it (with Hello and AddMatch) to the bus daemon.
    private func sendNameRequest(replace: Bool) throws(BusError) {
        var flags = UInt64(SD_BUS_NAME_ALLOW_REPLACEMENT)
        if replace { flags |= UInt64(SD_BUS_NAME_REPLACE_EXISTING) }
        let answered: sd_bus_message_handler_t = { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            Unmanaged<NotificationsBus>.fromOpaque(userdata).takeUnretainedValue().handleNameRequestAnswer(m)
            return 0
        }
        var slot: OpaquePointer? = nil
        let r = sd_bus_request_name_async(bus, &slot, Self.busName, flags, answered, userdata)
        guard r >= 0 else { throw Self.connectError("sd_bus_request_name_async", errno: -r) }
        nameRequest = (slot, replace, nil)
        // Authentication and Hello need the bus daemon's answers before RequestName can leave.
        let f = sd_bus_flush(bus)
        guard f >= 0 else { throw Self.connectError("sd_bus_flush", errno: -f) }
    }

    private func handleNameRequestAnswer(_ m: OpaquePointer) {
        guard nameRequest != nil else { return }
        if sd_bus_message_is_method_error(m, nil) > 0 {
            nameRequest?.answer = .error(errno: sd_bus_message_get_errno(m))
        } else {
            nameRequest?.answer = .reply((try? MessageReader(m: m).uint32()) ?? 0)
        }
    }

    /// Waits for the answer to the name request sent by `init(…, awaitName: false)`; returns at once
    /// if it was already awaited. Bus traffic that arrives meanwhile is dispatched as in `process()`.
    /// - Throws: what `init` throws: `.nameTaken`, `.noSessionBus`, or `.sdBus`.
    public func awaitNameRequest() throws(BusError) {
        guard let request = nameRequest else { return }
        while nameRequest?.answer == nil {
            let r = sd_bus_process(bus, nil)
            if r < 0 { throw Self.connectError("sd_bus_process", errno: -r) }
            if r == 0, nameRequest?.answer == nil {
                let w = sd_bus_wait(bus, UInt64.max)
                if w < 0, w != -EINTR { throw Self.connectError("sd_bus_wait", errno: -w) }
            }
        }
        let answer = nameRequest?.answer ?? .error(errno: EIO)
        if let slot = nameRequest?.slot { sd_bus_slot_unref(slot) }
        nameRequest = nil
        switch answer {
        case .reply(1), .reply(4):  // primary owner; already the owner
            ownsName = true
            requestDaemonName(replace: request.replace)
        case .reply:  // exists (3); in queue (2) cannot happen: sd-bus asks not to be queued
            var owner = NameOwnerLookup.owner(of: Self.busName, on: bus)
                ?? NameOwner(uniqueName: "another connection", pid: nil, command: nil)
            if request.replace { owner.allowsReplacement = false }
            throw .nameTaken(owner)
        case .error(let errno):
            throw Self.connectError("RequestName", errno: errno)
        }
    }

    /// Takes `daemonName` only after `busName`: a toastd that must give up (another daemon owns the
    /// notifications) exits without it, so D-Bus reports that start as failed instead of done. Taken
    /// over as `busName` is (`--replace`). Not awaited: nothing else depends on the answer.
    private func requestDaemonName(replace: Bool) {
        var flags = UInt64(SD_BUS_NAME_ALLOW_REPLACEMENT)
        if replace { flags |= UInt64(SD_BUS_NAME_REPLACE_EXISTING) }
        // A callback of our own: sd-bus's default one closes the connection when the name is taken.
        let ignored: sd_bus_message_handler_t = { _, _, _ in 1 }
        // Fails only without memory; then `toast` finds the socket by itself, as before any start.
        _ = sd_bus_request_name_async(bus, nil, Self.daemonName, flags, ignored, nil)
    }

    /// A failure while connecting: the bus unreachable is `.noSessionBus`, anything else `.sdBus`.
    private static func connectError(_ call: String, errno: Int32) -> BusError {
        if [ENOENT, ECONNREFUSED, ECONNRESET, ENOTCONN, EPIPE].contains(errno) { return .noSessionBus(errno: errno) }
        return .sdBus(call: call, errno: errno)
    }

    private func handleNameLost(_ m: OpaquePointer) {
        guard let name = try? MessageReader(m: m).string(), name == Self.busName else { return }
        ownsName = false
        delegate?.busNameLost()
    }

    // MARK: Hud clients

    /// Watches a LoadingStart caller so the delegate learns when it leaves the bus.
    func watchClient(_ name: String) {
        guard !name.isEmpty, clientWatches[name] == nil else { return }
        let changed: sd_bus_message_handler_t = { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            Unmanaged<NotificationsBus>.fromOpaque(userdata).takeUnretainedValue().handleOwnerChanged(m)
            return 0
        }
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
        var matchSlot: OpaquePointer? = nil
        guard sd_bus_add_match_async(bus, &matchSlot, rule, changed, nil, userdata) >= 0, let matchSlot else { return }
        clientWatches[name] = matchSlot

        // The client may already be gone (a one-shot `gdbus call`); the bus answers in order, so this
        // check, sent after AddMatch, closes the gap.
        let checked: sd_bus_message_handler_t = { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            Unmanaged<NotificationsBus>.fromOpaque(userdata).takeUnretainedValue().handleOwnerCheck(m)
            return 0
        }
        var call: OpaquePointer? = nil
        guard sd_bus_message_new_method_call(bus, &call, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                             "org.freedesktop.DBus", "GetNameOwner") >= 0, let call else { return }
        defer { sd_bus_message_unref(call) }
        guard (try? MessageWriter(m: call).string(name)) != nil else { return }
        var callSlot: OpaquePointer? = nil
        if sd_bus_call_async(bus, &callSlot, call, checked, userdata, 0) >= 0, let callSlot {
            ownerChecks[name] = callSlot
        }
    }

    private func handleOwnerChanged(_ m: OpaquePointer) {
        let r = MessageReader(m: m)
        guard let name = try? r.string(), let _ = try? r.string(), let newOwner = try? r.string(),
              newOwner.isEmpty else { return }
        clientVanished(name)
    }

    private func handleOwnerCheck(_ m: OpaquePointer) {
        guard let slot = sd_bus_get_current_slot(bus),
              let name = ownerChecks.first(where: { $0.value == slot })?.key else { return }
        retiredSlots.append(ownerChecks.removeValue(forKey: name)!)
        if sd_bus_message_is_method_error(m, nil) > 0 { clientVanished(name) }
    }

    private func clientVanished(_ name: String) {
        guard let watch = clientWatches.removeValue(forKey: name) else { return }
        retiredSlots.append(watch)
        if let check = ownerChecks.removeValue(forKey: name) { retiredSlots.append(check) }
        delegate?.busClientVanished(name)
    }

    private func releaseRetiredSlots() {
        for slot in retiredSlots { sd_bus_slot_unref(slot) }
        retiredSlots.removeAll()
    }

    /// Unique names of LoadingStart callers currently watched (for tests and diagnostics).
    public var watchedClients: [String] { Array(clientWatches.keys) }
}
