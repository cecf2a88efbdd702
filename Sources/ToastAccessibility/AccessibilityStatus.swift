import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Follows whether assistive technology is on, over a session bus connection the caller already has
/// and processes: `org.a11y.Bus` has an owner and its `org.a11y.Status` says `IsEnabled` or
/// `ScreenReaderEnabled`. Nothing is started on toastd's behalf: the owner is asked of the bus daemon
/// (GetNameOwner), and calls to `org.a11y.Bus` carry no-auto-start. While nobody owns the name the
/// watch costs two match rules and no wakeups.
package final class AccessibilityStatus {
    package static let busName = "org.a11y.Bus"
    package static let busPath = "/org/a11y/bus"

    /// Told the accessibility bus's address when assistive technology turns on, nil when it turns off.
    /// Said only on a change.
    package var onChange: (String?) -> Void = { _ in }
    package private(set) var address: String?

    private let session: OpaquePointer
    private var slots: [OpaquePointer] = []
    /// Counts the questions asked: an answer to an older one than the last is ignored.
    private var question: UInt64 = 0

    package init(session: OpaquePointer) throws(AccessibilityError) {
        self.session = sd_bus_ref(session)
        let owner = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.busName)'"
        let status = "type='signal',sender='\(Self.busName)',path='\(Self.busPath)',"
            + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='org.a11y.Status'"
        for rule in [owner, status] {
            let changed: sd_bus_message_handler_t = { _, userdata, _ in
                guard let userdata else { return 0 }
                Unmanaged<AccessibilityStatus>.fromOpaque(userdata).takeUnretainedValue().ask()
                return 0
            }
            var slot: OpaquePointer? = nil
            let r = sd_bus_add_match_async(session, &slot, rule, changed, nil, userdata)
            guard r >= 0, let slot else { throw .sdBus("AddMatch", errno: -r) }
            slots.append(slot)
        }
        ask()
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_unref(session)
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Asks again from the start: who owns org.a11y.Bus, then its status, then its address.
    private func ask() {
        question &+= 1
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
             argument: Self.busName) { me, m in
            guard sd_bus_message_is_method_error(m, nil) == 0 else { return me.settle(nil) }
            me.call(Self.busName, Self.busPath, "org.freedesktop.DBus.Properties", "GetAll", argument: "org.a11y.Status") { me, m in
                guard sd_bus_message_is_method_error(m, nil) == 0, Self.isOn(m) else { return me.settle(nil) }
                me.call(Self.busName, Self.busPath, Self.busName, "GetAddress", argument: nil) { me, m in
                    me.settle(sd_bus_message_is_method_error(m, nil) == 0 ? AtspiReader.string(m) : nil)
                }
            }
        }
    }

    private func settle(_ now: String?) {
        guard now != address else { return }
        address = now
        onChange(now)
    }

    /// Reads GetAll's `a{sv}`: true when IsEnabled or ScreenReaderEnabled is true.
    static func isOn(_ m: OpaquePointer) -> Bool {
        guard sd_bus_message_enter_container(m, CChar(UInt8(ascii: "a")), "{sv}") > 0 else { return false }
        var on = false
        while sd_bus_message_enter_container(m, CChar(UInt8(ascii: "e")), "sv") > 0 {
            let key = AtspiReader.string(m) ?? ""
            if ["IsEnabled", "ScreenReaderEnabled"].contains(key),
               sd_bus_message_enter_container(m, CChar(UInt8(ascii: "v")), "b") > 0
            {
                var value: Int32 = 0
                if sd_bus_message_read_basic(m, CChar(UInt8(ascii: "b")), &value) > 0, value != 0 { on = true }
                _ = sd_bus_message_exit_container(m)
            } else {
                _ = sd_bus_message_skip(m, "v")
            }
            _ = sd_bus_message_exit_container(m)
        }
        return on
    }

    /// One asynchronous call, never starting its destination; `answered` gets the reply or error.
    private func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
                      argument: String?, answered: @escaping (AccessibilityStatus, OpaquePointer) -> Void)
    {
        var m: OpaquePointer? = nil
        guard sd_bus_message_new_method_call(session, &m, destination, path, interface, member) >= 0, let m else { return }
        defer { sd_bus_message_unref(m) }
        _ = sd_bus_message_set_auto_start(m, 0)
        if let argument {
            guard argument.withCString({ sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }) >= 0 else { return }
        }
        let box = Unmanaged.passRetained(Answer(status: self, question: question, answered: answered)).toOpaque()
        let handler: sd_bus_message_handler_t = { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            let answer = Unmanaged<Answer>.fromOpaque(userdata).takeRetainedValue()
            guard let status = answer.status, status.question == answer.question else { return 0 }
            answer.answered(status, m)
            return 0
        }
        // A floating slot: the bus keeps it until the answer comes, which releases the box above.
        if sd_bus_call_async(session, nil, m, handler, box, 0) < 0 { Unmanaged<Answer>.fromOpaque(box).release() }
    }

    private final class Answer {
        weak var status: AccessibilityStatus?
        let question: UInt64
        let answered: (AccessibilityStatus, OpaquePointer) -> Void
        init(status: AccessibilityStatus, question: UInt64, answered: @escaping (AccessibilityStatus, OpaquePointer) -> Void) {
            self.status = status; self.question = question; self.answered = answered
        }
    }
}
