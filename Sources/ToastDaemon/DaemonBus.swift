import Glibc
import ToastCore
import ToastDBus
import ToastPlatform
import ToastRender
import ToastVocabulary

/// How epoll watches the bus's fd, and whether sd-bus has work left from the last turn.
struct BusWatch {
    var events: UInt32 = 0
    /// epoll reported the bus's fd since sd-bus last processed it (at start: whatever came while connecting).
    var readable = true
    /// The last `processBus` stopped at its budget with work left.
    var unfinished = false
}

extension Daemon {
    /// Asks for org.freedesktop.Notifications (nil: `--no-dbus`, or no session bus); the answer is
    /// awaited by `finishBusName`, so that the screen is set up meanwhile.
    static func requestBusName(_ options: DaemonOptions, service: ToastService) throws(StartupError) -> BusFrontDoor? {
        guard options.dbus else { return nil }
        let door = BusFrontDoor(service: service)
        do {
            try door.connect(replace: options.replace)
        } catch .noSessionBus {
            Log.info("no D-Bus session bus; serving the control socket only")
            return nil
        } catch {
            throw StartupError("\(error)")
        }
        return door
    }

    /// Awaits the name's answer. Another daemon taking the name later (`toastd --replace`) ends this
    /// one: it has the socket too, so this one's work is done, and stopping cleanly (status 0) keeps a
    /// supervisor from restarting it.
    func finishBusName(_ door: BusFrontDoor) throws(StartupError) {
        do {
            try door.finishConnecting()
        } catch .noSessionBus {
            Log.info("no D-Bus session bus; serving the control socket only")
            return
        } catch {
            throw StartupError("\(error)")
        }
        busDoor = door
        Self.awaitExit(ofReplaced: door.bus?.replacedPID)
        door.onNameLost = { [unowned self] in
            Log.info("another daemon took \(NotificationsBus.busName) (toastd --replace): exiting")
            self.running = false
        }
    }

    /// Whether sd-bus has work now: its fd was readable (or writable while it queued writes), it stopped
    /// at its budget, it wants to be called now (`timeout` 0: a message read ahead while waiting for a
    /// reply, a call timed out), or a write queued since asks epoll for other events.
    func busIsDue(_ bus: NotificationsBus, timeout: Int32) -> Bool {
        busWatch.readable || busWatch.unfinished || timeout == 0 || bus.epollEvents != busWatch.events
    }

    /// Drains sd-bus before sleeping; returns how long the loop may sleep for it (-1: forever).
    /// A turn woken by something else (a HUD stream's value, the compositor's answer) leaves it alone:
    /// `sd_bus_process` then only learnt from a read that nothing came, twice per HUD value. Such a turn
    /// asks sd-bus for its timeout once (it asked twice, each time reading the clock too).
    func processBus() -> Int32 {
        guard let door = busDoor, let bus = door.bus else { return -1 }
        bus.holdsOutput = true
        let timeout = bus.timeoutMilliseconds
        guard busIsDue(bus, timeout: timeout) else { return timeout }
        busWatch.readable = false
        let unfinished: Bool
        do {
            // A few milliseconds at a time: the socket's clients and the compositor are served
            // between the slices of a huge message.
            unfinished = try bus.process(budget: 2_000)
        } catch {
            Log.warning("D-Bus: \(error); serving the control socket only")
            loop.remove(fd: bus.fd)
            busDoor = nil
            return -1
        }
        busWatch.unfinished = unfinished
        watchBus(bus)
        return unfinished ? 0 : bus.timeoutMilliseconds
    }

    /// Writes the replies and signals the turn held (`NotificationsBus.holdsOutput`: all the daemon
    /// sends on the bus, as signals are emitted only by `serviceChanged`), once its Wayland requests
    /// are flushed. sd-bus writes them at once, unless the socket is full, which leaves them queued and
    /// the bus asking for EPOLLOUT: the loop then watches for that, and otherwise sleeps until the bus's
    /// own deadline instead of turning again at once (that turn cost every `Notify` an `epoll_wait` and
    /// a read that found nothing). A turn that sent nothing leaves the watch as it was.
    func sendBusOutput() {
        guard let bus = busDoor?.bus, bus.sendHeld() > 0 else { return }
        watchBus(bus)
    }

    /// Tells epoll what sd-bus waits for now (readable, or writable too while it has writes queued).
    func watchBus(_ bus: NotificationsBus) {
        let events = bus.epollEvents
        if events != busWatch.events {
            busWatch.events = events
            loop.modify(fd: bus.fd, events: events)
        }
    }
}
