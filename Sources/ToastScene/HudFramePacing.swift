import ToastConfig
import ToastCore

/// When a HUD commit asks the compositor for a frame callback. A toast stack asks at every commit: its
/// fades are driven by frames. A steady HUD has no frame to drive: a bar's value or a spinner's step is
/// drawn when it comes (the daemon's loop or timer says when), as wob draws a line of its stdin. A
/// callback per value cost a request, two events to dispatch (`done`, the id's deletion) and an object
/// made and freed, a fifth of a value's CPU.
///
/// Pacing is kept where it matters: while the HUD fades (frames drive the fade), and when values come
/// faster than a display shows them (a commit within `interval` of the last), so a flood of values is
/// drawn at most once per frame shown, as before.
package enum HudFramePacing {
    /// Commits closer together than this (a frame at 60 Hz) are paced by frame callbacks.
    package static let interval: Int64 = 16_000_000

    /// Whether a commit asks for a frame callback: while the scene animates, or when the last commit
    /// was less than `interval` nanoseconds ago (nil: there was none).
    package static func asksFrame(animating: Bool, sinceLastCommit: Int64?) -> Bool {
        animating || sinceLastCommit.map { $0 < interval } ?? false
    }
}
