import Foundation
import Wayland
import XCTest

/// Against a real compositor (headless sway, see HeadlessSway).
final class LiveTests: XCTestCase {
    var sway: HeadlessSway!

    override func setUpWithError() throws {
        do {
            sway = try HeadlessSway.start()
        } catch let error as HeadlessSway.Unavailable {
            throw XCTSkip(error.description)
        }
    }

    override func tearDown() {
        sway?.stop()
    }

    /// Binds every global we need; returns the advertised globals by interface name.
    func globals(of display: WaylandDisplay) throws -> (WlRegistry, [String: (name: UInt32, version: UInt32)]) {
        let registry = display.registry()
        var globals: [String: (name: UInt32, version: UInt32)] = [:]
        registry.onEvent = { event in
            if case let .global(name, interface, version) = event { globals[interface] = (name, version) }
        }
        try display.roundtrip()
        return (registry, globals)
    }

    func testListGlobalsBindAndReceiveOutputEvents() throws {
        let display = try WaylandDisplay(name: sway.display)
        XCTAssertGreaterThanOrEqual(display.fd, 0)
        let (registry, globals) = try globals(of: display)
        for needed in ["wl_compositor", "wl_shm", "wl_output", "zwlr_layer_shell_v1", "xdg_wm_base"] {
            XCTAssertNotNil(globals[needed], "\(needed) not advertised; got \(globals.keys.sorted())")
        }
        let compositorGlobal = try XCTUnwrap(globals["wl_compositor"])
        let compositor = registry.bind(name: compositorGlobal.name, WlCompositor.self,
                                       version: min(compositorGlobal.version, WlCompositor.maxVersion))
        let shmGlobal = try XCTUnwrap(globals["wl_shm"])
        let shm = registry.bind(name: shmGlobal.name, WlShm.self, version: 1)
        var formats: [UInt32] = []
        shm.onEvent = { event in
            if case let .format(format) = event { formats.append(format) }
        }
        let outputGlobal = try XCTUnwrap(globals["wl_output"])
        let output = registry.bind(name: outputGlobal.name, WlOutput.self,
                                   version: min(outputGlobal.version, WlOutput.maxVersion))
        XCTAssertEqual(output.version, min(outputGlobal.version, WlOutput.maxVersion))
        var geometry: (make: String, transform: Int32)?
        var mode: (width: Int32, height: Int32, flags: WlOutput.Mode)?
        var name: String?
        var done = false
        output.onEvent = { event in
            switch event {
            case let .geometry(_, _, _, _, _, make, _, transform): geometry = (make, transform)
            case let .mode(flags, width, height, _): mode = (width, height, flags)
            case let .name(outputName): name = outputName
            case .done: done = true
            default: break
            }
        }
        try display.roundtrip()
        XCTAssertNotNil(geometry)
        XCTAssertEqual(geometry?.transform, Int32(WlOutput.Transform.normal.rawValue))
        XCTAssertEqual(mode?.width, 1280)
        XCTAssertEqual(mode?.height, 720)
        XCTAssertTrue(mode?.flags.contains(.current) ?? false)
        if output.version >= 4 { XCTAssertEqual(name, "HEADLESS-1") }
        XCTAssertTrue(done)
        XCTAssertTrue(formats.contains(WlShm.Format.argb8888.rawValue))
        XCTAssertTrue(formats.contains(WlShm.Format.xrgb8888.rawValue))

        let surface = compositor.createSurface()
        XCTAssertNotEqual(surface.id, 0)
        XCTAssertTrue(try display.flush())
        try display.roundtrip()
        XCTAssertNil(display.lastError)
    }

