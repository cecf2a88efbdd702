import Glibc
import Wayland

/// `toastd-stage probe [--fullscreen]`: an ordinary application window that reports every pointer
/// and keyboard event it receives, one line each on stdout:
///
///     ready WIDTHxHEIGHT            the first frame is on screen
///     configure WIDTHxHEIGHT        resized later (after ready)
///     pointer-enter X Y / pointer-leave / pointer-motion X Y
///     button PRESS|RELEASE CODE X Y
///     keyboard-enter / keyboard-leave / key PRESS|RELEASE CODE
///
/// Coordinates are surface-local whole pixels; codes are evdev codes (BTN_LEFT is 272).
/// The window is a solid `Probe.colour`, so screenshots show where it is.
final class Probe {
    /// The window's colour (opaque, xrgb8888): #3070b0.
    static let colour: UInt32 = 0xFF30_70B0

    private let globals: Globals
    private let compositor: WlCompositor
    private let shm: WlShm
    private let wmBase: XdgWmBase
    private let seat: WlSeat?
    private let surface: WlSurface
    private let xdgSurface: XdgSurface
    private let toplevel: XdgToplevel

    private var pointer: WlPointer?
    private var keyboard: WlKeyboard?
    private var pointerX = 0.0, pointerY = 0.0
    /// Size from the latest toplevel configure (0: we choose).
    private var pendingWidth: Int32 = 0, pendingHeight: Int32 = 0
    private var width: Int32 = 0, height: Int32 = 0
    private var memory: SharedMemory?
    private var buffer: WlBuffer?
    private var announced = false
    /// The first frame's callback; nil once it fired (the window was on screen).
    private var firstFrame: WlCallback?
    private var presented = false
    private(set) var closed = false

    init(globals: Globals, fullscreen: Bool) {
        self.globals = globals
        compositor = globals.require(WlCompositor.self, maxVersion: 4)
        shm = globals.require(WlShm.self, maxVersion: 1)
        wmBase = globals.require(XdgWmBase.self, maxVersion: 2)
        seat = globals.bind(WlSeat.self, maxVersion: 5)
        surface = compositor.createSurface()
        xdgSurface = wmBase.getXdgSurface(surface: surface)
        toplevel = xdgSurface.getToplevel()

        wmBase.onEvent = { [unowned self] event in
            if case let .ping(serial) = event { wmBase.pong(serial: serial) }
        }
        toplevel.onEvent = { [unowned self] event in
            switch event {
            case let .configure(width, height, _):
                pendingWidth = width
                pendingHeight = height
            case .close:
                closed = true
            default: break
            }
        }
        xdgSurface.onEvent = { [unowned self] event in
            if case let .configure(serial) = event {
                xdgSurface.ackConfigure(serial: serial)
                draw()
            }
        }
        seat?.onEvent = { [unowned self] event in
            if case let .capabilities(capabilities) = event { update(capabilities) }
        }

        toplevel.setTitle(title: "toastd-stage probe")
        toplevel.setAppId(appId: "toastd-stage-probe")
        if fullscreen { toplevel.setFullscreen(output: nil) }
        surface.commit()  // no buffer yet: asks for the first configure
    }

    /// Draws a buffer of the configured size (the output's if the compositor leaves it to us).
    private func draw() {
        let w = pendingWidth > 0 ? pendingWidth : 1280
        let h = pendingHeight > 0 ? pendingHeight : 720
        if w != width || h != height || buffer == nil {
            buffer?.destroy()
            let stride = Int(w) * 4
            guard let memory = SharedMemory(size: stride * Int(h)) else { fail("cannot allocate a \(w)x\(h) buffer") }
            memory.fill(argb: Probe.colour, count: Int(w) * Int(h))
            let pool = shm.createPool(fd: memory.fd, size: Int32(memory.size))
            buffer = pool.createBuffer(offset: 0, width: w, height: h, stride: Int32(stride), format: .xrgb8888)
            pool.destroy()
            self.memory = memory
            let resized = width != 0
            width = w
            height = h
            if resized && announced { emit("configure \(w)x\(h)") }
        }
        surface.attach(buffer: buffer, x: 0, y: 0)
        surface.damageBuffer(x: 0, y: 0, width: w, height: h)
        if !announced && firstFrame == nil && !presented {
            let callback = surface.frame()
            callback.onEvent = { [unowned self] _ in
                presented = true
                firstFrame = nil
            }
            firstFrame = callback
        }
        surface.commit()
    }

    private func update(_ capabilities: WlSeat.Capability) {
        guard let seat else { return }
        if capabilities.contains(.pointer), pointer == nil {
            let pointer = seat.getPointer()
            pointer.onEvent = { [unowned self] event in handle(event) }
            self.pointer = pointer
        } else if !capabilities.contains(.pointer), let pointer {
            if pointer.version >= 3 { pointer.release() }
            self.pointer = nil
        }
        if capabilities.contains(.keyboard), keyboard == nil {
            let keyboard = seat.getKeyboard()
            keyboard.onEvent = { [unowned self] event in handle(event) }
            self.keyboard = keyboard
        } else if !capabilities.contains(.keyboard), let keyboard {
            if keyboard.version >= 3 { keyboard.release() }
            self.keyboard = nil
        }
    }

    private func handle(_ event: WlPointer.Event) {
        switch event {
        case let .enter(_, _, x, y):
            pointerX = x; pointerY = y
            emit("pointer-enter \(whole(x)) \(whole(y))")
        case .leave:
            emit("pointer-leave")
        case let .motion(_, x, y):
            pointerX = x; pointerY = y
            emit("pointer-motion \(whole(x)) \(whole(y))")
        case let .button(_, _, button, state):
            let pressed = state == WlPointer.ButtonState.pressed.rawValue
            emit("button \(pressed ? "PRESS" : "RELEASE") \(button) \(whole(pointerX)) \(whole(pointerY))")
        default:
            break
        }
    }

    private func handle(_ event: WlKeyboard.Event) {
        switch event {
        case let .keymap(_, fd, _):
            close(fd)  // we print codes, not symbols
        case .enter:
            emit("keyboard-enter")
        case .leave:
            emit("keyboard-leave")
        case let .key(_, _, key, state):
            let pressed = state == WlKeyboard.KeyState.pressed.rawValue
            emit("key \(pressed ? "PRESS" : "RELEASE") \(key)")
        default:
            break
        }
    }

    /// Runs until the compositor closes the window or the connection ends.
    func run() throws(WaylandError) -> Never {
        let display = globals.display
        // Configured, drawn, and the first frame was on screen: the window is mapped where
        // the pointer can find it.
        while !presented { try display.dispatch() }
        announced = true
        emit("ready \(width)x\(height)")
        while !closed { try display.dispatch() }
        exit(0)
    }
}
