import ToastAccessibility
import ToastConfig
import ToastCore
import ToastPlatform
import ToastRender
import ToastScene
import ToastVocabulary

/// What screen readers are told (docs/accessibility.md): while assistive technology is on, the
/// shown toasts are AT-SPI notification objects on the accessibility bus, their actions buttons a
/// reader can press. While it is off, only the status watch exists: two match rules on the session
/// bus connection the daemon already has, no connection, no fd, no wakeup.
final class DaemonAccessibility {
    var status: AccessibilityStatus?
    var bus: AccessibilityBus?
    /// What epoll watches the accessibility bus's fd for.
    var events: UInt32 = 0
    /// Wakes the daemon when a HUD value waits to be told (`a11y-hud-interval`); exists only while
    /// the bus is connected, and is armed only while a value waits.
    var timer: DeadlineTimer?
}

extension Daemon {
    /// Starts following assistive technology's status, when the configuration lets it and there is a
    /// session bus.
    func startAccessibility() {
        guard config.accessibility == .auto, accessibility.status == nil,
              let session = busDoor?.bus?.connection else { return }
        toastFocus.onChange = { [unowned self] in self.showAccessibleToasts() }
        do {
            let status = try AccessibilityStatus(session: session)
            status.onChange = { [unowned self] address in self.accessibilityTurned(address) }
            accessibility.status = status
        } catch {
            Log.warning("accessibility: \(error); screen readers will not hear toasts")
        }
    }

    /// Stops following it and leaves the accessibility bus (`accessibility = off` on reload).
    func stopAccessibility() {
        closeAccessibilityBus()
        accessibility.status = nil
    }

    private func accessibilityTurned(_ address: String?) {
        closeAccessibilityBus()
        guard let address else {
            Log.info("accessibility: assistive technology is off")
            return
        }
        do {
            let bus = try AccessibilityBus(address: address)
            bus.onAction = { [unowned self] id, key in
                do {
                    try self.service.invokeAction(id: id, key: key)
                } catch {
                    Log.warning("accessibility: action \(key) of \(id): \(error)")
                }
            }
            bus.onAnnouncementsHeard = { heard in
                Log.info(heard ? "accessibility: a reader listens for announcements; critical toasts are announced assertively"
                               : "accessibility: no reader listens for announcements; critical toasts are told as the others")
            }
            accessibility.events = bus.epollEvents
            try loop.add(fd: bus.fd, events: accessibility.events) { [unowned self] _ in self.processAccessibility() }
            accessibility.bus = bus
            let timer = try DeadlineTimer()
            try loop.add(fd: timer.fd, events: EventLoop.readable) { [unowned self] _ in self.announceWaitingValue() }
            accessibility.timer = timer
            Log.info("accessibility: toasts are exposed to assistive technology on \(address)")
            showAccessibleToasts()
        } catch {
            Log.warning("accessibility: \(error); screen readers will not hear toasts")
        }
    }

    private func closeAccessibilityBus() {
        if let timer = accessibility.timer { loop.remove(fd: timer.fd) }
        accessibility.timer = nil
        guard let bus = accessibility.bus else { return }
        loop.remove(fd: bus.fd)
        accessibility.bus = nil
    }

    private func announceWaitingValue() {
        guard let bus = accessibility.bus, let timer = accessibility.timer else { return }
        timer.acknowledge()
        bus.announceWaiting(now: Self.now().milliseconds)
        timer.arm(at: bus.nextAnnouncement.map { $0 * 1_000_000 })
        watchAccessibility(bus)
    }

    private func processAccessibility() {
        guard let bus = accessibility.bus else { return }
        do {
            try bus.process()
        } catch {
            Log.warning("accessibility: \(error)")
            closeAccessibilityBus()
            return
        }
        watchAccessibility(bus)
    }

    /// The shown toasts and the value bar to the accessible tree (after every change to the service).
    func showAccessibleToasts() {
        guard let bus = accessibility.bus else { return }
        let (toasts, bar) = service.readModel { model in (model.visible.map(Self.accessibleToast), model.hud.bar) }
        bus.barInterval = config.accessibleHudInterval
        bus.show(toasts, bar: bar.map(accessibleBar), focus: accessibleFocus(in: toasts), now: Self.now().milliseconds)
        accessibility.timer?.arm(at: bus.nextAnnouncement.map { $0 * 1_000_000 })
        watchAccessibility(bus)
    }

    /// The toast with the keyboard, or the button Tab chose on it, among `toasts`.
    private func accessibleFocus(in toasts: [AccessibleTree.Toast]) -> AccessibleTree.Focus? {
        guard let (id, key) = toastFocus.current else { return nil }
        let action = key.flatMap { key in toasts.first { $0.id == id }?.actions.firstIndex { $0.key == key } }
        return AccessibleTree.Focus(toast: id, action: action)
    }

    /// The bar as drawn: its title and its size in the current look.
    private func accessibleBar(_ bar: ValueBar) -> AccessibleTree.Bar {
        let name = bar.label ?? Animator.title(ofKind: bar.kind)
        let size = renderer.measureHud(.bar(HudBarView(label: name, value: bar.value, muted: bar.isMuted)), scale: 1)
        return AccessibleTree.Bar(name: name, value: bar.value, muted: bar.isMuted, maximum: config.hud.barMaximum,
                                  width: size.width, height: size.height)
    }

    private static func accessibleToast(_ n: Notification) -> AccessibleTree.Toast {
        AccessibleTree.Toast(id: n.id, summary: n.summary, body: PlainText.fromMarkup(n.body),
                             actions: n.actions.map { .init(key: $0.key, label: $0.label.isEmpty ? $0.key : $0.label) },
                             critical: n.urgency == .critical)
    }

    private func watchAccessibility(_ bus: AccessibilityBus) {
        let events = bus.epollEvents
        guard events != accessibility.events else { return }
        accessibility.events = events
        loop.modify(fd: bus.fd, events: events)
    }
}
