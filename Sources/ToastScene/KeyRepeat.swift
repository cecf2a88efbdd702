import ToastCore

/// Key repeat, as the compositor asks it (`wl_keyboard.repeat_info`), pure: the key held repeats
/// after `delay`, then `rate` times a second, until it is released, another key is pressed or the
/// keyboard leaves. The daemon keeps a timer on its loop only while a key repeats (`deadline`).
package struct KeyRepeat: Equatable, Sendable {
    /// Repeats per second (0: keys do not repeat).
    package private(set) var rate = KeyRepeat.defaultRate
    /// Milliseconds from the press to the first repeat.
    package private(set) var delay = KeyRepeat.defaultDelay
    /// The compositor's settings when it sends none (wl_keyboard before version 4): sway's and
    /// Weston's defaults.
    package static let defaultRate = 25
    package static let defaultDelay = 600

    /// The key that repeats (its evdev code) and when it repeats next.
    package private(set) var held: Held?
    package struct Held: Equatable, Sendable {
        package var key: UInt32
        package var next: Instant
    }

    package init() {}

    /// When the timer should wake the loop next; nil: nothing repeats (no timer).
    package var deadline: Instant? { held?.next }

    /// `wl_keyboard.repeat_info`: negative values are read as 0 (no repeat).
    package mutating func configure(rate: Int32, delay: Int32) {
        self.rate = max(0, Int(rate))
        self.delay = max(0, Int(delay))
        if self.rate == 0 { held = nil }
    }

    /// Milliseconds between repeats (at least one: a rate past 1,000 repeats every millisecond).
    package var interval: Int64 { rate > 0 ? max(1, Int64(1000 / rate)) : 0 }

    /// `key` was pressed at `now`: it repeats when `repeats` (the keymap and the reader both say so),
    /// and whatever repeated before stops.
    package mutating func pressed(_ key: UInt32, repeats: Bool, at now: Instant) {
        held = repeats && rate > 0 ? Held(key: key, next: now + Int64(delay)) : nil
    }

    /// `key` was released: it stops repeating if it was the one.
    package mutating func released(_ key: UInt32) {
        if held?.key == key { held = nil }
    }

    /// The keyboard left, or its reader went: nothing repeats.
    package mutating func stop() { held = nil }

    /// The timer woke at `now`: the key to repeat once (nil: none is due yet), the next repeat
    /// scheduled. After a stall (the loop busy longer than an interval) the repeats missed are
    /// dropped, not sent in a burst: the next comes an interval after now.
    package mutating func fire(at now: Instant) -> UInt32? {
        guard var held, now >= held.next else { return nil }
        held.next = held.next + interval
        if held.next <= now { held.next = now + interval }
        self.held = held
        return held.key
    }
}
