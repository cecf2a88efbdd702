import ToastCore
import ToastVocabulary

/// Whether a change to the toasts can wait for the next frame callback. In a burst, toasts arrive
/// many times a frame; laying each one out at once made a scene (whose cost grows with the open
/// backlog) that the next one replaced before any frame showed it. Waiting for the callback, which
/// lays out whatever is current then, costs nothing the user can see: nothing would be drawn sooner.
enum FrameDeferral {
    /// How long a frame callback is trusted to come. The compositor may never send one to a surface
    /// it does not show (a `layer = top` stack under a fullscreen window): past this, changes are
    /// laid out at once.
    static let frameWait: Milliseconds = 50

    /// Until when a change may wait, given when each overlay asked for its outstanding frame callback
    /// (nil: it has none, so it could draw now) and the deadline already set for an earlier change;
    /// nil when it must be laid out now: no overlay, one free to draw, or a callback overdue.
    static func until(framesAskedAt asked: [Instant?], now: Instant, deferred: Instant?) -> Instant? {
        guard !asked.isEmpty, !asked.contains(nil), let oldest = asked.compactMap({ $0 }).min(),
              now - oldest < frameWait else { return nil }
        return deferred ?? oldest + frameWait
    }
}
