import ToastConfig
import ToastPlatform
import ToastScene
import CLinux
import Glibc
import ToastCore
import ToastDBus
import ToastProtocol
import ToastRender
import ToastVocabulary
import Wayland

/// toastd: one thread, one epoll loop, one service. Requests arrive through the control socket
/// (`SocketFrontDoor`) and D-Bus (`BusFrontDoor`), which call the `ToastService`; once per loop turn
/// `serviceChanged()` routes the service's events back through the doors, redraws the overlays, and
/// arms the one timer.
public final class Daemon {
    let options: DaemonOptions
    let loop: EventLoop
    let wayland: WaylandConnection
    private(set) var renderer: ToastRenderer
    let screen: Screen
    let service: ToastService
    /// The configuration file (nil: neither --config, XDG_CONFIG_HOME nor HOME) and what applies now.
    private let configPath: String?
    private(set) var config: DaemonConfig
    var animator: Animator
    private let timer: DeadlineTimer
    private let signals: SignalWatcher
    /// The `exec` bindings' children.
    private let commands = CommandRunner()
    let socketDoor: SocketFrontDoor
    private var busDoor: BusFrontDoor?
    /// Saves the history to its file (nil: `persistent-history = false`, or no state directory).
    private var historyKeeper: HistoryKeeper?
    /// The history file is read once per run, whenever persistence first applies.
    private var historyLoaded = false
    /// Plays notification sounds (`sound-command`).
    private var soundPlayer: SoundPlayer
    private var running = true
    private var waylandReadable = false
    private var busEvents: UInt32 = 0
    /// epoll reported the bus's fd since sd-bus last processed it (at start: whatever came while connecting).
    private var busReadable = true
    /// The last `processBus` stopped at its budget with work left.
    private var busUnfinished = false
    private var drawnGeneration: UInt64 = .max
    private var drawnHudGeneration: UInt64 = .max
    /// When the spinner drawn last turns its next step (the last scene's `nextStep`): the timer wakes
    /// the daemon then to draw it.
    private var spinnerStep: Instant?
    /// The frame deadline the timer was armed with: one gone since (its frame came) is disarmed.
    private var frameDeadlineArming = FrameDeadlineArming()
    /// When memory goes back to the system (`returnMemoryIfDue`).
    var memoryPolicy = MemoryReturnPolicy()
    /// The notification center (`Daemon+Center.swift`).
    lazy var center = CenterController(wayland: wayland, service: service, screen: screen)

