import CSystemd
import Glibc
import ToastPlatform

/// Sets a backlight through logind (`org.freedesktop.login1.Session.SetBrightness` on the caller's
/// session, `/org/freedesktop/login1/session/auto`), which writes the sysfs file for an active session's
/// user: no root, no udev rule. The system bus is opened on the first call and kept (`LoopBus`); the
/// reply comes on a later turn.
package final class LogindBrightness {
    private let loop: EventLoop
    private var systemBus: LoopBus?

    package init(loop: EventLoop) {
        self.loop = loop
    }

    /// The method call that sets `device` to `value` (raw, out of its `max_brightness`), on `bus`.
    package static func message(on bus: OpaquePointer, device: BrightnessDevice, value: Int) throws(DeviceError) -> OpaquePointer {
        var message: OpaquePointer?
        var status = sd_bus_message_new_method_call(bus, &message, "org.freedesktop.login1", "/org/freedesktop/login1/session/auto",
                                                    "org.freedesktop.login1.Session", "SetBrightness")
        if status >= 0, let message {
            status = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), device.deviceClass)
            if status >= 0 { status = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), device.name) }
            var raw = UInt32(clamping: value)
            if status >= 0 { status = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &raw) }
            if status >= 0 { return message }
            sd_bus_message_unref(message)
        }
        throw .failed("cannot build logind's SetBrightness call: \(String(cString: strerror(-status)))")
    }

    /// Asks logind to set `device` to `value`; `done` gets nil once it did, or why not.
    package func set(_ device: BrightnessDevice, to value: Int, done: @escaping (DeviceError?) -> Void) {
        do throws(DeviceError) {
            if systemBus?.bus == nil { systemBus = try LoopBus(.system, loop: loop) }
            guard let connection = systemBus, let bus = connection.bus else { throw .unavailable("no system bus") }
            let message = try Self.message(on: bus, device: device, value: value)
            defer { sd_bus_message_unref(message) }
            try connection.call(message) { reply in
                done(LoopBus.errorText(of: reply).map { .failed("logind refused SetBrightness: \($0)") })
            }
        } catch {
            done(error)
        }
    }
}
