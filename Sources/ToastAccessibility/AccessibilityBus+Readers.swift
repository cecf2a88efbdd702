import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Which events the screen readers listen for, followed as at-spi2-atk follows them: the registry's
/// list once (`GetRegisteredEvents`), then its `EventListenerRegistered` and `EventListenerDeregistered`
/// signals. toastd sends an event only some readers understand (the announcement of a critical toast)
/// only when one of them listens for it.
extension AccessibilityBus {
    static let registryPath = "/org/a11y/atspi/registry"
    static let registryInterface = "org.a11y.atspi.Registry"

    func followReaders() throws(AccessibilityError) {
        for (member, adds) in [("EventListenerRegistered", true), ("EventListenerDeregistered", false)] {
            let rule = "type='signal',sender='\(AtspiInterface.registryName)',path='\(Self.registryPath)',"
                + "interface='\(Self.registryInterface)',member='\(member)'"
            let handler: sd_bus_message_handler_t = adds
                ? { m, userdata, _ in
                    guard let m, let userdata else { return 0 }
                    Unmanaged<AccessibilityBus>.fromOpaque(userdata).takeUnretainedValue().readerChanged(m, adds: true)
                    return 0
                }
                : { m, userdata, _ in
                    guard let m, let userdata else { return 0 }
                    Unmanaged<AccessibilityBus>.fromOpaque(userdata).takeUnretainedValue().readerChanged(m, adds: false)
                    return 0
                }
            var slot: OpaquePointer? = nil
            let r = sd_bus_add_match_async(bus, &slot, rule, handler, nil, Unmanaged.passUnretained(self).toOpaque())
            guard r >= 0, let slot else { throw .sdBus("AddMatch \(member)", errno: -r) }
            keep(slot)
        }
        var call: OpaquePointer? = nil
        var r = sd_bus_message_new_method_call(bus, &call, AtspiInterface.registryName, Self.registryPath,
                                               Self.registryInterface, "GetRegisteredEvents")
        guard r >= 0, let call else { throw .sdBus("GetRegisteredEvents", errno: -r) }
        defer { sd_bus_message_unref(call) }
        let answered: sd_bus_message_handler_t = { m, userdata, _ in
            guard let m, let userdata, sd_bus_message_is_method_error(m, nil) == 0 else { return 0 }
            Unmanaged<AccessibilityBus>.fromOpaque(userdata).takeUnretainedValue().readersListed(m)
            return 0
        }
        var slot: OpaquePointer? = nil
        r = sd_bus_call_async(bus, &slot, call, answered, Unmanaged.passUnretained(self).toOpaque(), 0)
        guard r >= 0, let slot else { throw .sdBus("GetRegisteredEvents", errno: -r) }
        keep(slot)
    }

    /// Whether a reader listens for announcements (critical toasts are told by one).
    package var announcementsHeard: Bool { readers.hear("Object:Announcement") }

    /// `a(ss)` or `a(ssas)`: a listener's bus name and event, and the properties it wants sent along.
    private func readersListed(_ m: OpaquePointer) {
        guard sd_bus_message_enter_container(m, CChar(UInt8(ascii: "a")), nil) > 0 else { return }
        changeReaders { readers in
            while sd_bus_message_enter_container(m, CChar(UInt8(ascii: "r")), nil) > 0 {
                if let bus = AtspiReader.string(m), let event = AtspiReader.string(m) { readers.add(bus: bus, event: event) }
                _ = sd_bus_message_exit_container(m)
            }
        }
    }

    /// A signal's `(ss)` or `(ssas)`: the listener's bus name and event.
    private func readerChanged(_ m: OpaquePointer, adds: Bool) {
        guard let bus = AtspiReader.string(m), let event = AtspiReader.string(m) else { return }
        changeReaders { readers in
            if adds { readers.add(bus: bus, event: event) } else { readers.remove(bus: bus, event: event) }
        }
    }

    private func changeReaders(_ change: (inout ReaderEvents) -> Void) {
        let heard = announcementsHeard
        change(&readers)
        if announcementsHeard != heard { onAnnouncementsHeard(announcementsHeard) }
    }
}
