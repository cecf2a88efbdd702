import CLinux
import CPulse
import Glibc
import ToastPlatform

/// libpulse's main loop vtable (`pa_mainloop_api`) served by the daemon's own `EventLoop`: libpulse's
/// sockets are fds in the one epoll set, its timers are timerfds there, and its deferred events run
/// from an eventfd that stays readable while any is enabled. No thread, no second loop, and nothing
/// wakes the daemon while the sound server says nothing.
///
/// Every event object handed to libpulse is a retained Swift object (`IOWatch`, `TimeWatch`,
/// `DeferWatch`) whose pointer is the opaque `pa_*_event*`; libpulse's `*_free` releases it.
final class PulseMainloop {
    let loop: EventLoop
    /// The vtable libpulse calls; its `userdata` is this object (unretained: it owns the vtable).
    let api: UnsafeMutablePointer<pa_mainloop_api>
    /// Readable while a deferred event is enabled (level-triggered: the loop comes back each turn).
    private let deferFD: Int32
    private var defers: [DeferWatch] = []
    private var deferSignalled = false

    init(loop: EventLoop) throws(SystemError) {
        self.loop = loop
        deferFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        if deferFD < 0 { throw SystemError("eventfd") }
        api = .allocate(capacity: 1)
        api.initialize(to: Self.vtable)
        api.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
        do {
            try loop.add(fd: deferFD, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in self.runDeferred() }
        } catch {
            close(deferFD)
            api.deallocate()
            throw error
        }
    }

    deinit {
        loop.remove(fd: deferFD)
        close(deferFD)
        api.deallocate()
    }

    static func from(_ api: UnsafeMutablePointer<pa_mainloop_api>?) -> PulseMainloop {
        Unmanaged<PulseMainloop>.fromOpaque(api!.pointee.userdata).takeUnretainedValue()
    }

    // MARK: Deferred events

    /// Runs the enabled deferred events once (libpulse's stream writes its queued packets from one).
    private func runDeferred() {
        // A copy: a callback may free or add deferred events.
        for watch in defers where watch.enabled && !watch.freed {
            watch.callback?(api, OpaquePointer(Unmanaged.passUnretained(watch).toOpaque()), watch.userdata)
        }
        signalDefers()
    }

    /// Keeps the eventfd readable exactly while some deferred event is enabled.
    fileprivate func signalDefers() {
        let wanted = defers.contains { $0.enabled && !$0.freed }
        guard wanted != deferSignalled else { return }
        deferSignalled = wanted
        var count: UInt64 = 1
        if wanted {
            _ = write(deferFD, &count, MemoryLayout<UInt64>.size)
        } else {
            _ = read(deferFD, &count, MemoryLayout<UInt64>.size)
        }
    }

    fileprivate func add(_ watch: DeferWatch) {
        defers.append(watch)
        signalDefers()
    }

    fileprivate func remove(_ watch: DeferWatch) {
        defers.removeAll { $0 === watch }
        signalDefers()
    }

    // MARK: The vtable

    private static var vtable: pa_mainloop_api {
        pa_mainloop_api(
        userdata: nil,
        io_new: { api, fd, events, callback, userdata in
            let watch = IOWatch(mainloop: PulseMainloop.from(api), fd: fd, callback: callback, userdata: userdata)
            watch.enable(events)
            return watch.pointer
        },
        io_enable: { event, events in IOWatch.of(event).enable(events) },
        io_free: { event in Unmanaged<IOWatch>.fromOpaque(UnsafeRawPointer(event!)).takeRetainedValue().free() },
        io_set_destroy: { event, destroy in IOWatch.of(event).destroy = destroy },
        time_new: { api, deadline, callback, userdata in
            let watch = TimeWatch(mainloop: PulseMainloop.from(api), callback: callback, userdata: userdata)
            watch.restart(deadline)
            return watch.pointer
        },
        time_restart: { event, deadline in TimeWatch.of(event).restart(deadline) },
        time_free: { event in Unmanaged<TimeWatch>.fromOpaque(UnsafeRawPointer(event!)).takeRetainedValue().free() },
        time_set_destroy: { event, destroy in TimeWatch.of(event).destroy = destroy },
        defer_new: { api, callback, userdata in
            let mainloop = PulseMainloop.from(api)
            let watch = DeferWatch(mainloop: mainloop, callback: callback, userdata: userdata)
            mainloop.add(watch)
            return watch.pointer
        },
        defer_enable: { event, enabled in
            let watch = DeferWatch.of(event)
            watch.enabled = enabled != 0
            watch.mainloop.signalDefers()
        },
        defer_free: { event in Unmanaged<DeferWatch>.fromOpaque(UnsafeRawPointer(event!)).takeRetainedValue().free() },
        defer_set_destroy: { event, destroy in DeferWatch.of(event).destroy = destroy },
        quit: { _, _ in })
    }
}

