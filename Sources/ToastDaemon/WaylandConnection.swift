import ToastConfig
import ToastPlatform
import ToastScene
import Wayland

/// An output the compositor advertises, with the facts the daemon draws by: its name and scale.
final class Output {
    let globalName: UInt32
    let proxy: WlOutput
    private(set) var name: String?
    private(set) var scale = 1
    /// Its size in logical pixels (xdg-output), once the compositor said it: a panel the output's
    /// height is drawn at it before its configure confirms it (`CenterSurface`).
    private(set) var logicalSize: (width: Int, height: Int)?
    private var xdgOutput: ZxdgOutputV1?

    init(globalName: UInt32, proxy: WlOutput, xdgOutputManager: ZxdgOutputManagerV1?, onChange: @escaping () -> Void) {
        self.globalName = globalName
        self.proxy = proxy
        self.onChange = onChange
        proxy.onEvent = { [unowned self] event in
            switch event {
            case .scale(let factor): self.scale = max(1, Int(factor))
            case .name(let name): self.name = name
            case .done: self.onChange()
            default: break
            }
        }
        if let xdgOutputManager { watch(with: xdgOutputManager) }
    }

    private let onChange: () -> Void

    /// The logical size, and the name where wl_output has none (it is v4; sway 1.7 offers v3), from
    /// xdg-output.
    func watch(with manager: ZxdgOutputManagerV1) {
        guard xdgOutput == nil else { return }
        let xdg = manager.getXdgOutput(output: proxy)
        xdg.onEvent = { [unowned self] event in
            switch event {
            case .name(let name) where self.proxy.version < 4:
                self.name = name
                self.onChange()
            case .logicalSize(let width, let height):
                self.logicalSize = (Int(width), Int(height))
            default: break
            }
        }
        xdgOutput = xdg
    }

    deinit {
        xdgOutput?.destroy()
        if proxy.version >= 3 { proxy.release() }
    }
}

/// A button press on one of the daemon's surfaces: where, which button, and the serial and seat an
/// activation token for it is asked with.
struct PointerPress {
    var surface: WlSurface?
    var x: Double
    var y: Double
    var button: PointerButton
    var serial: UInt32
    var seat: WlSeat
}

/// A seat's pointer, as far as the daemon's surfaces see it: where it is on which of them, and its
/// button presses (left, right, middle). Only a surface with a non-empty input region (`clickable-actions`) ever gets
/// pointer events; the others are pass-through.
final class Seat {
    let globalName: UInt32
    let proxy: WlSeat
    private var pointer: WlPointer?
    /// The surface the pointer is over and where (surface-local logical pixels); nil when on none of ours.
    private var focus: (surface: WlSurface?, x: Double, y: Double)?
    private let onPress: (PointerPress) -> Void
    /// The pointer came onto (true) or left (false) one of our surfaces.
    var onHover: (_ surface: WlSurface?, _ entered: Bool) -> Void = { _, _ in }
    /// The wheel turned over one of our surfaces: logical pixels down (negative: up).
    var onScroll: (_ surface: WlSurface?, _ delta: Double) -> Void = { _, _ in }
    /// The seat's keyboard while a surface of ours asked for keys (`takeKeyboard`).
    private(set) var keyboard: Keyboard?
    private var hasKeyboard = false
    /// The daemon's loop, for the keyboard's repeat timer.
    var loop: () -> EventLoop? = { nil }

    /// Binds the seat's keyboard (a surface of ours is about to take keys) and has `owner` told its
    /// keys; nothing when the seat has none.
    func takeKeyboard(for owner: AnyObject, _ listener: Keyboard.Listener) {
        if keyboard == nil, hasKeyboard { keyboard = Keyboard(seat: proxy, loop: loop()) }
        keyboard?.listen(owner, listener)
    }

    /// `owner` takes no more keys; the keyboard goes when no one does.
    func releaseKeyboard(for owner: AnyObject) {
        if let keyboard, !keyboard.stopListening(owner) { self.keyboard = nil }
    }

    init(globalName: UInt32, proxy: WlSeat, onPress: @escaping (PointerPress) -> Void) {
        self.globalName = globalName
        self.proxy = proxy
        self.onPress = onPress
        proxy.onEvent = { [unowned self] event in
            if case .capabilities(let capabilities) = event { self.update(capabilities) }
        }
    }

    private func update(_ capabilities: WlSeat.Capability) {
        hasKeyboard = capabilities.contains(.keyboard)
        if !hasKeyboard { keyboard = nil }
        if capabilities.contains(.pointer), pointer == nil {
            let pointer = proxy.getPointer()
            pointer.onEvent = { [unowned self] event in self.handle(event) }
            self.pointer = pointer
        } else if !capabilities.contains(.pointer), let pointer {
            if pointer.version >= 3 { pointer.release() }
            self.pointer = nil
            focus = nil
        }
    }

