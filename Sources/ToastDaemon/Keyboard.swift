import CXkbCommon
import Glibc
import ToastCore
import ToastPlatform
import ToastScene
import Wayland

/// A key pressed on one of the daemon's surfaces: its keysym (xkbcommon, with the modifiers applied)
/// and the text it types ("" for keys that type none). A key held is pressed again at each repeat.
struct KeyPress {
    var keysym: UInt32
    var text: String
    var shift: Bool
}

/// A seat's keyboard, asked for only while a surface of ours takes keys (the notification center,
/// an alert): nothing is bound, no keymap compiled, while everything is pass-through. Keys are read
/// through libxkbcommon with the keymap the compositor sends (compiled once per keyboard). A key held
/// repeats as the compositor says (`repeat_info`, `KeyRepeat`), through a timer on the loop that
/// exists only while it does.
final class Keyboard {
    private let proxy: WlKeyboard
    /// The loop the repeat timer goes on (nil: keys do not repeat).
    private let loop: EventLoop?
    private var keyRepeat = KeyRepeat()
    /// The press a held key repeats, and the timer that wakes the loop for it (while it is held only).
    private var repeating: (press: KeyPress, timer: LoopTimer, count: Int)?
    private var context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    /// The surface that has the keyboard (nil: none of ours).
    private(set) var focus: WlSurface?
    /// Who listens (the center, an alert), each told every key and focus change with the surface it
    /// is for: a surface of ours got the keyboard (`enter`) or lost it (`leave`: another window took it).
    private var listeners: [ObjectIdentifier: Listener] = [:]

    struct Listener {
        var onKey: (_ surface: WlSurface?, KeyPress) -> Void
        var onFocus: (_ surface: WlSurface?, _ entered: Bool) -> Void
    }

    /// Adds (or replaces) `owner`'s listener.
    func listen(_ owner: AnyObject, _ listener: Listener) { listeners[ObjectIdentifier(owner)] = listener }

    /// Drops `owner`'s listener; returns whether anyone still listens.
    func stopListening(_ owner: AnyObject) -> Bool {
        listeners[ObjectIdentifier(owner)] = nil
        return !listeners.isEmpty
    }

    private func onFocus(_ surface: WlSurface?, _ entered: Bool) {
        for listener in Array(listeners.values) { listener.onFocus(surface, entered) }
    }

    private func onKey(_ surface: WlSurface?, _ press: KeyPress) {
        for listener in Array(listeners.values) { listener.onKey(surface, press) }
    }

    init(seat: WlSeat, loop: EventLoop?) {
        self.loop = loop
        proxy = seat.getKeyboard()
        // A handler may drop this keyboard (the center closed on Escape): stay alive until it returns.
        proxy.onEvent = { [unowned self] event in withExtendedLifetime(self) { self.handle(event) } }
    }

    deinit {
        if proxy.version >= 3 { proxy.release() }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let context { xkb_context_unref(context) }
    }

    private func handle(_ event: WlKeyboard.Event) {
        switch event {
        case let .keymap(format, fd, size):
            defer { close(fd) }
            guard format == WlKeyboard.KeymapFormat.xkbV1.rawValue else { return }
            load(fd: fd, size: Int(size))
        case let .enter(_, surface, _):
            focus = surface
            onFocus(surface, true)
        case let .leave(_, surface):
            focus = nil
            stopRepeating()
            onFocus(surface, false)
        case let .modifiers(_, depressed, latched, locked, group):
            if let state { xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group) }
        case let .key(_, _, key, keyState):
            guard keyState == WlKeyboard.KeyState.pressed.rawValue else {
                keyRepeat.released(key)
                if keyRepeat.deadline == nil { stopRepeating() }
                return
            }
            guard let press = press(evdev: key) else { return }
            startRepeating(key, press)
            onKey(focus, press)
        case let .repeatInfo(rate, delay):
            keyRepeat.configure(rate: rate, delay: delay)
            if keyRepeat.deadline == nil { stopRepeating() }
        }
    }

    /// `key` was pressed: it repeats if the keymap says it does and the reader makes it a key that
    /// moves or types (`CenterKey.repeats`); whatever repeated before stops.
    private func startRepeating(_ key: UInt32, _ press: KeyPress) {
        let repeats = keymap.map { xkb_keymap_key_repeats($0, key + 8) != 0 } ?? false
            && CenterKey(keysym: press.keysym, text: press.text, shift: press.shift)?.repeats == true
        endRepeat()
        keyRepeat.pressed(key, repeats: repeats && loop != nil, at: Self.now())
        guard let deadline = keyRepeat.deadline, let loop else { return }
        do {
            let timer = try LoopTimer(loop: loop) { [unowned self] in withExtendedLifetime(self) { self.repeatDue() } }
            repeating = (press, timer, 0)
            timer.arm(at: deadline.milliseconds * 1_000_000)
        } catch {
            Log.warning("keyboard: no timer for key repeat: \(error)")
            stopRepeating()
        }
    }

    private func repeatDue() {
        guard let repeating else { return }
        if keyRepeat.fire(at: Self.now()) != nil {
            if repeating.count == 0 {
                Log.info("keyboard: a key held repeats (\(keyRepeat.rate) a second after \(keyRepeat.delay) ms)")
            }
            self.repeating?.count += 1
            onKey(focus, repeating.press)
        }
        // A listener may have let go of the keyboard (the center closed) or the key stopped repeating.
        guard self.repeating != nil, let next = keyRepeat.deadline else { return stopRepeating() }
        repeating.timer.arm(at: next.milliseconds * 1_000_000)
    }

    private func stopRepeating() {
        keyRepeat.stop()
        endRepeat()
    }

    /// The timer of the key that repeated goes (and a line says how often it did).
    private func endRepeat() {
        if let count = repeating?.count, count > 0 { Log.info("keyboard: the key held repeated \(count) times") }
        repeating = nil
    }

    private static func now() -> Instant { Instant(milliseconds: MonotonicClock.nanoseconds() / 1_000_000) }

    /// Compiles the keymap in `fd` (the protocol's NUL-terminated text, mapped private).
    private func load(fd: Int32, size: Int) {
        guard size > 0, size <= 1 << 20, let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
            Log.warning("keyboard: the compositor's keymap cannot be read")
            return
        }
        defer { munmap(map, size) }
        if context == nil { context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) }
        guard let context,
              let made = xkb_keymap_new_from_buffer(context, map.assumingMemoryBound(to: CChar.self), strnlen(map.assumingMemoryBound(to: CChar.self), size),
                                                    XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS),
              let newState = xkb_state_new(made) else {
            Log.warning("keyboard: the compositor's keymap does not compile")
            return
        }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = made
        state = newState
    }

    /// The keysym and text of evdev key `key` in the current modifier state.
    private func press(evdev key: UInt32) -> KeyPress? {
        guard let state else { return nil }
        let code = key + 8  // xkb keycodes are evdev codes + 8
        let sym = xkb_state_key_get_one_sym(state, code)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = xkb_state_key_get_utf8(state, code, &buffer, buffer.count)
        let text = length > 0 && length < buffer.count
            ? String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let shift = xkb_state_mod_name_is_active(state, XKB_MOD_NAME_SHIFT, XKB_STATE_MODS_EFFECTIVE) > 0
        return KeyPress(keysym: sym, text: text, shift: shift)
    }
}
