import ToastCore
import ToastRender

extension Animator {
    /// The toast of a flood (`FloodGate`): the app and how many, over the newest one's text.
    package static func floodView(_ view: ToastView, of newest: Notification, count: Int) -> ToastView {
        var view = view
        let app = newest.appName.isEmpty ? "Notifications" : newest.appName
        view.summary = "\(app) — \(count) notifications"
        let summary = MarkupSanitizer.escape(newest.summary)
        view.body = newest.body.isEmpty ? summary : "\(summary)\n\(newest.body)"
        view.formatted = nil
        view.actions = []
        return view
    }
}