/// An fd libpulse watches (`pa_io_event`). Watched in epoll only while libpulse wants events on it: an
/// fd left in the set with no events would still report a hang-up, at every turn.
private final class IOWatch {
    unowned let mainloop: PulseMainloop
    let fd: Int32
    let callback: pa_io_event_cb_t?
    let userdata: UnsafeMutableRawPointer?
    var destroy: pa_io_event_destroy_cb_t?
    private var watched: UInt32 = 0

    init(mainloop: PulseMainloop, fd: Int32, callback: pa_io_event_cb_t?, userdata: UnsafeMutableRawPointer?) {
        self.mainloop = mainloop
        self.fd = fd
        self.callback = callback
        self.userdata = userdata
    }

    /// The opaque event pointer libpulse keeps: this object, retained once (taken at creation only),
    /// released by `io_free`.
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    static func of(_ event: OpaquePointer?) -> IOWatch {
        Unmanaged<IOWatch>.fromOpaque(UnsafeRawPointer(event!)).takeUnretainedValue()
    }

    func enable(_ flags: pa_io_event_flags_t) {
        var events: UInt32 = 0
        if flags.rawValue & PA_IO_EVENT_INPUT.rawValue != 0 { events |= UInt32(EPOLLIN.rawValue) }
        if flags.rawValue & PA_IO_EVENT_OUTPUT.rawValue != 0 { events |= UInt32(EPOLLOUT.rawValue) }
        guard events != watched else { return }
        if events == 0 {
            mainloop.loop.remove(fd: fd)
        } else if watched == 0 {
            let pointer = OpaquePointer(Unmanaged.passUnretained(self).toOpaque())
            do {
                try mainloop.loop.add(fd: fd, events: events) { [unowned self] ready in self.fire(ready, pointer) }
            } catch {
                // An fd epoll refuses: libpulse learns of the failure from its next read or write.
                Log.warning("sound server: \(error)")
                return
            }
        } else {
            mainloop.loop.modify(fd: fd, events: events)
        }
        watched = events
    }

    private func fire(_ ready: UInt32, _ pointer: OpaquePointer) {
        var flags = PA_IO_EVENT_NULL.rawValue
        if ready & UInt32(EPOLLIN.rawValue) != 0 { flags |= PA_IO_EVENT_INPUT.rawValue }
        if ready & UInt32(EPOLLOUT.rawValue) != 0 { flags |= PA_IO_EVENT_OUTPUT.rawValue }
        if ready & UInt32(EPOLLHUP.rawValue) != 0 { flags |= PA_IO_EVENT_HANGUP.rawValue }
        if ready & UInt32(EPOLLERR.rawValue) != 0 { flags |= PA_IO_EVENT_ERROR.rawValue }
        callback?(mainloop.api, pointer, fd, pa_io_event_flags_t(rawValue: flags), userdata)
    }

    func free() {
        if watched != 0 { mainloop.loop.remove(fd: fd) }
        watched = 0
        destroy?(mainloop.api, OpaquePointer(Unmanaged.passUnretained(self).toOpaque()), userdata)
    }
}