    private func handle(_ event: WlPointer.Event) {
        switch event {
        case let .enter(_, surface, x, y):
            focus = (surface, x, y)
            onHover(surface, true)
        case let .leave(_, surface):
            focus = nil
            onHover(surface, false)
        case let .axis(_, axis, value):
            guard axis == WlPointer.Axis.verticalScroll.rawValue, let focus else { return }
            onScroll(focus.surface, value)
        case let .motion(_, x, y):
            focus?.x = x
            focus?.y = y
        case let .button(serial, _, button, state):
            guard let button = PointerButton(evdevCode: button), state == WlPointer.ButtonState.pressed.rawValue,
                  let focus else { return }
            onPress(PointerPress(surface: focus.surface, x: focus.x, y: focus.y, button: button, serial: serial,
                                 seat: proxy))
        default:
            break
        }
    }

    deinit {
        if let pointer, pointer.version >= 3 { pointer.release() }
        if proxy.version >= 5 { proxy.release() }
    }
}

/// The daemon's Wayland connection (mako's wayland.c): the display, the globals it binds, and the
/// outputs as they come and go.
final class WaylandConnection {
    let display: WaylandDisplay
    private let registry: WlRegistry
    private(set) var compositor: WlCompositor?
    private(set) var shm: WlShm?
    private(set) var layerShell: ZwlrLayerShellV1?
    private var xdgOutputManager: ZxdgOutputManagerV1?
    /// wp_viewporter and wp_fractional_scale_manager_v1, when offered: with both, surfaces are drawn at
    /// the compositor's preferred fractional scale (`SurfaceScale`); without, at wl_output's integer scale.
    private(set) var viewporter: WpViewporter?
    private(set) var fractionalScaleManager: WpFractionalScaleManagerV1?
    /// xdg_activation_v1, when the compositor offers it: tokens for the app of a clicked action.
    private var activation: XdgActivationV1?
    /// Tokens asked for and not yet answered (kept alive until their `done`).
    private var pendingTokens: [ObjectIdentifier: XdgActivationTokenV1] = [:]
    private(set) var outputs: [Output] = []
    private(set) var seats: [Seat] = []
    /// ext_idle_notifier_v1 when offered; else the name of org_kde_kwin_idle, bound when first asked for.
    private var extIdle: ExtIdleNotifierV1?
    private var kdeIdleName: UInt32?
    private var kdeIdle: OrgKdeKwinIdle?
    /// How the compositor tells idle time, when it does (`IdleWatch`): ext_idle_notifier_v1 preferred
    /// (KWin offers both: KDE's is then never bound).
    var idleNotifier: IdleWatch.Notifier? {
        if let extIdle { return .ext(extIdle) }
        if kdeIdle == nil, let name = kdeIdleName { kdeIdle = registry.bind(name: name, OrgKdeKwinIdle.self, version: 1) }
        return kdeIdle.map { .kde($0) }
    }
    /// The seat idle time is watched on: the first one.
    var firstSeat: WlSeat? { seats.first?.proxy }
    /// The compositor's windows (zwlr_foreign_toplevel_manager_v1), when offered: the focused output.
    private(set) var toplevels: ForeignToplevels?

    /// Outputs were added, removed, or changed scale or name.
    var onOutputsChanged: () -> Void = {}
    /// An output went away (hotplug): surfaces on it are moved by the owner.
    var onOutputRemoved: (Output) -> Void = { _ in }
    /// The focused output or its fullscreen state changed (foreign-toplevel).
    var onFocusChanged: () -> Void = {}
    /// The wheel turned over one of our surfaces (logical pixels down; negative: up).
    var onPointerScroll: (_ surface: WlSurface?, _ delta: Double) -> Void = { _, _ in }
    /// The pointer came onto (true) or left (false) one of our surfaces.
    var onPointerHover: (_ surface: WlSurface?, _ entered: Bool) -> Void = { _, _ in }
    /// A button was pressed with the pointer over one of our surfaces, at surface-local (x, y).
    var onPointerPress: (PointerPress) -> Void = { _ in }
    /// The daemon's loop, for timers of input (key repeat).
    var loop: EventLoop?

    /// Connects (WAYLAND_DISPLAY / WAYLAND_SOCKET) and binds what the daemon needs, in two roundtrips.
    init() throws {
        display = try WaylandDisplay()
        registry = display.registry()
        registry.onEvent = { [unowned self] event in
            switch event {
            case .global(let name, let interface, let version): self.bind(name: name, interface: interface, version: version)
            case .globalRemove(let name): self.remove(globalName: name)
            }
        }
        try display.roundtrip()  // globals
        try display.roundtrip()  // output names and scales
        guard compositor != nil, shm != nil else { throw WaylandSetupError.missingGlobal("wl_compositor / wl_shm") }
        guard layerShell != nil else { throw WaylandSetupError.missingGlobal("zwlr_layer_shell_v1 (is this a wlroots compositor?)") }
    }

    /// The output named `name`, if present.
    func output(named name: String) -> Output? { outputs.first { $0.name == name } }

