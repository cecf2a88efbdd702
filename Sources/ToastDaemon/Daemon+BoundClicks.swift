import ToastCore

extension Daemon {
    /// Toasts a rule binds a pointer button for (`on-button-*`) take clicks without
    /// `clickable-actions`: a binding is what makes a toast clickable, as in mako.
    func startBoundClicks() {
        screen.takesClicks = { [unowned self] id in
            guard let notification = self.service.model.notification(id: id) else { return false }
            return self.service.rules.bindsButtons(on: notification, modes: self.service.model.modes)
        }
    }
}
