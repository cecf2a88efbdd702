import ToastCore
import ToastPlatform
import ToastRender
import ToastScene
import ToastVocabulary

extension Daemon {
    /// Toasts that take the pointer take the keyboard too once clicked, when they take a reply (a
    /// click on the body, or on the `inline-reply` pill): the click opens their reply field.
    func startReplyOnClick() {
        let toastClicked = screen.onToastClicked
        screen.onToastClicked = { [unowned self] id, press in
            if self.toastFocus.isFocused(id) { return }  // a click into the field being typed in
            guard press.button == .left, self.toastFocus.takesReply(id), self.toastFocus.focus(id) else {
                return toastClicked(id, press)
            }
        }
        let actionClicked = screen.onActionClicked
        screen.onActionClicked = { [unowned self] id, index, press in
            let key = self.service.model.notification(id: id)?.buttonActions[safe: index]?.key
            if key == InlineReply.actionKey, self.toastFocus.focus(id) { return }
            actionClicked(id, index, press)
        }
    }
}

/// A toast with the keyboard: `toast focus` (bound to a key in the compositor) gives it to the newest
/// toast, a click to a toast that takes a reply. Its surface takes the keyboard (layer shell
/// `exclusive`, the only mode a compositor gives focus to unasked) until Escape, an answer, or the
/// toast closing; then it is pass-through again and the compositor gives the keyboard back to the
/// window that had it. What the keys do is `ToastKeys`; a toast that takes a reply shows its field
/// meanwhile, and no toast's timeout runs.
final class ToastFocus {
    private unowned let wayland: WaylandConnection
    private unowned let service: ToastService
    private unowned let screen: Screen
    /// The toast that has the keyboard, its surface, and what was chosen and typed on it.
    private var focused: (keys: ToastKeys, surface: OverlaySurface)? {
        didSet { onChange() }
    }
    /// The keyboard went to a toast or left it, or Tab chose another button (screen readers are told).
    var onChange: () -> Void = {}

    /// The toast that has the keyboard and the key of the button Tab chose on it (nil: none chosen).
    var current: (id: NotificationID, chosenAction: String?)? {
        guard let keys = focused?.keys, let notification = service.model.notification(id: keys.id) else { return nil }
        return (keys.id, keys.chosenKey(in: ToastKeys.Offer(notification)))
    }

    init(wayland: WaylandConnection, service: ToastService, screen: Screen) {
        self.wayland = wayland
        self.service = service
        self.screen = screen
    }

    /// Draws the focused toast's reply field and the button Tab chose.
    func start() {
        let scene = screen.sceneProvider
        screen.sceneProvider = { [unowned self] in
            var made = scene()
            guard let keys = self.focused?.keys, let notification = self.service.model.notification(id: keys.id) else {
                return made
            }
            let field = keys.field(placeholder: InlineReply.placeholder(of: notification))
            let chosen = keys.chosenKey(in: ToastKeys.Offer(notification))
                .flatMap { key in notification.buttonActions.firstIndex { $0.key == key } }
            guard field != nil || chosen != nil else { return made }
            func mark(_ view: inout ToastView) {
                view.reply = field
                view.chosenAction = chosen
            }
            for index in made.toasts.indices where made.toasts[index].id == keys.id { mark(&made.toasts[index].view) }
            for stack in made.stacks.indices {
                for index in made.stacks[stack].toasts.indices where made.stacks[stack].toasts[index].id == keys.id {
                    mark(&made.stacks[stack].toasts[index].view)
                }
            }
            return made
        }
    }

    func isFocused(_ id: NotificationID) -> Bool { focused?.keys.id == id }

    func takesReply(_ id: NotificationID) -> Bool {
        service.model.notification(id: id).map(InlineReply.accepts) ?? false
    }

    /// Gives the newest toast showing the keyboard; returns its id (nil: none shows).
    func focusNewest() -> NotificationID? {
        screen.update()  // the surfaces as the model is now
        guard let id = service.newestShowing, focus(id) else { return nil }
        return id
    }

    /// Gives toast `id` the keyboard; false when it is not on screen.
    @discardableResult
    func focus(_ id: NotificationID) -> Bool {
        guard let surface = screen.toastSurface(showing: id) else { return false }
        release()
        focused = (ToastKeys(id: id), surface)
        wayland.seats.first?.takeKeyboard(for: self, Keyboard.Listener(onKey: { [unowned self] owner, press in
            guard let focused = self.focused, focused.surface.owns(owner),
                  let key = CenterKey(keysym: press.keysym, text: press.text, shift: press.shift) else { return }
            self.handle(key)
        }, onFocus: { [unowned self] owner, entered in
            // Another window took the keyboard (the compositor's doing): it is the toast's no more.
            if !entered, let focused = self.focused, focused.surface.owns(owner) { self.release() }
        }))
        // After the keyboard is bound: its `enter` comes for the surface once this commit gives it focus.
        surface.takeKeyboard(true, exclusive: true, layerShellVersion: wayland.layerShell?.version ?? 1)
        surface.commitState()
        service.holdKeyboard(true)
        Log.info("toast \(id) has the keyboard")
        if takesReply(id) { screen.update() }  // its reply field shows
        return true
    }

    private func handle(_ key: CenterKey) {
        guard var keys = focused?.keys, let notification = service.model.notification(id: keys.id) else { return release() }
        let command = keys.handle(key, offer: ToastKeys.Offer(notification))
        focused?.keys = keys
        let id = keys.id
        switch command {
        case .none: break
        case .redraw: screen.update()
        case .choose(let action):
            Log.info("toast \(id): \(action) chosen (Enter invokes it)")
            screen.update()  // drawn ringed
        case .release: release()
        case .invoke(let action):
            release()
            do { try service.invokeAction(id: id, key: action) } catch { Log.warning("toast focus: \(error)") }
        case .dismiss:
            release()
            service.close(id: id, reason: .dismissed)
        case .reply(let text):
            release()
            do { try service.reply(id: id, text: text) } catch { Log.warning("toast reply: \(error)") }
        }
    }

    /// The model changed: a focused toast that closed gives the keyboard back.
    func modelChanged() {
        guard let id = focused?.keys.id, service.model.notification(id: id) == nil else { return }
        release()
    }

    private func release() {
        guard let focused else { return }
        self.focused = nil
        focused.surface.takeKeyboard(false, layerShellVersion: wayland.layerShell?.version ?? 1)
        focused.surface.commitState()
        wayland.seats.first?.releaseKeyboard(for: self)
        service.holdKeyboard(false)
        screen.update()  // its reply field and the chosen button's ring go
        Log.info("toast \(focused.keys.id) gave the keyboard back")
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
