import CSystemd
import Foundation
@testable import ToastDBus

/// A client connection of our own (sd-bus), for what the command-line clients cannot do: stay
/// connected while the test decides when it leaves, and build messages for the parse benchmark.
final class RawClient {
    let bus: OpaquePointer
    private(set) var replies = 0
    private(set) var errors = 0
    /// What arrived, in order: "reply", "error", or a watched signal's member.
    private(set) var received: [String] = []
    private var signalSlots: [OpaquePointer] = []

    init() throws {
        var b: OpaquePointer? = nil
        let r = sd_bus_open_user(&b)
        guard r >= 0, let b else { throw TestError("sd_bus_open_user: \(r)") }
        bus = b
    }

    deinit { close() }

    private var closed = false
    func close() {
        guard !closed else { return }
        closed = true
        for slot in signalSlots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    var uniqueName: String {
        var p: UnsafePointer<CChar>? = nil
        _ = sd_bus_get_unique_name(bus, &p)
        return p.map { String(cString: $0) } ?? ""
    }

    /// A method call to toastd, built but not sent.
    func methodCall(path: String, interface: String, member: String) throws -> OpaquePointer {
        var m: OpaquePointer? = nil
        let r = sd_bus_message_new_method_call(bus, &m, NotificationsBus.busName, path, interface, member)
        guard r >= 0, let m else { throw TestError("new_method_call: \(r)") }
        return m
    }

    /// Sends a call without waiting; replies are counted by `process()`.
    func callAsync(_ m: OpaquePointer) throws {
        let done: sd_bus_message_handler_t = { reply, userdata, _ in
            let me = Unmanaged<RawClient>.fromOpaque(userdata!).takeUnretainedValue()
            if sd_bus_message_is_method_error(reply, nil) > 0 { me.errors += 1 } else { me.replies += 1 }
            me.received.append(sd_bus_message_is_method_error(reply, nil) > 0 ? "error" : "reply")
            return 1
        }
        let r = sd_bus_call_async(bus, nil, m, done, Unmanaged.passUnretained(self).toOpaque(), 0)
        guard r >= 0 else { throw TestError("call_async: \(r)") }
    }

    /// Records toastd's signal `member` in `received` as it arrives.
    func watchSignal(_ member: String) throws {
        let seen: sd_bus_message_handler_t = { m, userdata, _ in
            let me = Unmanaged<RawClient>.fromOpaque(userdata!).takeUnretainedValue()
            me.received.append(sd_bus_message_get_member(m).map { String(cString: $0) } ?? "?")
            return 0
        }
        var slot: OpaquePointer? = nil
        let r = sd_bus_match_signal(bus, &slot, nil, NotificationsBus.objectPath, NotificationsBus.interface, member,
                                    seen, Unmanaged.passUnretained(self).toOpaque())
        guard r >= 0, let slot else { throw TestError("match_signal: \(r)") }
        signalSlots.append(slot)
    }

    func process() {
        while !closed, sd_bus_process(bus, nil) > 0 {}
    }
}

/// Appends a typical Notify (what a chat app sends: icon, body, two actions, four hints).
func appendTypicalNotify(_ m: OpaquePointer) throws {
    let w = MessageWriter(m: m)
    try w.string("Chat")
    try w.uint32(0)
    try w.string("mail-unread")
    try w.string("Ada Lovelace")
    try w.string("Are we still on for <b>tomorrow</b>? I found the notes on the engine.")
    try w.strings(["default", "Open", "reply", "Reply"])
    _ = sd_bus_message_open_container(m, typeCode("a"), "{sv}")
    func entry(_ key: String, _ type: String, _ append: () -> Void) {
        _ = sd_bus_message_open_container(m, typeCode("e"), "sv")
        try? w.string(key)
        _ = sd_bus_message_open_container(m, typeCode("v"), type)
        append()
        _ = sd_bus_message_close_container(m)
        _ = sd_bus_message_close_container(m)
    }
    entry("urgency", "y") { var u: UInt8 = 1; _ = sd_bus_message_append_basic(m, typeCode("y"), &u) }
    entry("category", "s") { try? w.string("im.received") }
    entry("desktop-entry", "s") { try? w.string("org.example.Chat") }
    entry("sender-pid", "x") { var p: Int64 = 1234; _ = sd_bus_message_append_basic(m, typeCode("x"), &p) }
    _ = sd_bus_message_close_container(m)
    var timeout: Int32 = -1
    _ = sd_bus_message_append_basic(m, typeCode("i"), &timeout)
}