    /// The output that has the focus (`FocusTracker`); nil without foreign-toplevel or outputs.
    var focusedOutput: Output? {
        guard let toplevels else { return nil }
        let id = toplevels.tracker.focusedOutput(among: outputs.map(\.globalName))
        return outputs.first { $0.globalName == id }
    }

    /// The output where the focused window is fullscreen, if it is.
    var fullscreenOutput: Output? {
        guard let toplevels else { return nil }
        let id = toplevels.tracker.fullscreenOutput(among: outputs.map(\.globalName))
        return outputs.first { $0.globalName == id }
    }

    /// The output a wl_output proxy belongs to.
    func output(for proxy: WlOutput) -> Output? { outputs.first { $0.proxy === proxy } }

    /// Asks the compositor for an activation token for `press` (the app it goes to may then raise its
    /// window with it); `done` gets the token when the compositor answers, a loop turn or so later, or
    /// nil at once when the compositor has no xdg_activation_v1.
    func requestActivationToken(for press: PointerPress, appID: String?, done: @escaping (String?) -> Void) {
        guard let activation else { return done(nil) }
        let token = activation.getActivationToken()
        let key = ObjectIdentifier(token)
        pendingTokens[key] = token
        token.onEvent = { [unowned self] event in
            guard case .done(let text) = event else { return }
            self.pendingTokens[key]?.destroy()
            self.pendingTokens[key] = nil
            done(text)
        }
        token.setSerial(serial: press.serial, seat: press.seat)
        if let surface = press.surface { token.setSurface(surface: surface) }
        if let appID, !appID.isEmpty { token.setAppId(appId: appID) }
        token.commit()
    }

    private func bind(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case WlCompositor.wlInterfaceName:
            compositor = registry.bind(name: name, WlCompositor.self, version: min(version, 4))
        case WlShm.wlInterfaceName:
            shm = registry.bind(name: name, WlShm.self, version: 1)
        case ZwlrLayerShellV1.wlInterfaceName:
            layerShell = registry.bind(name: name, ZwlrLayerShellV1.self, version: min(version, 4))
        case ZxdgOutputManagerV1.wlInterfaceName:
            let manager = registry.bind(name: name, ZxdgOutputManagerV1.self, version: min(version, 3))
            xdgOutputManager = manager
            for output in outputs { output.watch(with: manager) }
        case WlSeat.wlInterfaceName:
            let proxy = registry.bind(name: name, WlSeat.self, version: min(version, 5))
            let seat = Seat(globalName: name, proxy: proxy) { [unowned self] press in self.onPointerPress(press) }
            seat.onScroll = { [unowned self] surface, delta in self.onPointerScroll(surface, delta) }
            seat.onHover = { [unowned self] surface, entered in self.onPointerHover(surface, entered) }
            seat.loop = { [unowned self] in self.loop }
            seats.append(seat)
        case WpViewporter.wlInterfaceName:
            viewporter = registry.bind(name: name, WpViewporter.self, version: 1)
        case WpFractionalScaleManagerV1.wlInterfaceName:
            fractionalScaleManager = registry.bind(name: name, WpFractionalScaleManagerV1.self, version: 1)
        case ZwlrForeignToplevelManagerV1.wlInterfaceName where toplevels == nil:
            let manager = registry.bind(name: name, ZwlrForeignToplevelManagerV1.self, version: min(version, 3))
            let toplevels = ForeignToplevels(globalName: name, manager: manager) { [unowned self] proxy in
                self.output(for: proxy)?.globalName
            }
            toplevels.onChange = { [unowned self] in self.onFocusChanged() }
            self.toplevels = toplevels
        case ExtIdleNotifierV1.wlInterfaceName:
            extIdle = registry.bind(name: name, ExtIdleNotifierV1.self, version: 1)
        case OrgKdeKwinIdle.wlInterfaceName:
            kdeIdleName = name
        case XdgActivationV1.wlInterfaceName:
            activation = registry.bind(name: name, XdgActivationV1.self, version: 1)
        case WlOutput.wlInterfaceName:
            let proxy = registry.bind(name: name, WlOutput.self, version: min(version, 4))
            outputs.append(Output(globalName: name, proxy: proxy, xdgOutputManager: xdgOutputManager) { [unowned self] in
                self.onOutputsChanged()
            })
        default:
            break
        }
    }

    private func remove(globalName: UInt32) {
        seats.removeAll { $0.globalName == globalName }
        guard let index = outputs.firstIndex(where: { $0.globalName == globalName }) else { return }
        let output = outputs.remove(at: index)
        toplevels?.removeOutput(globalName)
        onOutputRemoved(output)
        onOutputsChanged()
    }
}

/// The compositor lacks something toastd cannot work without.
enum WaylandSetupError: Error, CustomStringConvertible {
    case missingGlobal(String)

    var description: String {
        switch self {
        case .missingGlobal(let what): "the compositor does not offer \(what)"
        }
    }
}
