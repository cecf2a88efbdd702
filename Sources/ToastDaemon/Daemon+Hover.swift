extension Daemon {
    /// Hover pauses expiry (mako #263): while the pointer is over a surface of ours, no drawn toast's
    /// timeout runs; when it leaves they run again, each with at least a second left. The pointer only
    /// ever enters the surfaces that take it (toasts with `clickable-actions`, the notification center),
    /// so pass-through toasts never pause.
    func startHoverPause() {
        wayland.onPointerHover = { [unowned self] _, entered in self.service.hover(entered) }
    }
}
