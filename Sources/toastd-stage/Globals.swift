import Glibc
import Wayland

/// The globals a stage tool may need, bound after one roundtrip over the registry.
final class Globals {
    let display: WaylandDisplay
    let registry: WlRegistry
    /// Advertised globals by interface name: (registry name, version). Outputs are listed apart.
    private(set) var advertised: [String: (name: UInt32, version: UInt32)] = [:]
    private(set) var outputGlobals: [(name: UInt32, version: UInt32)] = []

    init(display: WaylandDisplay) throws(WaylandError) {
        self.display = display
        registry = display.registry()
        registry.onEvent = { [unowned self] event in
            guard case let .global(name, interface, version) = event else { return }
            if interface == WlOutput.wlInterfaceName {
                outputGlobals.append((name, version))
            } else {
                advertised[interface] = (name, version)
            }
        }
        try display.roundtrip()
    }

    /// Binds the global of `type` at min(advertised, `maxVersion`, the bindings' version), or nil.
    func bind<T: Proxy>(_ type: T.Type, maxVersion: UInt32 = .max) -> T? {
        guard let global = advertised[T.wlInterfaceName] else { return nil }
        return registry.bind(name: global.name, type, version: min(global.version, maxVersion, T.wlMaxVersion))
    }

    /// Binds the global of `type` or exits with a message naming what is missing.
    func require<T: Proxy>(_ type: T.Type, maxVersion: UInt32 = .max) -> T {
        guard let bound = bind(type, maxVersion: maxVersion) else {
            fail("the compositor has no \(T.wlInterfaceName)")
        }
        return bound
    }

    /// Binds every output and learns its name, mode and scale (one more roundtrip).
    func outputs() throws(WaylandError) -> [OutputInfo] {
        let infos = outputGlobals.map { global in
            OutputInfo(registry.bind(name: global.name, WlOutput.self, version: min(global.version, 4, WlOutput.wlMaxVersion)))
        }
        try display.roundtrip()
        return infos
    }
}

/// One wl_output and what it said about itself.
final class OutputInfo {
    let output: WlOutput
    private(set) var name: String?
    private(set) var width: Int32 = 0
    private(set) var height: Int32 = 0
    private(set) var scale: Int32 = 1

    init(_ output: WlOutput) {
        self.output = output
        output.onEvent = { [unowned self] event in
            switch event {
            case let .mode(flags, width, height, _) where flags.contains(.current):
                self.width = width
                self.height = height
            case let .scale(factor): scale = max(1, factor)
            case let .name(name): self.name = name
            default: break
            }
        }
    }

    /// The output's size in layout (logical) pixels.
    var logicalWidth: Int32 { width / scale }
    var logicalHeight: Int32 { height / scale }
}

/// Milliseconds of CLOCK_MONOTONIC, for input event timestamps.
func monotonicMilliseconds() -> UInt32 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt32(truncatingIfNeeded: Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000)
}
