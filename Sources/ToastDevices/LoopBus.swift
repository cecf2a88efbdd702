import CSystemd
import Glibc
import ToastPlatform

/// An sd-bus connection of toastd's own (the system bus for logind, the session bus for media
/// players), served by the daemon's loop: its fd in the epoll set, its deadlines (a call's timeout) on
/// a timerfd there. Calls are asynchronous; their replies come on a later turn.
package final class LoopBus {
    package enum Kind { case system, session }

    private let loop: EventLoop
    package private(set) var bus: OpaquePointer?
    private var timer: DeadlineTimer?
    private var watched: UInt32 = 0
    /// Inside `sd_bus_process` (a reply's callback calling again): sd-bus refuses to be entered twice,
    /// and the outer call goes on until everything queued is done.
    private var processing = false

    /// Opens the bus of `kind` and watches it; throws the reason it cannot.
    package init(_ kind: Kind, loop: EventLoop) throws(DeviceError) {
        self.loop = loop
        var opened: OpaquePointer?
        let status = kind == .system ? sd_bus_open_system(&opened) : sd_bus_open_user(&opened)
        guard status >= 0, let opened else {
            throw .unavailable("no \(kind == .system ? "system" : "session") bus (\(String(cString: strerror(-status))))")
        }
        bus = opened
        do {
            let timer = try DeadlineTimer()
            try loop.add(fd: timer.fd, events: EventLoop.readable) { [unowned self] _ in
                self.timer?.acknowledge()
                self.process()
            }
            self.timer = timer
        } catch {
            close()
            throw .failed("\(error)")
        }
    }

    deinit { close() }

    /// Lets sd-bus do its work (writes, replies, signals, deadlines), then watches what it waits for.
    package func process() {
        guard let bus, !processing else { return }
        processing = true
        while true {
            let status = sd_bus_process(bus, nil)
            if status < 0 {
                processing = false
                Log.warning("bus: \(String(cString: strerror(-status)))")
                return close()
            }
            if status == 0 { break }
        }
        processing = false
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

    /// Sends `message` (a method call) and hands its reply, or the error sd-bus made of a timeout or a
    /// lost connection, to `done`; `message` stays the caller's.
    package func call(_ message: OpaquePointer, done: @escaping (OpaquePointer?) -> Void) throws(DeviceError) {
        guard let bus else { throw .unavailable("the bus connection is closed") }
        let box = Unmanaged.passRetained(ReplyBox(done))
        let status = sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
            Unmanaged<ReplyBox>.fromOpaque(userdata!).takeRetainedValue().done(reply)
            return 1
        }, box.toOpaque(), 5_000_000)
        guard status >= 0 else {
            box.release()
            throw .failed("cannot call \(String(cString: strerror(-status)))")
        }
        process()
    }

    /// The error a reply carries, in words; nil for a successful reply.
    package static func errorText(of reply: OpaquePointer?) -> String? {
        guard let reply else { return "no reply" }
        guard let error = sd_bus_message_get_error(reply), error.pointee.name != nil else { return nil }
        return error.pointee.message.map { String(cString: $0) } ?? String(cString: error.pointee.name)
    }

    private final class ReplyBox {
        let done: (OpaquePointer?) -> Void
        init(_ done: @escaping (OpaquePointer?) -> Void) { self.done = done }
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
