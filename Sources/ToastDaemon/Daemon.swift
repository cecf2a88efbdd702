import CLinux
import Glibc
import ToastCore
import ToastDBus
import ToastProtocol
import ToastRender
import Wayland

/// toastd: one thread, one epoll loop, one model. Requests arrive through the control socket
/// (`ControlSessions`) and D-Bus (`BusFrontDoor`), change the model, and then `modelChanged()` routes
/// the model's events back to whoever waits, redraws the overlays, and arms the one timer.
public final class Daemon {
    public static let version = "0.1.0"

    let options: DaemonOptions
    let loop: EventLoop
    let wayland: WaylandConnection
    private(set) var renderer: ToastRenderer
    let screen: Screen
    var model: ToastModel
    /// Icon names (`app_icon`, `image-path`) to PNG files, cached.
    var icons = IconTheme.fromEnvironment { getenv($0).map { String(cString: $0) } }
    /// The configuration file (nil: neither --config, XDG_CONFIG_HOME nor HOME) and what applies now.
    private let configPath: String?
    private(set) var config: DaemonConfig
    var animator: Animator
    private let timer: DeadlineTimer
    private let signals: SignalWatcher
    private(set) var sessions: ControlSessions!
    private var busDoor: BusFrontDoor?
    private var running = true
    private var waylandReadable = false
    private var busEvents: UInt32 = 0
    private var drawnGeneration: UInt64 = .max
    /// Set by the front doors and the timer instead of calling `modelChanged()` from inside their
    /// handlers: the loop applies the change once per turn, so a reply leaves before the layout and
    /// drawing, and a burst of requests (one read of many lines, many D-Bus calls) costs one redraw.
    var modelNeedsUpdate = false

    /// Connects to the compositor and the bus and opens the socket; throws a message to print.
    public init(options: DaemonOptions) throws(StartupError) {
        self.options = options
        do {
            loop = try EventLoop()
            timer = try DeadlineTimer()
            signals = try SignalWatcher()
        } catch { throw StartupError("\(error)") }
        // The control socket and the bus name first: clients may use them while the rest starts
        // (their requests wait in the socket buffers until the loop runs). The bus name request is
        // answered while we talk to the compositor; its answer is awaited below.
        let socketPath: String
        if let path = options.socketPath {
            socketPath = path
        } else {
            switch SocketPath.resolve({ getenv($0).map { String(cString: $0) } }) {
            case .success(let path): socketPath = path
            case .failure(let error): throw StartupError("\(error)")
            }
        }
        let server: ControlServer
        do {
            server = try ControlServer(path: socketPath, loop: loop)
        } catch {
            throw StartupError("\(error)")
        }
        var door: BusFrontDoor?
        if options.dbus {
            door = BusFrontDoor()
            do {
                try door?.connect(replace: options.replace)
            } catch .noSessionBus {
                Log.info("no D-Bus session bus; serving the control socket only")
                door = nil
            } catch {
                throw StartupError("\(error)")
            }
        }

        do {
            wayland = try WaylandConnection()
        } catch {
            throw StartupError("cannot use the Wayland display: \(error)")
        }
        configPath = options.configPath ?? ConfigFile.defaultPath { getenv($0).map { String(cString: $0) } }
        config = DaemonConfig()
        if let configPath, let loaded = ConfigFile.load(configPath, explicit: options.configPath != nil) {
            config = loaded.parsed.config
            if loaded.found { Log.info("config \(configPath) (\(loaded.parsed.warningCount) warnings)") }
        }
        model = ToastModel(notifications: config.notifications, hud: config.hud)
        renderer = ToastRenderer(style: config.style)
        animator = Animator(animations: options.animations && config.animations)
        screen = Screen(wayland: wayland, renderer: renderer, outputName: options.output ?? config.output)
        screen.clickableActions = options.clickableActions || config.clickableActions
        screen.reconfigure(renderer: renderer, outputName: options.output ?? config.output,
                           toasts: Self.toastPlacement(config), hud: Self.hudPlacement(config))
        screen.sceneProvider = { [unowned self] in
            self.animator.scene(for: self.model, now: self.now(), maxVisible: self.renderer.style.maxVisible)
        }
        sessions = ControlSessions(server: server)
        sessions.daemon = self
        screen.onActionClicked = { [unowned self] id, index in self.actionClicked(id: id, index: index) }

        if let door {
            door.daemon = self
            do {
                try door.finishConnecting()
                busDoor = door
            } catch .noSessionBus {
                Log.info("no D-Bus session bus; serving the control socket only")
            } catch {
                throw StartupError("\(error)")
            }
        }

        do {
            try loop.add(fd: wayland.display.fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in
                self.waylandReadable = true
            }
            try loop.add(fd: timer.fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in
                self.timer.acknowledge()
                self.model.advance(to: self.now())
                self.modelNeedsUpdate = true
            }
            try loop.add(fd: signals.fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in
                for signal in self.signals.drain() {
                    if signal == SIGHUP {
                        self.reloadConfig()
                    } else {
                        Log.info("signal \(signal): exiting")
                        self.running = false
                    }
                }
            }
            if let bus = busDoor?.bus {
                busEvents = bus.epollEvents
                try loop.add(fd: bus.fd, events: busEvents) { _ in }  // processed at the top of each turn
            }
        } catch {
            throw StartupError("\(error)")
        }
        // Fontconfig and Pango cost ~10 ms the first time: pay it now, not with the first toast.
        renderer.prewarm(scale: wayland.outputs.map(\.scale).max() ?? 1)
        Log.info("ready: socket \(socketPath)\(busDoor == nil ? "" : ", bus name \(NotificationsBus.busName)")")
    }