    func testProtocolErrorIsASwiftError() throws {
        let display = try WaylandDisplay(name: sway.display)
        let (registry, globals) = try globals(of: display)
        let compositorGlobal = try XCTUnwrap(globals["wl_compositor"])
        let compositor = registry.bind(name: compositorGlobal.name, WlCompositor.self,
                                       version: min(compositorGlobal.version, WlCompositor.maxVersion))
        try XCTSkipUnless(compositor.version >= 3, "set_buffer_scale needs wl_compositor v3")
        let surface = compositor.createSurface()
        surface.setBufferScale(scale: 0)  // must be positive: the compositor posts invalid_scale
        XCTAssertThrowsError(try display.roundtrip()) { error in
            XCTAssertEqual(error as? WaylandError,
                           .protocolError(interface: "wl_surface", objectID: surface.id,
                                          code: WlSurface.Error.invalidScale.rawValue))
        }
        XCTAssertEqual(display.lastError, .protocolError(interface: "wl_surface", objectID: surface.id, code: 0))
        // The dead connection keeps failing cleanly: requests are dropped, calls throw.
        let late = compositor.createSurface()
        late.commit()
        XCTAssertThrowsError(try display.dispatchPending())
        XCTAssertThrowsError(try display.roundtrip())
    }

    func testLayerSurfaceConfigureAndCallbacks() throws {
        let display = try WaylandDisplay(name: sway.display)
        let (registry, globals) = try globals(of: display)
        let compositorGlobal = try XCTUnwrap(globals["wl_compositor"])
        let compositor = registry.bind(name: compositorGlobal.name, WlCompositor.self,
                                       version: min(compositorGlobal.version, WlCompositor.maxVersion))
        let shellGlobal = try XCTUnwrap(globals["zwlr_layer_shell_v1"])
        let shell = registry.bind(name: shellGlobal.name, ZwlrLayerShellV1.self,
                                  version: min(shellGlobal.version, ZwlrLayerShellV1.maxVersion))
        let surface = compositor.createSurface()
        let region = compositor.createRegion()
        surface.setInputRegion(region: region)
        region.destroy()
        XCTAssertFalse(region.isAlive)
        let layerSurface = shell.getLayerSurface(surface: surface, output: nil, layer: .overlay, namespace: "toastd-test")
        XCTAssertEqual(layerSurface.version, shell.version)
        layerSurface.setSize(width: 300, height: 100)
        layerSurface.setAnchor(anchor: [.top, .right])
        layerSurface.setKeyboardInteractivity(keyboardInteractivity: .none)
        var configured: (serial: UInt32, width: UInt32, height: UInt32)?
        layerSurface.onEvent = { event in
            if case let .configure(serial, width, height) = event { configured = (serial, width, height) }
        }
        surface.commit()
        try display.roundtrip()
        let configure = try XCTUnwrap(configured)
        XCTAssertEqual(configure.width, 300)
        XCTAssertEqual(configure.height, 100)
        layerSurface.ackConfigure(serial: configure.serial)

        // A callback that is dropped before its event arrives must not be dispatched to.
        _ = display.sync()
        var syncDone = false
        let callback = display.sync()
        callback.onEvent = { event in
            if case .done = event { syncDone = true }
        }
        try display.roundtrip()
        XCTAssertTrue(syncDone)
        XCTAssertFalse(callback.isAlive, "wl_callback.done is a destructor event")
        layerSurface.destroy()
        surface.destroy()
        try display.roundtrip()
        XCTAssertNil(display.lastError)
    }

