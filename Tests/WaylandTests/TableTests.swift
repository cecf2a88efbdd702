import CWayland
import Foundation
import Wayland
import XCTest

/// The generated wl_interface tables against libwayland-client's own exported ones.
final class TableTests: XCTestCase {
    /// Interface names defined in the system wayland.xml.
    func coreInterfaceNames() throws -> [String] {
        let xml = try String(contentsOfFile: "/usr/share/wayland/wayland.xml", encoding: .utf8)
        let regex = try NSRegularExpression(pattern: "<interface name=\"([a-z_0-9]+)\"")
        return regex.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)).map {
            String(xml[Range($0.range(at: 1), in: xml)!])
        }
    }

    /// libwayland-client's exported table for an interface (`wl_surface_interface`, ...).
    func libwaylandInterface(_ name: String) -> UnsafePointer<wl_interface>? {
        let handle = dlopen(nil, RTLD_NOW)
        guard let handle else { return nil }
        defer { dlclose(handle) }
        return dlsym(handle, name + "_interface").map { UnsafePointer($0.assumingMemoryBound(to: wl_interface.self)) }
    }

    /// Number of wire arguments in a signature (skips the since prefix and `?`).
    func argumentCount(_ signature: UnsafePointer<CChar>) -> Int {
        String(cString: signature).filter { $0.isLetter }.count
    }

    func assertMessagesEqual(_ ours: UnsafePointer<wl_message>?, _ theirs: UnsafePointer<wl_message>?, count: Int32,
                             _ context: String) {
        for index in 0..<Int(count) {
            let a = ours![index], b = theirs![index]
            let where_ = "\(context)[\(index)] \(String(cString: b.name))"
            XCTAssertEqual(String(cString: a.name), String(cString: b.name), where_)
            XCTAssertEqual(String(cString: a.signature), String(cString: b.signature), where_)
            let n = argumentCount(b.signature)
            for slot in 0..<n {
                let ta = a.types[slot], tb = b.types[slot]
                XCTAssertEqual(ta.map { String(cString: $0.pointee.name) }, tb.map { String(cString: $0.pointee.name) },
                               "\(where_) type \(slot)")
                if let ta { XCTAssertEqual(ta, WaylandInterfaces.interface(named: String(cString: ta.pointee.name)),
                                           "\(where_) type \(slot) points into our own table") }
            }
        }
    }

    func testGeneratedTablesEqualLibwayland() throws {
        let names = try coreInterfaceNames()
        XCTAssertGreaterThan(names.count, 20)
        for name in names {
            let ours = try XCTUnwrap(WaylandInterfaces.interface(named: name), "\(name) not generated")
            let theirs = try XCTUnwrap(libwaylandInterface(name), "\(name)_interface not exported by libwayland")
            XCTAssertNotEqual(ours, theirs)
            XCTAssertEqual(String(cString: ours.pointee.name), String(cString: theirs.pointee.name))
            XCTAssertEqual(ours.pointee.version, theirs.pointee.version, name)
            XCTAssertEqual(ours.pointee.method_count, theirs.pointee.method_count, name)
            XCTAssertEqual(ours.pointee.event_count, theirs.pointee.event_count, name)
            guard ours.pointee.method_count == theirs.pointee.method_count,
                  ours.pointee.event_count == theirs.pointee.event_count else { continue }
            assertMessagesEqual(ours.pointee.methods, theirs.pointee.methods, count: ours.pointee.method_count,
                                "\(name).requests")
            assertMessagesEqual(ours.pointee.events, theirs.pointee.events, count: ours.pointee.event_count,
                                "\(name).events")
        }
    }

    func testCrossProtocolReferencesResolve() throws {
        let layerSurface = try XCTUnwrap(WaylandInterfaces.interface(named: "zwlr_layer_surface_v1"))
        let layerShell = try XCTUnwrap(WaylandInterfaces.interface(named: "zwlr_layer_shell_v1"))
        func message(_ interface: UnsafePointer<wl_interface>, _ name: String) -> wl_message? {
            (0..<Int(interface.pointee.method_count)).map { interface.pointee.methods[$0] }
                .first { String(cString: $0.name) == name }
        }
        let getLayerSurface = try XCTUnwrap(message(layerShell, "get_layer_surface"))
        XCTAssertEqual(String(cString: getLayerSurface.signature), "no?ous")
        XCTAssertEqual(getLayerSurface.types[0], layerSurface)
        XCTAssertEqual(getLayerSurface.types[1], WaylandInterfaces.interface(named: "wl_surface"))
        XCTAssertEqual(getLayerSurface.types[2], WaylandInterfaces.interface(named: "wl_output"))
        XCTAssertNil(getLayerSurface.types[3])
        let getPopup = try XCTUnwrap(message(layerSurface, "get_popup"))
        XCTAssertEqual(getPopup.types[0], WaylandInterfaces.interface(named: "xdg_popup"))
        XCTAssertEqual(String(cString: message(layerSurface, "set_layer")!.signature), "2u")
        XCTAssertEqual(String(cString: message(layerShell, "destroy")!.signature), "3")
        XCTAssertEqual(ZwlrLayerShellV1.wlInterface, layerShell)
        XCTAssertEqual(ZwlrLayerSurfaceV1.interfaceName, "zwlr_layer_surface_v1")
        XCTAssertEqual(ZwlrLayerSurfaceV1.maxVersion, 4)
    }

    func testEveryRequiredInterfaceIsGenerated() {
        let names = Set(WaylandInterfaces.names)
        for name in ["wl_surface", "xdg_wm_base", "wp_viewporter", "wp_fractional_scale_manager_v1",
                     "zxdg_output_manager_v1", "xdg_activation_v1", "zwlr_layer_shell_v1",
                     "zwlr_virtual_pointer_manager_v1", "zwp_virtual_keyboard_manager_v1"] {
            XCTAssertTrue(names.contains(name), name)
        }
        XCTAssertEqual(names.count, WaylandInterfaces.names.count, "no interface twice")
    }

    func testGeneratedEnumsAndOptionSets() {
        XCTAssertEqual(ZwlrLayerShellV1.Layer.overlay.rawValue, 3)
        XCTAssertEqual(ZwlrLayerSurfaceV1.KeyboardInteractivity.none.rawValue, 0)
        XCTAssertEqual(ZwlrLayerSurfaceV1.KeyboardInteractivity.onDemand.rawValue, 2)
        XCTAssertEqual(ZwlrLayerSurfaceV1.Anchor([.top, .left]).rawValue, 5)
        XCTAssertEqual(WlShm.Format.argb8888.rawValue, 0)
        XCTAssertEqual(WlShm.Format.xrgb8888.rawValue, 1)
        XCTAssertEqual(WlOutput.Transform._90.rawValue, 1)
        XCTAssertEqual(WlOutput.Transform.flipped270.rawValue, 7)
        XCTAssertEqual(WlSeat.Capability.keyboard.rawValue, 2)
    }
}