    /// Runs until SIGINT/SIGTERM or until the compositor goes away; returns the exit status.
    public func run() -> Int32 {
        let display = wayland.display
        do {
            while running {
                // Bus first: its calls may change the model and so queue Wayland requests,
                // which the flush below must send before the loop sleeps.
                var timeout = processBus()
                while modelNeedsUpdate {
                    modelNeedsUpdate = false
                    modelChanged()
                    timeout = processBus()  // sends the signals modelChanged queued
                }
                while !display.prepareRead() { _ = try display.dispatchPending() }
                _ = try display.flush()
                waylandReadable = false
                loop.wait(timeoutMilliseconds: timeout)
                if waylandReadable { try display.readEvents() } else { display.cancelRead() }
                _ = try display.dispatchPending()
            }
        } catch {
            Log.error("Wayland connection lost: \(error)")
            return 1
        }
        _ = try? display.flush()
        return 0
    }

    /// Drains sd-bus before sleeping; returns how long the loop may sleep for it (-1: forever).
    private func processBus() -> Int32 {
        guard let door = busDoor, let bus = door.bus else { return -1 }
        do {
            try bus.process()
        } catch {
            Log.warning("D-Bus: \(error); serving the control socket only")
            loop.remove(fd: bus.fd)
            busDoor = nil
            return -1
        }
        let events = bus.epollEvents
        if events != busEvents {
            busEvents = events
            loop.modify(fd: bus.fd, events: events)
        }
        return bus.timeoutMilliseconds
    }

    /// SIGHUP: reads the configuration file again and applies it. Look, placement and output apply at
    /// once (the overlays are remade); timeouts and history apply to what comes next. An unusable file
    /// (unreadable, binary) changes nothing; bad lines are skipped as at startup.
    func reloadConfig() {
        guard let configPath else {
            Log.info("config reloaded (no configuration file: neither XDG_CONFIG_HOME nor HOME is set)")
            return
        }
        guard let loaded = ConfigFile.load(configPath, explicit: options.configPath != nil) else {
            Log.warning("config not reloaded; keeping the one in use")
            return
        }
        apply(loaded.parsed.config)
        Log.info("config reloaded (\(loaded.parsed.warningCount) warnings)")
    }

    private func apply(_ new: DaemonConfig) {
        let old = config
        config = new
        model.reconfigure(notifications: new.notifications, hud: new.hud)
        let animations = options.animations && new.animations
        screen.clickableActions = options.clickableActions || new.clickableActions
        if animations != animator.animationsEnabled { animator = Animator(animations: animations) }
        if new.style != old.style {
            renderer = ToastRenderer(style: new.style)
            renderer.prewarm(scale: wayland.outputs.map(\.scale).max() ?? 1)
        }
        if new.style != old.style || new.anchor != old.anchor || new.margins != old.margins
            || new.hudAnchor != old.hudAnchor || new.hudMargins != old.hudMargins || new.output != old.output {
            screen.reconfigure(renderer: renderer, outputName: options.output ?? new.output,
                               toasts: Self.toastPlacement(new), hud: Self.hudPlacement(new))
        }
        modelChanged()
    }

    static func toastPlacement(_ config: DaemonConfig) -> OverlaySurface.Placement {
        OverlaySurface.Placement(anchor: config.anchor, margins: config.margins)
    }

    static func hudPlacement(_ config: DaemonConfig) -> OverlaySurface.Placement {
        OverlaySurface.Placement(anchor: config.hudAnchor, margins: config.hudMargins)
    }

    /// A click on a toast's action pill (`clickable-actions`): the same as `toast action ID KEY`.
    private func actionClicked(id: NotificationID, index: Int) {
        // The pills are drawn from `buttonActions`, in order; a toast already gone (fading out) has none.
        guard let actions = model.notification(id: id)?.buttonActions, actions.indices.contains(index) else { return }
        do {
            try model.invokeAction(id: id, key: actions[index].key, now: now())
            modelNeedsUpdate = true
        } catch {
            Log.warning("action \(actions[index].key) of \(id): \(error)")
        }
    }

    /// Monotonic now, the model's clock.
    func now() -> Instant {
        let ns = MonotonicClock.nanoseconds()
        return Instant(milliseconds: ns / 1_000_000)
    }

    /// After every change to the model: route events, redraw what changed, arm the timer.
    func modelChanged() {
        for event in model.drainEvents() {
            switch event {
            case .closed(let id, let reason, _):
                sessions.send(.closed(id: id, reason: Requests.protocolReason(reason)))
                busDoor?.bus?.emitClosed(id: id, reason: Requests.busReason(reason))
            case .actionInvoked(let id, let key, _):
                sessions.send(.action(id: id, key: key))
                busDoor?.bus?.emitActionInvoked(id: id, key: key)
            case .replaced, .loadingChanged:
                break
            }
        }
        // Only a change to what is drawn redraws; animation frames are paced by the surfaces themselves.
        if model.generation != drawnGeneration {
            drawnGeneration = model.generation
            screen.update()
        }
        timer.arm(at: model.nextDeadline.map { $0.milliseconds * 1_000_000 })
    }
}

/// Why toastd could not start: one line for the user.
public struct StartupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
