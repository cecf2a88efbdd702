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
