import ToastCore
import ToastPlatform
import ToastScene
import ToastVocabulary

/// `toast focus` (bound to a key in the compositor): the newest toast's surface takes the keyboard
/// (layer shell `exclusive`, the only mode a compositor gives focus to unasked) until Escape, an
/// answer, or the toast closing; then it is pass-through again and the compositor gives the keyboard
/// back to the window that had it. Enter invokes the default action (or the button Tab chose), Tab
/// and Shift+Tab choose among its buttons.
final class ToastFocus {
    private unowned let wayland: WaylandConnection
    private unowned let service: ToastService
    private unowned let screen: Screen
    /// The toast that has the keyboard, its surface, and the button Tab chose (nil: the default action).
    private var focused: (id: NotificationID, surface: OverlaySurface, button: Int?)?

    init(wayland: WaylandConnection, service: ToastService, screen: Screen) {
        self.wayland = wayland
        self.service = service
        self.screen = screen
    }

    /// Gives the newest toast showing the keyboard; returns its id (nil: none shows).
    func focusNewest() -> NotificationID? {
        screen.update()  // the surfaces as the model is now
        guard let id = service.newestShowing, let surface = screen.toastSurface(showing: id) else { return nil }
        release()
        focused = (id, surface, nil)
        wayland.seats.first?.takeKeyboard(for: self, Keyboard.Listener(onKey: { [unowned self] owner, press in
            guard let focused = self.focused, focused.surface.owns(owner),
                  let key = CenterKey(keysym: press.keysym, text: press.text, shift: press.shift) else { return }
            self.handle(key)
        }, onFocus: { _, _ in }))
        // After the keyboard is bound: its `enter` comes for the surface once this commit gives it focus.
        surface.takeKeyboard(true, exclusive: true, layerShellVersion: wayland.layerShell?.version ?? 1)
        surface.commitState()
        Log.info("toast \(id) has the keyboard (toast focus)")
        return id
    }

    private func handle(_ key: CenterKey) {
        guard let (id, _, button) = focused, let notification = service.model.notification(id: id) else { return release() }
        let buttons = notification.buttonActions
        switch key {
        case .escape: release()
        case .tab, .right, .backTab, .left:
            guard !buttons.isEmpty else { return }
            let step = key == .tab || key == .right ? 1 : -1
            let next = button.map { ($0 + step + buttons.count) % buttons.count } ?? (step > 0 ? 0 : buttons.count - 1)
            focused?.button = next
            Log.info("toast \(id): \(buttons[next].key) chosen (Enter invokes it)")
        case .enter:
            let key = button.map { buttons[$0].key } ?? NotificationAction.defaultKey
            release()
            if notification.actions.contains(where: { $0.key == key }) {
                do { try service.invokeAction(id: id, key: key) } catch { Log.warning("toast focus: \(error)") }
            } else {
                service.close(id: id, reason: .dismissed)
            }
        default: break
        }
    }

    /// The model changed: a focused toast that closed gives the keyboard back.
    func modelChanged() {
        guard let id = focused?.id, service.model.notification(id: id) == nil else { return }
        release()
    }

    private func release() {
        guard let focused else { return }
        self.focused = nil
        focused.surface.takeKeyboard(false, layerShellVersion: wayland.layerShell?.version ?? 1)
        focused.surface.commitState()
        wayland.seats.first?.releaseKeyboard(for: self)
        Log.info("toast \(focused.id) gave the keyboard back")
    }
}
