import ToastConfig
import ToastCore
import ToastVocabulary

/// Whether a change to the toasts can wait for the next frame callback. In a burst, toasts arrive
/// many times a frame; laying each one out at once made a scene (whose cost grows with the open
/// backlog) that the next one replaced before any frame showed it. Waiting for the callback, which
/// lays out whatever is current then, costs nothing the user can see: nothing would be drawn sooner.
package enum FrameDeferral {
    /// How long a frame callback is trusted to come. The compositor may never send one to a surface
    /// it does not show (a `layer = top` stack under a fullscreen window): past this, changes are
    /// laid out at once.
    package static let frameWait: Milliseconds = 50

    /// Until when a change may wait, given when each overlay asked for its outstanding frame callback
    /// (nil: it has none, so it could draw now) and the deadline already set for an earlier change;
    /// nil when it must be laid out now: no overlay, one free to draw, or a callback overdue.
    package static func until(framesAskedAt asked: [Instant?], now: Instant, deferred: Instant?) -> Instant? {
        guard !asked.isEmpty, !asked.contains(nil), let oldest = asked.compactMap({ $0 }).min(),
              now - oldest < frameWait else { return nil }
        return deferred ?? oldest + frameWait
    }
}

/// Which frame deadline (`Screen.deferredUntil`, `FrameDeferral`) the daemon's one timer was armed
/// with. Toasts waiting for a frame callback are laid out when it comes, not at the deadline, so
/// the deadline goes away in the Wayland dispatch, not in a turn that arms the timer: left armed,
/// it woke the loop ~15 ms after every deferred frame for nothing (and after a drop of the mapped
/// pages, mapped back the code that wakeup ran). `DeadlineTimer` keeps an earlier deadline armed
/// (for the HUD's hiding, which each value moves later); a frame deadline that is gone must not be.
package struct FrameDeadlineArming {
    /// The frame deadline when the timer was last armed.
    package private(set) var armed: Instant?

    /// The screen's frame deadline is not the one the timer was armed with: arm it again.
    package func isStale(_ frameDeadline: Instant?) -> Bool { frameDeadline != armed }

    /// The deadline to arm the timer at for the model's next deadline, the spinner's next step and
    /// the screen's frame deadline (the earliest), and whether the timer may keep an earlier deadline
    /// armed: only while the frame deadline is the one it was armed with.
    package mutating func arm(model: Instant?, spinner: Instant?, frame: Instant?) -> (due: Instant?, keepingEarlier: Bool) {
        let keepingEarlier = !isStale(frame)
        armed = frame
        return (Instant.earliest(Instant.earliest(model, spinner), frame), keepingEarlier)
    }

    package init(armed: Instant? = nil) {
        self.armed = armed
    }
}
