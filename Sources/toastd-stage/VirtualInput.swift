import Glibc
import Wayland

/// evdev code of the left mouse button.
let buttonLeft: UInt32 = 0x110

/// A virtual pointer on the seat, mapped to one output so that absolute motion is in that
/// output's layout pixels.
struct VirtualPointer {
    let pointer: ZwlrVirtualPointerV1
    /// The output's logical size: the extents of absolute motion.
    let width: UInt32, height: UInt32

    /// Creates the pointer on the output named `outputName` (else the first output).
    init(globals: Globals, seat: WlSeat?, outputName: String?) throws(WaylandError) {
        let manager = globals.require(ZwlrVirtualPointerManagerV1.self, maxVersion: 2)
        let outputs = try globals.outputs()
        guard let output = outputs.first(where: { $0.name != nil && $0.name == outputName }) ?? outputs.first else {
            fail("the compositor has no output")
        }
        if let outputName, output.name != outputName {
            complain("no output \(outputName); using \(output.name ?? "the first output")")
        }
        pointer = manager.version >= 2
            ? manager.createVirtualPointerWithOutput(seat: seat, output: output.output)
            : manager.createVirtualPointer(seat: seat)
        width = UInt32(max(1, output.logicalWidth))
        height = UInt32(max(1, output.logicalHeight))
    }

    func move(x: UInt32, y: UInt32) {
        pointer.motionAbsolute(time: monotonicMilliseconds(), x: min(x, width - 1), y: min(y, height - 1),
                               xExtent: width, yExtent: height)
        pointer.frame()
    }

    func click(button: UInt32 = buttonLeft) {
        pointer.button(time: monotonicMilliseconds(), button: button, state: .pressed)
        pointer.frame()
        pointer.button(time: monotonicMilliseconds(), button: button, state: .released)
        pointer.frame()
    }
}

/// A virtual keyboard on the seat with the default "us" keymap.
struct VirtualKeyboard {
    let keyboard: ZwpVirtualKeyboardV1
    let keymap: Keymap

    init(globals: Globals, seat: WlSeat) {
        let manager = globals.require(ZwpVirtualKeyboardManagerV1.self, maxVersion: 1)
        guard let keymap = Keymap() else { fail("libxkbcommon cannot compile the us keymap (is xkb-data installed?)") }
        guard let file = keymap.memfd() else { fail("cannot write the keymap to a memfd") }
        keyboard = manager.createVirtualKeyboard(seat: seat)
        keyboard.keymap(format: WlKeyboard.KeymapFormat.xkbV1.rawValue, fd: file.fd, size: file.size)
        // libwayland keeps its own copy of the fd until the request is sent.
        close(file.fd)
        self.keymap = keymap
    }

    /// An evdev code from a number ("30") or a keysym name ("a", "Return", "Escape").
    func code(for key: String) -> UInt32? {
        if let number = UInt32(key) { return number }
        return keymap.evdevCode(forKeysymNamed: key)
    }

    func tap(code: UInt32) {
        keyboard.key(time: monotonicMilliseconds(), key: code, state: WlKeyboard.KeyState.pressed.rawValue)
        keyboard.key(time: monotonicMilliseconds(), key: code, state: WlKeyboard.KeyState.released.rawValue)
    }
}

/// `toastd-stage click X Y [--output NAME] [--button left|right|middle]` and `move X Y`: one click
/// (left unless told) or only a move, at output coordinates.
func click(_ arguments: [String], press: Bool) throws(WaylandError) {
    var rest = arguments
    var outputName = getenv("STAGE_OUTPUT").map { String(cString: $0) }
    if let i = rest.firstIndex(of: "--output"), i + 1 < rest.count {
        outputName = rest[i + 1]
        rest.removeSubrange(i...(i + 1))
    }
    var button = buttonLeft
    if let i = rest.firstIndex(of: "--button"), i + 1 < rest.count {
        // linux/input-event-codes.h: BTN_LEFT, BTN_RIGHT, BTN_MIDDLE.
        switch rest[i + 1] {
        case "left": button = 0x110
        case "right": button = 0x111
        case "middle": button = 0x112
        default: usage()
        }
        rest.removeSubrange(i...(i + 1))
    }
    guard rest.count == 2, let x = UInt32(rest[0]), let y = UInt32(rest[1]) else { usage() }
    let display = try WaylandDisplay()
    let globals = try Globals(display: display)
    let seat = globals.bind(WlSeat.self, maxVersion: 5)
    let pointer = try VirtualPointer(globals: globals, seat: seat, outputName: outputName)
    pointer.move(x: x, y: y)
    if press { pointer.click(button: button) }
    try display.roundtrip()
    pointer.pointer.destroy()
    try display.roundtrip()
}

