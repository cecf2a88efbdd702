import ToastConfig
import ToastCore
import ToastPlatform
import ToastProtocol
import ToastRender
import ToastScene
import ToastVocabulary

extension Daemon {
    /// Wires the surfaces that take input when asked into the daemon: the notification center
    /// (`toast center`), alerts (`toast alert`), and hover pausing expiry.
    func startInputSurfaces() {
        wayland.loop = loop
        center.config = { [unowned self] in self.config.center }
        center.start()
        socketDoor.onCenter = { [unowned self] mode in self.center.apply(mode) }
        alerts.look = { [unowned self] in self.config.center }
        alerts.start()
        socketDoor.onFocus = { [unowned self] in self.toastFocus.focusNewest() }
        toastFocus.start()
        startReplyOnClick()
        startHoverPause()
    }

    /// The model changed: the center lists it anew, the next alert shows.
    func inputSurfacesChanged() {
        center.modelChanged()
        alerts.modelChanged()
        toastFocus.modelChanged()
    }
}

/// The notification center in the daemon (`toast center`): opens and closes its surface, gives it the
/// model's notifications, turns its keys and clicks into the service's calls, and keeps toasts from
/// popping up while it is open (they are listed in it instead; closing it returns to toasts).
final class CenterController {
    private unowned let wayland: WaylandConnection
    private unowned let service: ToastService
    private unowned let screen: Screen
    /// The look of the next center (`[center]` of the configuration in use).
    var config: () -> CenterConfig = { CenterConfig() }
    private(set) var surface: CenterSurface?
    /// Draws the center; made at its first opening and kept (its text layouts are let go at each close).
    private var renderer: PanelRenderer?
    /// When the open request came (monotonic nanoseconds), until the first frame is drawn.
    private var openedAt: Int64?
    /// The model generations the center last listed.
    private var listed: (generation: UInt64, history: UInt64)?

    var isOpen: Bool { surface != nil }

    init(wayland: WaylandConnection, service: ToastService, screen: Screen) {
        self.wayland = wayland
        self.service = service
        self.screen = screen
    }

    /// Takes the pointer presses on the center and hides the toasts while it is open.
    func start() {
        let toastPresses = wayland.onPointerPress
        wayland.onPointerPress = { [unowned self] press in
            if let surface = self.surface, surface.overlay.owns(press.surface) {
                self.clicked(x: press.x, y: press.y)
            } else {
                toastPresses(press)
            }
        }
        wayland.onPointerScroll = { [unowned self] surface, delta in
            if let center = self.surface, center.overlay.owns(surface) { center.scroll(by: delta) }
        }
        let scene = screen.sceneProvider
        screen.sceneProvider = { [unowned self] in
            var made = scene()
            if self.isOpen {
                made.toasts = []
                made.stacks = []
                made.hiddenCount = 0
                made.totalCount = 0
            }
            return made
        }
    }

    func apply(_ mode: CenterMode) {
        switch mode {
        case .open: open()
        case .close: close()
        case .toggle: if isOpen { close() } else { open() }
        }
    }

    private func open() {
        guard surface == nil else { return }
        openedAt = MonotonicClock.nanoseconds()
        let renderer = self.renderer ?? PanelRenderer()
        self.renderer = renderer
        let center = CenterSurface(wayland: wayland, output: wayland.focusedOutput, config: config(), renderer: renderer)
        center.onFirstDraw = { [unowned self, unowned center] drawing in
            guard let openedAt = self.openedAt else { return }
            self.openedAt = nil
            let ms = Double(MonotonicClock.nanoseconds() - openedAt) / 1e6
            Log.info("center open: \(center.list.entries.count) entries, first frame drawn \(ms.formatted2) ms after the request "
                     + "(drawing \((Double(drawing) / 1e6).formatted2) ms)")
        }
        surface = center
        listed = nil
        refresh(focusFirst: true)
        wayland.seats.first?.takeKeyboard(for: self, Keyboard.Listener(onKey: { [unowned self] surface, press in
            guard let center = self.surface, center.overlay.owns(surface),
                  let key = CenterKey(keysym: press.keysym, text: press.text, shift: press.shift) else { return }
            self.perform(center.handle(key))
        }, onFocus: { [unowned self] surface, entered in
            // Another window took the keyboard (a click outside the panel): the center closes.
            if !entered, let center = self.surface, center.overlay.owns(surface) {
                Log.info("center closed: another window took the keyboard")
                self.close()
            }
        }))
        screen.update()
    }

    func close() {
        guard surface != nil else { return }
        surface = nil
        renderer?.releaseCaches()
        wayland.seats.first?.releaseKeyboard(for: self)
        // The pointer may have been over the panel: its leave does not come for a surface destroyed.
        service.hover(false)
        Log.info("center closed")
        screen.update()
    }

    /// The model changed: the center lists it anew (only when what it lists moved).
    func modelChanged() {
        guard isOpen else { return }
        refresh(focusFirst: false)
    }

    private func refresh(focusFirst: Bool) {
        guard let surface else { return }
        let generations = service.readModel { (generation: $0.generation, history: $0.historyGeneration) }
        surface.doNotDisturb = service.model.doNotDisturb
        guard listed.map({ $0 != generations }) ?? true else { return }
        listed = generations
        let entries = service.readModel { CenterList.entries(open: $0.all, history: $0.history) }
        surface.show(entries, focusFirst: focusFirst)
    }

    private func clicked(x: Double, y: Double) {
        guard let center = surface, let target = center.click(x: x, y: y) else { return }
        if case .reply = target { return }  // the field takes the focus; Enter sends
        perform(center.handle(.enter))
    }

    /// Does what a key or click in the center asked.
    private func perform(_ command: CenterCommand) {
        switch command {
        case .none, .redraw: return
        case .close: close()
        case .invoke(let id, let key):
            do { try service.invokeAction(id: id, key: key) } catch { Log.warning("center: \(error)") }
        case .dismiss(let id): service.close(id: id, reason: .dismissed)
        case .forget(let id): service.forget(historyID: id)
        case .restore(let id): _ = service.restore(id: id)
        case .reply(let id, let text):
            do { try service.reply(id: id, text: text) } catch { Log.warning("center: \(error)") }
        case .toggleDoNotDisturb: service.setDoNotDisturb(nil)
        case .clearAll:
            service.dismissAll()
            service.clearHistory()
        }
    }
}

extension Double {
    /// Two decimals, for log lines.
    fileprivate var formatted2: String {
        let hundredths = Int((self * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
