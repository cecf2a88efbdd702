import ToastConfig
import ToastCore
import ToastPlatform
import ToastRender
import ToastScene
import Wayland

/// Alerts (`toast alert`): the oldest open alert is shown as a centred dialog on the overlay layer that
/// takes the keyboard exclusively until it is answered (Enter, a click) or dismissed (Escape); the
/// next waits for it. An alert is a notification (its answer reaches the waiting client as an action,
/// its dismissal or timeout as a close) that is never drawn as a toast.
final class AlertController {
    private unowned let wayland: WaylandConnection
    private unowned let service: ToastService
    private unowned let screen: Screen
    /// The look (the notification center's, `[center]`).
    var look: () -> CenterConfig = { CenterConfig() }
    private var renderer: PanelRenderer?
    private var dialog: AlertDialog?
    private var overlay: OverlaySurface?

    init(wayland: WaylandConnection, service: ToastService, screen: Screen) {
        self.wayland = wayland
        self.service = service
        self.screen = screen
    }

    /// Keeps alerts out of the toasts and takes the clicks on the dialog.
    func start() {
        let scene = screen.sceneProvider
        screen.sceneProvider = { [unowned self] in
            var made = scene()
            let alerts = Set(self.service.model.all.lazy.filter(\.isAlert).map(\.id))
            guard !alerts.isEmpty else { return made }
            made.toasts.removeAll { alerts.contains($0.id) }
            for index in made.stacks.indices { made.stacks[index].toasts.removeAll { alerts.contains($0.id) } }
            made.stacks.removeAll { $0.toasts.isEmpty && $0.hiddenCount == 0 }
            return made
        }
        let others = wayland.onPointerPress
        wayland.onPointerPress = { [unowned self] press in
            guard let overlay = self.overlay, overlay.owns(press.surface) else { return others(press) }
            if let dialog = self.dialog, let index = dialog.button(at: press.x, press.y) {
                self.perform(.answer(dialog.buttons[index].key))
            }
        }
    }

    /// The model changed: the oldest open alert is the one shown (none: the dialog goes).
    func modelChanged() {
        let next = service.model.all.last(where: \.isAlert)
        guard next?.id != dialog?.id else { return }
        hide()
        if let next { show(next) }
    }

    private func show(_ notification: Notification) {
        let dialog = AlertDialog(notification)
        let renderer = self.renderer ?? PanelRenderer()
        self.renderer = renderer
        // Bound before the surface is committed: its `enter` comes once the dialog is mapped.
        wayland.seats.first?.takeKeyboard(for: self, Keyboard.Listener(onKey: { [unowned self] surface, press in
            guard let overlay = self.overlay, overlay.owns(surface), var dialog = self.dialog,
                  let key = CenterKey(keysym: press.keysym, text: press.text, shift: press.shift) else { return }
            let command = dialog.handle(key)
            self.dialog = dialog
            self.perform(command)
        }, onFocus: { _, _ in }))
        let output = wayland.focusedOutput
        let overlay = OverlaySurface(wayland: wayland, output: output,
                                     placement: OverlaySurface.Placement(anchor: .topCenter, margins: Margins(all: 0)),
                                     scale: output?.scale ?? wayland.outputs.map(\.scale).max() ?? 1) { _, _ in nil }
        overlay.pin(to: [])  // no edge: centred on the output
        overlay.takeKeyboard(true, exclusive: true, layerShellVersion: wayland.layerShell?.version ?? 1)
        overlay.setInputRegion([Rect(origin: .zero, size: dialog.size)])
        overlay.draw = { [unowned self] buffer, scale in
            guard let dialog = self.dialog else { return nil }
            let canvas = Canvas(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
            renderer.draw(dialog.items(self.look()), into: canvas, scale: scale)
            return nil
        }
        self.dialog = dialog
        self.overlay = overlay
        overlay.setNeedsDraw(size: (dialog.size.width, dialog.size.height))
        // Its timeout (`--timeout`) runs from now, as a toast's runs from its first frame.
        service.displayed([dialog.id])
        Log.info("alert \(dialog.id) shown")
    }

    private func hide() {
        guard dialog != nil else { return }
        dialog = nil
        overlay = nil
        renderer?.releaseCaches()
        wayland.seats.first?.releaseKeyboard(for: self)
    }

    private func perform(_ command: AlertCommand) {
        guard let dialog else { return }
        switch command {
        case .none: return
        case .redraw: overlay?.setNeedsDraw(size: (dialog.size.width, dialog.size.height))
        case .answer(let key):
            do { try service.invokeAction(id: dialog.id, key: key) } catch { Log.warning("alert: \(error)") }
        case .dismiss: service.close(id: dialog.id, reason: .dismissed)
        }
    }
}