/// `toastd-stage key NAME|CODE...`: presses and releases each key in turn.
func key(_ arguments: [String]) throws(WaylandError) {
    guard !arguments.isEmpty else { usage() }
    let display = try WaylandDisplay()
    let globals = try Globals(display: display)
    let seat = globals.require(WlSeat.self, maxVersion: 5)
    let keyboard = VirtualKeyboard(globals: globals, seat: seat)
    var codes: [UInt32] = []
    for name in arguments {
        guard let code = keyboard.code(for: name) else { fail("no key \(name) in the us keymap") }
        codes.append(code)
    }
    try display.roundtrip()  // the keymap is in place before the first key
    for code in codes { keyboard.tap(code: code) }
    try display.roundtrip()
    keyboard.keyboard.destroy()
    try display.roundtrip()
}

/// `toastd-stage kwin-key NAME|CODE...`: presses and releases each key in turn through KWin's fake
/// input (KWin offers no virtual keyboard; it grants fake input to a client its desktop file names,
/// or to any when started with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1, as scripts/test-kwin does).
func kwinKey(_ arguments: [String]) throws(WaylandError) {
    guard !arguments.isEmpty else { usage() }
    guard let keymap = Keymap() else { fail("libxkbcommon cannot compile the us keymap (is xkb-data installed?)") }
    var codes: [UInt32] = []
    for name in arguments {
        guard let code = UInt32(name) ?? keymap.evdevCode(forKeysymNamed: name) else { fail("no key \(name) in the us keymap") }
        codes.append(code)
    }
    let display = try WaylandDisplay()
    let globals = try Globals(display: display)
    let input = globals.require(OrgKdeKwinFakeInput.self, maxVersion: 4)
    guard input.version >= 4 else { fail("org_kde_kwin_fake_input \(input.version) has no keyboard_key") }
    input.authenticate(application: "toastd-stage", reason: "toastd's tests type into the compositor")
    for code in codes {
        input.keyboardKey(button: code, state: 1)
        input.keyboardKey(button: code, state: 0)
    }
    try display.roundtrip()
}

/// `toastd-stage hold NAME|CODE`: presses a key, prints `pressed`, and releases it when told to end
/// (SIGTERM or SIGINT): the compositor's clients see it held meanwhile (their key repeat runs).
func hold(_ arguments: [String]) throws(WaylandError) {
    guard arguments.count == 1 else { usage() }
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGTERM)
    sigaddset(&signals, SIGINT)
    sigprocmask(SIG_BLOCK, &signals, nil)
    let display = try WaylandDisplay()
    let globals = try Globals(display: display)
    let seat = globals.require(WlSeat.self, maxVersion: 5)
    let keyboard = VirtualKeyboard(globals: globals, seat: seat)
    guard let code = keyboard.code(for: arguments[0]) else { fail("no key \(arguments[0]) in the us keymap") }
    try display.roundtrip()
    keyboard.keyboard.key(time: monotonicMilliseconds(), key: code, state: WlKeyboard.KeyState.pressed.rawValue)
    try display.roundtrip()
    emit("pressed")
    var received: Int32 = 0
    sigwait(&signals, &received)
    keyboard.keyboard.key(time: monotonicMilliseconds(), key: code, state: WlKeyboard.KeyState.released.rawValue)
    try display.roundtrip()
    keyboard.keyboard.destroy()
    try display.roundtrip()
}

/// `toastd-stage seat`: plugs a virtual pointer and keyboard into the seat, prints `ready`,
/// and keeps them until stdin ends (the test process that started it is gone) or the
/// compositor goes away.
func holdSeat() throws(WaylandError) {
    let display = try WaylandDisplay()
    let globals = try Globals(display: display)
    let seat = globals.require(WlSeat.self, maxVersion: 5)
    let pointer = try VirtualPointer(globals: globals, seat: seat, outputName: nil)
    let keyboard = VirtualKeyboard(globals: globals, seat: seat)
    try display.roundtrip()
    emit("ready")
    var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
               pollfd(fd: display.fd, events: Int16(POLLIN), revents: 0)]
    while true {
        while !display.prepareRead() { try display.dispatchPending() }
        _ = try display.flush()
        fds[0].revents = 0
        fds[1].revents = 0
        if poll(&fds, 2, -1) < 0 {
            display.cancelRead()
            if errno == EINTR { continue }
            break
        }
        if fds[1].revents != 0 { try display.readEvents() } else { display.cancelRead() }
        try display.dispatchPending()
        if fds[0].revents != 0 {
            var byte: UInt8 = 0
            if read(0, &byte, 1) <= 0 { break }  // end of file: our owner is gone
        }
    }
    withExtendedLifetime((pointer, keyboard)) {}
}
