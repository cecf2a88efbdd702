import CSystemd
import Glibc
import ToastPlatform

/// Sets a backlight through logind (`org.freedesktop.login1.Session.SetBrightness` on the caller's
/// session, `/org/freedesktop/login1/session/auto`), which writes the sysfs file for an active session's
/// user: no root, no udev rule. The system bus is opened on the first call and kept, its fd in the
/// daemon's loop and its deadlines on a timerfd there; the reply comes on a later turn.
package final class LogindBrightness {
    private let loop: EventLoop
    private var bus: OpaquePointer?
    private var timer: DeadlineTimer?
    private var watched: UInt32 = 0

    package init(loop: EventLoop) {
        self.loop = loop
    }

    deinit { close() }

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
            let bus = try open()
            let message = try Self.message(on: bus, device: device, value: value)
            defer { sd_bus_message_unref(message) }
            let box = Unmanaged.passRetained(ReplyBox(done))
            let status = sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
                let done = Unmanaged<ReplyBox>.fromOpaque(userdata!).takeRetainedValue().done
                if let error = sd_bus_message_get_error(reply), error.pointee.name != nil {
                    let text = error.pointee.message.map { String(cString: $0) } ?? String(cString: error.pointee.name)
                    done(.failed("logind refused SetBrightness: \(text)"))
                } else {
                    done(nil)
                }
                return 1
            }, box.toOpaque(), 5_000_000)
            guard status >= 0 else {
                box.release()
                throw DeviceError.failed("cannot call logind: \(String(cString: strerror(-status)))")
            }
            process()
        } catch {
            done(error)
        }
    }

    private final class ReplyBox {
        let done: (DeviceError?) -> Void
        init(_ done: @escaping (DeviceError?) -> Void) { self.done = done }
    }

    private func open() throws(DeviceError) -> OpaquePointer {
        if let bus { return bus }
        var opened: OpaquePointer?
        let status = sd_bus_open_system(&opened)
        guard status >= 0, let opened else {
            throw .unavailable("no system bus for logind (\(String(cString: strerror(-status)))), and the backlight is not writable")
        }
        do {
            timer = try DeadlineTimer()
            try loop.add(fd: timer!.fd, events: EventLoop.readable) { [unowned self] _ in
                self.timer?.acknowledge()
                self.process()
            }
        } catch {
            sd_bus_unref(opened)
            throw .failed("\(error)")
        }
        bus = opened
        return opened
    }

    /// Lets sd-bus do its work (the write, the reply, a deadline), then watches what it waits for.
    private func process() {
        guard let bus else { return }
        while true {
            let status = sd_bus_process(bus, nil)
            if status < 0 {
                Log.warning("logind: \(String(cString: strerror(-status)))")
                return close()
            }
            if status == 0 { break }
        }
        let events = UInt32(bitPattern: sd_bus_get_events(bus))
        let fd = sd_bus_get_fd(bus)
        if watched == 0 {
            try? loop.add(fd: fd, events: events) { [unowned self] _ in self.process() }
        } else if events != watched {
            loop.modify(fd: fd, events: events)
        }
        watched = events
        var usec: UInt64 = 0
        if sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max {
            timer?.arm(at: Int64(clamping: usec) * 1000, keepingEarlier: false)
        } else {
            timer?.arm(at: nil)
        }
    }

    private func close() {
        if let bus {
            if watched != 0 { loop.remove(fd: sd_bus_get_fd(bus)) }
            sd_bus_flush_close_unref(bus)
        }
        if let timer { loop.remove(fd: timer.fd) }
        bus = nil
        timer = nil
        watched = 0
    }
}