    /// Connects to the compositor and the bus and opens the socket; throws a message to print.
    public init(options: DaemonOptions) throws(StartupError) {
        self.options = options
        do {
            loop = try EventLoop()
            timer = try DeadlineTimer()
            signals = try SignalWatcher()
        } catch { throw StartupError("\(error)") }
        // The control socket first: clients may use it while the rest starts (their requests wait in
        // the socket buffers until the loop runs). The bus name request is answered while we set up the
        // screen; its answer is awaited below.
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
            server = try ControlServer(path: socketPath, loop: loop, takeOver: options.replace)
        } catch {
            throw StartupError("\(error)")
        }
        if server.tookOver { Log.info("took over the control socket \(socketPath) (--replace)") }
        configPath = options.configPath ?? ConfigFile.defaultPath { getenv($0).map { String(cString: $0) } }
        config = DaemonConfig()
        if let configPath {
            let loaded = ConfigFile.load(configPath, explicit: options.configPath != nil)
            if let parsed = loaded.parsed { config = parsed.config }
            if loaded.found { Log.info("config \(configPath) (\(loaded.warnings.count) warnings)") }
        }
        let icons = Self.iconTheme(config)
        let pictureWorker: PictureWorker
        do {
            pictureWorker = try PictureWorker()
        } catch { throw StartupError("\(error)") }
        service = ToastService(model: ToastModel(notifications: config.notifications, hud: config.hud),
                               pictures: PictureLoader(icons: icons), pictureWorker: pictureWorker, clock: Self.now)
        service.rules = config.rules
        soundPlayer = SoundPlayer(configured: config.soundCommand) { getenv($0).map { String(cString: $0) } }
        socketDoor = SocketFrontDoor(server: server, service: service)
        do {
            wayland = try WaylandConnection()
        } catch {
            throw StartupError(compositor: error)
        }
        // The bus name only once the compositor took us: a toastd started by D-Bus activation without
        // a display (WAYLAND_DISPLAY missing from the activation environment) then fails the activation
        // at once, with its exit status, instead of owning the name and leaving callers without a reply.
        var door: BusFrontDoor?
        if options.dbus {
            door = BusFrontDoor(service: service)
            do {
                try door?.connect(replace: options.replace)
            } catch .noSessionBus {
                Log.info("no D-Bus session bus; serving the control socket only")
                door = nil
            } catch {
                throw StartupError("\(error)")
            }
        }
        renderer = ToastRenderer(style: config.style)
        animator = Animator(animations: options.animations && config.animations)
        animator.restyle(rules: config.rules, style: config.style)
        screen = Screen(wayland: wayland, renderer: renderer)
        warnIfUnknown(output: options.output ?? config.output)
        screen.clickableActions = options.clickableActions || config.clickableActions
        screen.reconfigure(renderer: renderer, hudOutput: hudOutput(config), defaultStack: stackDefaults(config).key,
                           toasts: Self.toastPlacement(config), hud: Self.hudPlacement(config))
        placeToasts()
        Log.info(wayland.toplevels == nil
                 ? "output: the compositor's choice (it offers no zwlr_foreign_toplevel_manager_v1)"
                 : "output: \(stackDefaults(config).output.configValue) (focus from zwlr_foreign_toplevel_manager_v1)")
        screen.sceneProvider = { [unowned self] in
            var scene = self.animator.scene(for: self.service.model, now: Self.now(), maxVisible: self.renderer.style.maxVisible)
            self.spinnerStep = scene.nextStep
            if scene.huds.contains(where: { if case .bar = $0 { true } else { false } }) {
                scene.huds = scene.huds.map { hud in
                    guard case .bar(let bar) = hud else { return hud }
                    return .bar(self.withIcon(bar))
                }
            }
            return scene
        }
        socketDoor.onReload = { [unowned self] in self.reloadConfig() }
        socketDoor.settings = { [unowned self] in DaemonSettings(clickableActions: self.screen.clickableActions) }
        let streams = HudStreams(loop: loop)
        streams.onValue = { [unowned self] bar, value, muted in
            do {
                try self.service.showBar(kind: bar.kind, value: value, muted: muted, label: bar.label, icon: bar.icon)
                return nil
            } catch {
                return "\(error)"
            }
        }
        socketDoor.hudStreams = streams
        screen.onActionClicked = { [unowned self] id, index, press in
            // The token first (spec 1.3: ActivationToken before ActionInvoked), then the action.
            let appID = self.service.model.notification(id: id)?.desktopEntry
            self.wayland.requestActivationToken(for: press, appID: appID) { [unowned self] token in
                self.service.invokeButton(id: id, index: index, activationToken: token)
            }
        }
        screen.onToastClicked = { [unowned self] id, press in self.service.click(id: id, button: press.button) }
        screen.onToastsDrawn = { [unowned self] ids in self.service.displayed(ids) }
        screen.onNothingShown = { [unowned self] in self.memoryPolicy.screenEmptied() }
        screen.onSettled = { [unowned self] in self.memoryPolicy.screenSettled() }
        service.playSound = { [unowned self] sound, app in self.soundPlayer.play(sound, app: app) }
        service.pictureTarget = { [unowned self] in
            PictureLoader.Target(size: self.service.rules.largestImageSize(base: self.renderer.style.imageSize), scale: self.wayland.outputs.map(\.scale).max() ?? 1,
                                 tint: self.renderer.style.bodyColor,
                                 wanted: self.service.rules.mayShowImages(base: self.renderer.style.showsImages))
        }

