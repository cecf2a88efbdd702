import CLinux
import Glibc
import ToastConfig
import ToastCore
import ToastDBus
import ToastPlatform
import ToastProtocol
import ToastRender
import ToastScene
import ToastVocabulary
import Wayland

/// toastd: one thread, one epoll loop, one service. Requests arrive through the control socket
/// (`SocketFrontDoor`) and D-Bus (`BusFrontDoor`), which call the `ToastService`; once per loop turn
/// `serviceChanged()` routes the service's events back through the doors, redraws the overlays, and
/// arms the one timer. How each part is connected: DaemonWiring.swift; the bus's turn: DaemonBus.swift;
/// the configuration applied: DaemonConfiguration.swift.
public final class Daemon {
    let options: DaemonOptions
    let loop: EventLoop
    let wayland: WaylandConnection
    var renderer: ToastRenderer
    let screen: Screen
    let service: ToastService
    /// The configuration file (nil: neither --config, XDG_CONFIG_HOME nor HOME) and what applies now.
    let configPath: String?
    var config: DaemonConfig
    var animator: Animator
    let timer: DeadlineTimer
    let signals: SignalWatcher
    /// The `exec` bindings' children.
    let commands = CommandRunner()
    let socketDoor: SocketFrontDoor
    var busDoor: BusFrontDoor?
    /// makoctl's and dunstctl's calls (Daemon+CompatControl.swift).
    var compatControl: CompatControlDoor?
    /// Saves the history to its file (nil: `persistent-history = false`, or no state directory).
    var historyKeeper: HistoryKeeper?
    /// The history file is read once per run, whenever persistence first applies.
    var historyLoaded = false
    /// Plays notification sounds (`sound-command`).
    let soundPlayer: SoundPlayer
    var running = true
    var waylandReadable = false
    /// The bus's fd as epoll watches it, and whether sd-bus has work (`DaemonBus.swift`).
    var busWatch = BusWatch()
    private var drawnGeneration: UInt64 = .max
    private var drawnHudGeneration: UInt64 = .max
    /// When the spinner drawn last turns its next step (the last scene's `nextStep`): the timer wakes
    /// the daemon then to draw it.
    var spinnerStep: Instant?
    /// The frame deadline the timer was armed with: one gone since (its frame came) is disarmed.
    private var frameDeadlineArming = FrameDeadlineArming()
    /// When memory goes back to the system (`returnMemoryIfDue`).
    var memoryPolicy = MemoryReturnPolicy()
    /// Screen readers' view of the toasts (Daemon+Accessibility.swift).
    let accessibility = DaemonAccessibility()
    /// Idle time and modes that end (`Daemon+Time.swift`).
    var timeKeeping = TimeKeeping()
    /// `toast osd`: the sound server, backlights and lock keys.
    var onScreenDisplay: OnScreenDisplay?
    /// The notification center (`Daemon+Center.swift`).
    lazy var center = CenterController(wayland: wayland, service: service, screen: screen)
    /// Alerts (`Daemon+Alert.swift`).
    lazy var alerts = AlertController(wayland: wayland, service: service, screen: screen)
    /// `toast focus` (`Daemon+Focus.swift`).
    lazy var toastFocus = ToastFocus(wayland: wayland, service: service, screen: screen)

    /// Connects to the compositor and the bus and opens the socket; throws a message to print.
    public init(options: DaemonOptions) throws(StartupError) {
        self.options = options
        do {
            loop = try EventLoop()
            timer = try DeadlineTimer()
            signals = try SignalWatcher()
        } catch { throw StartupError("\(error)") }
        // The control socket first: clients may use it while the rest starts (their requests wait in
        // the socket buffers until the loop runs).
        let server = try Self.openControlSocket(options, loop: loop)
        configPath = options.configPath ?? ConfigFile.defaultPath(Environment.variable)
        config = configPath.map { Self.loadConfig($0, options: options) } ?? DaemonConfig()
        service = try Self.makeService(config)
        soundPlayer = SoundPlayer(configured: config.soundCommand, environment: Environment.variable, budget: commands.budget)
        socketDoor = SocketFrontDoor(server: server, service: service)
        do {
            wayland = try WaylandConnection()
        } catch {
            throw StartupError(compositor: error)
        }
        // The bus name only once the compositor took us: a toastd started by D-Bus activation without
        // a display (WAYLAND_DISPLAY missing from the activation environment) then fails the activation
        // at once, with its exit status, instead of owning the name and leaving callers without a reply.
        // The name request is answered while the screen is set up; `finishBusName` awaits it.
        let door = try Self.requestBusName(options, service: service)
        renderer = ToastRenderer(style: config.style)
        animator = Animator(animations: options.animations && config.animations)
        screen = Screen(wayland: wayland, renderer: renderer)
        setUpScreen()
        connectFrontDoors()
        onScreenDisplay = startOnScreenDisplay()
        connectService()
        if let door { try finishBusName(door) }
        startAccessibility()
        try watchEvents()
        startInputSurfaces()
        keepHistory()
        respectTime()
        offerSound()
        // Fontconfig and Pango cost ~10 ms the first time, the icon themes a few: pay it now, not with the
        // first toast or HUD, unless a call that activated the daemon waits for its toast (`StartPrewarm`).
        if StartPrewarm.wanted(environment: Environment.variable) {
            renderer.prewarm(scale: largestScale)
            service.loadIconThemes()
        }
        memoryPolicy.started()
        Log.info("ready: socket \(server.path)\(busDoor == nil ? "" : ", bus name \(NotificationsBus.busName)")")
    }

    /// Runs until SIGINT/SIGTERM or until the compositor goes away; returns the exit status.
    public func run() -> Int32 {
        let display = wayland.display
        do {
            while running {
                // Bus first: its calls may change the model and so queue Wayland requests, which the
                // flush below sends before the loop sleeps. Its replies and signals wait for that flush
                // (`sendBusOutput`): what a toast's caller is told goes after the toast.
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

    /// Monotonic now, the model's clock.
    static func now() -> Instant {
        Instant(milliseconds: MonotonicClock.nanoseconds() / 1_000_000)
    }

    /// The value bar's view with its theme icon, at the largest output's scale in the current look.
    func withIcon(_ bar: HudBarView) -> HudBarView {
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
            onScreenDisplay?.deliver(event)
        }
        for command in service.drainCommands() { commands.run(command.command, environment: command.environment) }
        socketDoor.publishStatus()
        showAccessibleToasts()
        inputSurfacesChanged()
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
        keepTimedModes()
    }
}