/// A deadline libpulse set (`pa_time_event`): a timerfd of its own, on the clock the deadline names.
private final class TimeWatch {
    unowned let mainloop: PulseMainloop
    let callback: pa_time_event_cb_t?
    let userdata: UnsafeMutableRawPointer?
    var destroy: pa_time_event_destroy_cb_t?
    private var fd: Int32 = -1
    private var clock: Int32 = -1
    private var deadline = timeval()

    init(mainloop: PulseMainloop, callback: pa_time_event_cb_t?, userdata: UnsafeMutableRawPointer?) {
        self.mainloop = mainloop
        self.callback = callback
        self.userdata = userdata
    }

    /// Retained once, at creation; released by `time_free`.
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    static func of(_ event: OpaquePointer?) -> TimeWatch {
        Unmanaged<TimeWatch>.fromOpaque(UnsafeRawPointer(event!)).takeUnretainedValue()
    }

    /// Arms at `deadline` (nil: disarms). A deadline with libpulse's rtclock bit is CLOCK_MONOTONIC,
    /// any other the wall clock.
    func restart(_ deadline: UnsafePointer<timeval>?) {
        guard let deadline else {
            if fd >= 0 { var off = itimerspec(); _ = timerfd_settime(fd, 0, &off, nil) }
            return
        }
        var at = deadline.pointee
        let monotonic = at.tv_usec & Int(toastd_pulse_timeval_rtclock) != 0
        at.tv_usec &= ~Int(toastd_pulse_timeval_rtclock)
        self.deadline = deadline.pointee
        let wanted = monotonic ? CLOCK_MONOTONIC : CLOCK_REALTIME
        if fd < 0 || clock != wanted {
            if fd >= 0 { mainloop.loop.remove(fd: fd); close(fd) }
            fd = timerfd_create(wanted, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
            clock = wanted
            guard fd >= 0 else { Log.warning("sound server: \(SystemError("timerfd_create"))"); return }
            let pointer = OpaquePointer(Unmanaged.passUnretained(self).toOpaque())
            do {
                try mainloop.loop.add(fd: fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in self.fire(pointer) }
            } catch {
                Log.warning("sound server: \(error)")
            }
        }
        // A zero it_value disarms: a deadline at the epoch (never in practice) is nudged to 1 µs.
        var spec = itimerspec()
        spec.it_value = timespec(tv_sec: at.tv_sec, tv_nsec: max(at.tv_usec * 1000, at.tv_sec == 0 ? 1000 : 0))
        _ = timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    private func fire(_ pointer: OpaquePointer) {
        var expirations: UInt64 = 0
        guard read(fd, &expirations, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size else { return }
        withUnsafePointer(to: deadline) { callback?(mainloop.api, pointer, $0, userdata) }
    }

    func free() {
        if fd >= 0 { mainloop.loop.remove(fd: fd); close(fd) }
        fd = -1
        destroy?(mainloop.api, OpaquePointer(Unmanaged.passUnretained(self).toOpaque()), userdata)
    }
}

/// Work libpulse wants done on the next turn while enabled (`pa_defer_event`).
private final class DeferWatch {
    unowned let mainloop: PulseMainloop
    let callback: pa_defer_event_cb_t?
    let userdata: UnsafeMutableRawPointer?
    var destroy: pa_defer_event_destroy_cb_t?
    var enabled = true
    var freed = false

    init(mainloop: PulseMainloop, callback: pa_defer_event_cb_t?, userdata: UnsafeMutableRawPointer?) {
        self.mainloop = mainloop
        self.callback = callback
        self.userdata = userdata
    }

    /// Retained once for libpulse (released by `defer_free`); the main loop's list holds its own reference.
    var pointer: OpaquePointer { OpaquePointer(Unmanaged.passRetained(self).toOpaque()) }

    static func of(_ event: OpaquePointer?) -> DeferWatch {
        Unmanaged<DeferWatch>.fromOpaque(UnsafeRawPointer(event!)).takeUnretainedValue()
    }

    func free() {
        freed = true
        enabled = false
        destroy?(mainloop.api, OpaquePointer(Unmanaged.passUnretained(self).toOpaque()), userdata)
        mainloop.remove(self)
    }
}