        if let door {
            do {
                try door.finishConnecting()
                busDoor = door
                // Another daemon took the name (`toastd --replace`): it has the socket too, so this one's
                // work is done. Stopping cleanly (status 0) keeps a supervisor from restarting it.
                door.onNameLost = { [unowned self] in
                    Log.info("another daemon took \(NotificationsBus.busName) (toastd --replace): exiting")
                    self.running = false
                }
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
                self.service.advanceClock()
                // The spinner's next step, or toasts that waited for a frame callback too long.
                let now = Self.now()
                if [self.spinnerStep, self.screen.deferredUntil].contains(where: { $0.map { now >= $0 } ?? false }) {
                    self.screen.update()
                }
                self.armTimer()
            }
            try loop.add(fd: service.pictureWorker.fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in
                self.service.picturesFinished()
            }
            try loop.add(fd: signals.fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in
                for signal in self.signals.drain() {
                    if signal == SIGHUP {
                        self.reloadConfig()
                    } else if signal == SIGCHLD {
                        // Each owner reaps only its own pids: neither may take the other's children.
                        self.commands.reap()
                        self.soundPlayer.reap()
                    } else {
                        Log.info("signal \(signal): exiting")
                        self.running = false
                    }
                }
            }
            if let bus = busDoor?.bus {
                busEvents = bus.epollEvents
                // Processed at the top of the next turn.
                try loop.add(fd: bus.fd, events: busEvents) { [unowned self] _ in self.busReadable = true }
            }
        } catch {
            throw StartupError("\(error)")
        }
        startCenter()
        startHoverPause()
        keepHistory()
        offerSound()
        // Fontconfig and Pango cost ~10 ms the first time: pay it now, not with the first toast.
        renderer.prewarm(scale: PixelScale(wayland.outputs.map(\.scale).max() ?? 1))
        Log.info("ready: socket \(socketPath)\(busDoor == nil ? "" : ", bus name \(NotificationsBus.busName)")")
    }

    /// Runs until SIGINT/SIGTERM or until the compositor goes away; returns the exit status.
    public func run() -> Int32 {
        let display = wayland.display
        do {
            while running {
                // Bus first: its calls may change the model and so queue Wayland requests,
                // which the flush below must send before the loop sleeps. Its replies and signals wait
                // for that flush (`sendBusOutput`): what a toast's caller is told goes after the toast.
                busDoor?.bus?.holdsOutput = true
                var timeout = processBus()
                if service.takeChanges() {
                    serviceChanged()
                    // The bus is not processed again here: that would read the next calls, and in a burst
                    // of thousands the loop would never reach the compositor or the socket's clients.
                    // A bus left unfinished (its budget spent) still takes the next turn at once, and so
                    // does a change serviceChanged made itself; a HUD value sleeps at once.
                    if timeout != 0 { timeout = service.hasChanges ? 0 : (busDoor?.bus?.timeoutMilliseconds ?? -1) }
                }
                guard running else { break }  // the bus name was lost while processing
                returnMemoryIfDue()
                while !display.prepareRead() { _ = try display.dispatchPending() }
                _ = try display.flush()
                sendBusOutput()
                // A frame callback (dispatched above, or at the end of the last turn) laid out the toasts
                // that waited for it: their deadline is gone, and must not wake the loop.
                if frameDeadlineArming.isStale(screen.deferredUntil) { armTimer() }
                waylandReadable = false
                loop.wait(timeoutMilliseconds: timeout)
                if waylandReadable { try display.readEvents() } else { display.cancelRead() }
                _ = try display.dispatchPending()
            }
        } catch {
            Log.error("Wayland connection lost: \(error)")
            historyKeeper?.save(service.model)
            return 1
        }
        historyKeeper?.save(service.model)
        _ = try? display.flush()
        sendBusOutput()
        return 0
    }

    /// The `sound` capability is offered while there is a player to honour it.
    private func offerSound() {
        busDoor?.bus?.capabilities = ServerIdentity.capabilities + (soundPlayer.isAvailable ? [ServerIdentity.soundCapability] : [])
        Log.info(soundPlayer.command.map { "sounds play with: \($0.joined(separator: " "))" } ?? "no sound player; sounds are not played")
    }

    /// Starts keeping the history in its file if the configuration says so, reading back what an
    /// earlier run kept (once per run); stops when it says not to.
    private func keepHistory() {
        guard config.persistentHistory else {
            if let keeper = historyKeeper {
                keeper.save(service.model)
                loop.remove(fd: keeper.timer.fd)
                historyKeeper = nil
            }
            return
        }
        guard historyKeeper == nil,
              let path = HistoryFile.defaultPath({ getenv($0).map { String(cString: $0) } }) else { return }
        do {
            let hadOwn = !service.model.history.isEmpty
            let keeper = try HistoryKeeper(file: HistoryFile(path: path))
            if !historyLoaded {
                historyLoaded = true
                service.loadHistory(keeper.load(limits: config.notifications.limits))
            }
            // What the file holds is what the model holds, unless this run closed toasts before the
            // history was kept (a reload turned it on): then the file is behind.
            if !hadOwn { keeper.markSaved(service.model.historyGeneration) }
            try loop.add(fd: keeper.timer.fd, events: UInt32(EPOLLIN.rawValue)) { [unowned self] _ in
                keeper.timer.acknowledge()
                keeper.save(self.service.model)
            }
            historyKeeper = keeper
        } catch {
            Log.warning("history not kept across restarts: \(error)")
        }
    }

    /// Whether sd-bus has work now: its fd was readable (or writable while it queued writes), it stopped
    /// at its budget, it wants to be called now (`timeout` 0: a message read ahead while waiting for a
    /// reply, a call timed out), or a write queued since asks epoll for other events.
    private func busIsDue(_ bus: NotificationsBus, timeout: Int32) -> Bool {
        busReadable || busUnfinished || timeout == 0 || bus.epollEvents != busEvents
    }

    /// Drains sd-bus before sleeping; returns how long the loop may sleep for it (-1: forever).
    /// A turn woken by something else (a HUD stream's value, the compositor's answer) leaves it alone:
    /// `sd_bus_process` then only learnt from a read that nothing came, twice per HUD value. Such a turn
    /// asks sd-bus for its timeout once (it asked twice, each time reading the clock too).
    private func processBus() -> Int32 {
        guard let door = busDoor, let bus = door.bus else { return -1 }
        let timeout = bus.timeoutMilliseconds
        guard busIsDue(bus, timeout: timeout) else { return timeout }
        busReadable = false
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
        busUnfinished = unfinished
        watchBus(bus)
        return unfinished ? 0 : bus.timeoutMilliseconds
    }

    /// Writes the replies and signals the turn held (`NotificationsBus.holdsOutput`: all the daemon
    /// sends on the bus, as signals are emitted only by `serviceChanged`), once its Wayland requests
    /// are flushed. sd-bus writes them at once, unless the socket is full, which leaves them queued and
    /// the bus asking for EPOLLOUT: the loop then watches for that, and otherwise sleeps until the bus's
    /// own deadline instead of turning again at once (that turn cost every `Notify` an `epoll_wait` and
    /// a read that found nothing). A turn that sent nothing leaves the watch as it was.
    private func sendBusOutput() {
        guard let bus = busDoor?.bus, bus.sendHeld() > 0 else { return }
        watchBus(bus)
    }

    /// Tells epoll what sd-bus waits for now (readable, or writable too while it has writes queued).
    private func watchBus(_ bus: NotificationsBus) {
        let events = bus.epollEvents
        if events != busEvents {
            busEvents = events
            loop.modify(fd: bus.fd, events: events)
        }
    }

    /// SIGHUP and `toast reload`: reads the configuration file again and applies it. Look, placement and
    /// output apply at once (the overlays are remade); timeouts and history apply to what comes next. An
    /// unusable file (unreadable, binary) changes nothing; bad lines are skipped as at startup.
    /// Returns the problems found, one `path:line: message` each, for `toast reload` to print.
    @discardableResult
    func reloadConfig() -> [String] {
        guard let configPath else {
            Log.info("config reloaded (no configuration file: neither XDG_CONFIG_HOME nor HOME is set)")
            return []
        }
        let loaded = ConfigFile.load(configPath, explicit: options.configPath != nil)
        guard let parsed = loaded.parsed else {
            Log.warning("config not reloaded; keeping the one in use")
            return loaded.warnings + ["config not reloaded; keeping the one in use"]
        }
        apply(parsed.config)
        Log.info("config reloaded (\(loaded.warnings.count) warnings)")
        return loaded.warnings
    }

    private func apply(_ new: DaemonConfig) {
        let old = config
        config = new
        service.reconfigure(notifications: new.notifications, hud: new.hud)
        if new.persistentHistory != old.persistentHistory { keepHistory() }
        if new.soundCommand != old.soundCommand {
            soundPlayer = SoundPlayer(configured: new.soundCommand) { getenv($0).map { String(cString: $0) } }
            offerSound()
        }
        // Always anew: a reload also drops the icon cache, so newly installed icons are found.
        service.replaceIcons(Self.iconTheme(new))
        let animations = options.animations && new.animations
        screen.clickableActions = options.clickableActions || new.clickableActions
        if animations != animator.animationsEnabled {
            animator = Animator(animations: animations)
            placeToasts()
        }
        service.rules = new.rules
        animator.restyle(rules: new.rules, style: new.style)
        if new.style != old.style {
            renderer = ToastRenderer(style: new.style)
            renderer.prewarm(scale: PixelScale(wayland.outputs.map(\.scale).max() ?? 1))
        }
        if new.style != old.style || new.anchor != old.anchor || new.margins != old.margins
            || new.hudAnchor != old.hudAnchor || new.hudMargins != old.hudMargins || new.output != old.output
            || new.hudOutput != old.hudOutput || new.layer != old.layer || new.fullscreen != old.fullscreen
            || new.rules != old.rules {
            // Every toast is placed again by the new keys (the stacks are made anew).
            animator.forgetPlaces()
            screen.reconfigure(renderer: renderer, hudOutput: hudOutput(new), defaultStack: stackDefaults(new).key,
                               toasts: Self.toastPlacement(new), hud: Self.hudPlacement(new))
            if new.output != old.output { warnIfUnknown(output: options.output ?? new.output) }
        }
    }

    /// The global placement of toasts (`output`, `anchor`, `layer`, `fullscreen`; `--output` wins).
    func stackDefaults(_ config: DaemonConfig) -> StackDefaults {
        let focusKnown = wayland.toplevels != nil
        return StackDefaults(output: OutputChoice(configured: options.output ?? config.output, focusKnown: focusKnown),
                             anchor: config.anchor, layer: config.layer, fullscreen: config.fullscreen,
                             focusKnown: focusKnown)
    }

    /// Where the HUD shows: `hud-output`, else where toasts do.
    func hudOutput(_ config: DaemonConfig) -> OutputChoice {
        OutputChoice(configured: config.hudOutput ?? options.output ?? config.output, focusKnown: wayland.toplevels != nil)
    }

    /// Tells the animator where each arriving toast goes (the rules' stack, the focused output now),
    /// and which wait while a fullscreen window has the focus.
    private func placeToasts() {
        animator.placer = { [unowned self] notification in
            self.service.rules.placement(of: notification, modes: self.service.model.modes,
                                         defaults: self.stackDefaults(self.config)) {
                self.wayland.focusedOutput?.name
            }
        }
        animator.holds = { [unowned self] notification, placement in
            guard placement.fullscreen.holds(critical: notification.urgency == .critical),
                  let fullscreen = self.wayland.fullscreenOutput else { return false }
            // A stack pinned to another output is not under the fullscreen window.
            if case .named(let name) = placement.place.key.output, self.wayland.output(named: name) != nil {
                return fullscreen.name == name
            }
            return true
        }
    }

    /// A misspelt `output` would otherwise be silently ignored (toasts go where the compositor puts
    /// them): say so, with the names there are.
    private func warnIfUnknown(output name: String?) {
        guard let name, name != "focused", name != "all", wayland.output(named: name) == nil else { return }
        let known = wayland.outputs.compactMap(\.name)
        Log.warning("no output named '\(name)' (outputs: \(known.isEmpty ? "none yet" : known.joined(separator: ", "))); "
                    + "showing where the compositor chooses")
    }

    /// The icon search of `config` in this environment.
    static func iconTheme(_ config: DaemonConfig) -> IconTheme {
        IconTheme.fromEnvironment(theme: config.iconTheme, iconPaths: config.iconPaths) { getenv($0).map { String(cString: $0) } }
    }

    /// The stack's surface reaches `shadowExtent` past the toasts for their shadows: its margins are
    /// that much smaller, so the boxes stay where `margin` puts them (or as near as an edge allows).
    /// The HUD's the same.
    static func toastPlacement(_ config: DaemonConfig) -> OverlaySurface.Placement {
        let bleed = config.style.shadowExtent, m = config.margins
        return OverlaySurface.Placement(anchor: config.anchor,
                                        margins: Margins(top: max(0, m.top - bleed), right: max(0, m.right - bleed),
                                                         bottom: max(0, m.bottom - bleed), left: max(0, m.left - bleed)))
    }

    static func hudPlacement(_ config: DaemonConfig) -> OverlaySurface.Placement {
        let bleed = config.style.shadowExtent, m = config.hudMargins
        return OverlaySurface.Placement(anchor: config.hudAnchor,
                                        margins: Margins(top: max(0, m.top - bleed), right: max(0, m.right - bleed),
                                                         bottom: max(0, m.bottom - bleed), left: max(0, m.left - bleed)))
    }

    /// Monotonic now, the model's clock.
    static func now() -> Instant {
        Instant(milliseconds: MonotonicClock.nanoseconds() / 1_000_000)
    }

    /// The value bar's view with its theme icon, at the largest output's scale in the current look.
    private func withIcon(_ bar: HudBarView) -> HudBarView {
        service.withIcon(bar, scale: wayland.outputs.lazy.map(\.scale).max() ?? 1, renderer: renderer)
    }

    /// A new value of the bar on screen drawn without a scene, when the screen can take it so
    /// (`Screen.showBarValue`); false: the daemon updates the screen from a new scene instead.
    private func showBarValue() -> Bool {
        let now = Self.now()
        guard let bar = service.readModel({ animator.steadyBar(for: $0, now: now) }) else { return false }
        return screen.showBarValue(withIcon(bar))
    }

    /// After every turn that changed the service: route its events, redraw what changed, arm the timer.
    /// The one timer wakes the daemon at the model's next deadline, the spinner's next step, or when
    /// toasts waiting for a frame callback are laid out anyway (whichever is first).
    func armTimer() {
        let (due, keepingEarlier) = frameDeadlineArming.arm(model: service.readModel { $0.nextDeadline },
                                                            spinner: spinnerStep, frame: screen.deferredUntil)
        timer.arm(at: due.map { $0.milliseconds * 1_000_000 }, keepingEarlier: keepingEarlier)
    }

    private func serviceChanged() {
        for event in service.drainEvents() {
            socketDoor.deliver(event)
            busDoor?.deliver(event)
        }
        for command in service.drainCommands() { commands.run(command.command, environment: command.environment) }
        socketDoor.publishStatus()
        center.modelChanged()
        // Only a change to what is drawn redraws; animation frames are paced by the surfaces themselves.
        let model = service.readModel { (generation: $0.generation, hudGeneration: $0.hud.generation,
                                         historyGeneration: $0.historyGeneration) }
        if model.generation != drawnGeneration {
            defer { drawnGeneration = model.generation }
            // The HUD is drawn at once; toasts may wait for the frame being shown (Screen.updateSoon).
            if model.hudGeneration != drawnHudGeneration {
                // Only the HUD changed (the toasts' and modes' share of the generation stayed): perhaps
                // only the bar's value, which the screen takes without a scene (`HudValuePath`).
                let hudOnly = model.generation &- drawnGeneration == model.hudGeneration &- drawnHudGeneration
                drawnHudGeneration = model.hudGeneration
                if !(hudOnly && showBarValue()) { screen.update() }
            } else {
                screen.updateSoon(now: Self.now())
            }
        }
        armTimer()
        historyKeeper?.noteChanges(model.historyGeneration, now: MonotonicClock.nanoseconds())
    }
}

/// Why toastd could not start: one line for the user, and the exit status that tells a supervisor
/// whether trying again can help.
public struct StartupError: Error, CustomStringConvertible {
    /// Anything that may pass: no display yet, the name taken, the socket busy.
    public static let failed: Int32 = 1
    /// The compositor cannot host toastd (no `zwlr_layer_shell_v1`): EX_CONFIG. Restarting will not
    /// help, and the systemd unit lists it in `RestartPreventExitStatus=` (docs/man/toastd.1.scd).
    public static let compositorUnsuitable: Int32 = 78

    public let description: String
    public let exitStatus: Int32

    init(_ description: String, exitStatus: Int32 = StartupError.failed) {
        self.description = description
        self.exitStatus = exitStatus
    }

    /// A failure to set up with the compositor: a missing global means this compositor will never do.
    init(compositor error: any Error) {
        if error is WaylandSetupError {
            self.init("cannot use this compositor: \(error)", exitStatus: Self.compositorUnsuitable)
        } else {
            self.init("cannot use the Wayland display: \(error)")
        }
    }
}