    /// Exercises the other generated protocols (including our own XML) against the compositor.
    func testOtherProtocolsWorkOnTheWire() throws {
        let display = try WaylandDisplay(name: sway.display)
        let (registry, globals) = try globals(of: display)
        func bind<T: Proxy>(_ type: T.Type) throws -> T {
            let g = try XCTUnwrap(globals[T.wlInterfaceName], "\(T.wlInterfaceName) not advertised")
            return registry.bind(name: g.name, T.self, version: min(g.version, T.wlMaxVersion))
        }
        let output = try bind(WlOutput.self)
        let outputManager = try bind(ZxdgOutputManagerV1.self)
        let xdgOutput = outputManager.getXdgOutput(output: output)
        var logicalSize: (Int32, Int32)?
        var xdgDone = false
        xdgOutput.onEvent = { event in
            switch event {
            case let .logicalSize(width, height): logicalSize = (width, height)
            case .done: xdgDone = true
            default: break
            }
        }
        let seat = try bind(WlSeat.self)
        var capabilities: WlSeat.Capability?
        seat.onEvent = { event in
            if case let .capabilities(c) = event { capabilities = c }
        }
        let wmBase = try bind(XdgWmBase.self)
        let viewporter = try bind(WpViewporter.self)
        let activation = try bind(XdgActivationV1.self)
        let pointerManager = try bind(ZwlrVirtualPointerManagerV1.self)
        let keyboardManager = try bind(ZwpVirtualKeyboardManagerV1.self)
        try display.roundtrip()
        XCTAssertEqual(logicalSize?.0, 1280)
        XCTAssertEqual(logicalSize?.1, 720)
        if xdgOutput.version < 3 { XCTAssertTrue(xdgDone) }
        XCTAssertNotNil(capabilities)

        let compositor = try bind(WlCompositor.self)
        let surface = compositor.createSurface()
        let viewport = viewporter.getViewport(surface: surface)
        viewport.setDestination(width: 10, height: 10)
        let xdgSurface = wmBase.getXdgSurface(surface: surface)
        let toplevel = xdgSurface.getToplevel()
        toplevel.setTitle(title: "toastd test")
        toplevel.setAppId(appId: "toastd.test")
        let token = activation.getActivationToken()
        token.setSurface(surface: surface)
        var tokenString: String?
        token.onEvent = { event in
            if case let .done(value) = event { tokenString = value }
        }
        token.commit()
        let pointer = pointerManager.createVirtualPointer(seat: seat)
        pointer.motion(time: 0, dx: 1.5, dy: -2.25)
        pointer.frame()
        pointer.destroy()
        let keyboard = keyboardManager.createVirtualKeyboard(seat: seat)
        keyboard.destroy()
        try display.roundtrip()
        XCTAssertNotNil(tokenString)
        XCTAssertNil(display.lastError)
        toplevel.destroy()
        xdgSurface.destroy()
        viewport.destroy()
        surface.destroy()
        try display.roundtrip()
        XCTAssertNil(display.lastError)
    }

    func testEventsNeverReachAFreedObject() throws {
        let display = try WaylandDisplay(name: sway.display)
        let (registry, globals) = try globals(of: display)
        let outputGlobal = try XCTUnwrap(globals["wl_output"])
        var calls = 0
        weak var weakOutput: WlOutput?
        do {
            let output = registry.bind(name: outputGlobal.name, WlOutput.self, version: 2)
            output.onEvent = { _ in calls += 1 }
            weakOutput = output
        }
        XCTAssertNil(weakOutput, "nothing else keeps a proxy alive")
        try display.roundtrip()  // geometry/mode/done arrive for the destroyed proxy and are dropped
        XCTAssertEqual(calls, 0)

        // A handler may drop the last reference to its own object.
        var holder: WlCallback? = display.sync()
        weak let weakCallback = holder
        var fired = 0
        holder?.onEvent = { _ in
            fired += 1
            holder = nil
        }
        try display.roundtrip()
        XCTAssertEqual(fired, 1)
        XCTAssertNil(holder)
        XCTAssertNil(weakCallback)
        XCTAssertNil(display.lastError)
    }

    func testOwnEventLoopWithPrepareRead() throws {
        let display = try WaylandDisplay(name: sway.display)
        var done = false
        let callback = display.sync()
        callback.onEvent = { _ in done = true }
        let deadline = Date().addingTimeInterval(5)
        while !done && Date() < deadline {
            while !display.prepareRead() { try display.dispatchPending() }
            _ = try display.flush()
            var pfd = pollfd(fd: display.fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 100) > 0 {
                try display.readEvents()
            } else {
                display.cancelRead()
            }
            try display.dispatchPending()
        }
        XCTAssertTrue(done)
    }
}

final class ConnectionErrorTests: XCTestCase {
    func testNoCompositorIsAClearError() {
        XCTAssertThrowsError(try WaylandDisplay(name: "/nonexistent/toastd-no-such-display")) { error in
            guard case let .noDisplay(name, _)? = error as? WaylandError else {
                return XCTFail("expected .noDisplay, got \(error)")
            }
            XCTAssertEqual(name, "/nonexistent/toastd-no-such-display")
        }
    }
}
