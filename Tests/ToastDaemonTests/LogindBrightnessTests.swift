import CSystemd
import Glibc
import XCTest
@testable import ToastDevices

/// The call toastd makes when it may not write a backlight itself: logind's SetBrightness, built on a
/// bus over a socketpair (sd-bus builds messages once a connection is started; nothing is sent).
final class LogindBrightnessTests: XCTestCase {
    func testSetBrightnessIsCalledOnTheCallersSessionWithClassNameAndRawValue() throws {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds), 0)
        defer { close(fds[1]) }
        var bus: OpaquePointer?
        XCTAssertGreaterThanOrEqual(sd_bus_new(&bus), 0)
        let started = try XCTUnwrap(bus)
        defer { sd_bus_close_unref(started) }
        XCTAssertGreaterThanOrEqual(sd_bus_set_fd(started, fds[0], fds[0]), 0)
        XCTAssertGreaterThanOrEqual(sd_bus_start(started), 0)

        let device = BrightnessDevice(path: "/sys/class/backlight/intel_backlight", deviceClass: "backlight", name: "intel_backlight")
        let message = try LogindBrightness.message(on: started, device: device, value: 4_321)
        defer { sd_bus_message_unref(message) }
        XCTAssertEqual(String(cString: sd_bus_message_get_destination(message)), "org.freedesktop.login1")
        XCTAssertEqual(String(cString: sd_bus_message_get_path(message)), "/org/freedesktop/login1/session/auto")
        XCTAssertEqual(String(cString: sd_bus_message_get_interface(message)), "org.freedesktop.login1.Session")
        XCTAssertEqual(String(cString: sd_bus_message_get_member(message)), "SetBrightness")
        XCTAssertEqual(String(cString: sd_bus_message_get_signature(message, 1)), "ssu")

        XCTAssertGreaterThanOrEqual(sd_bus_message_seal(message, 1, 0), 0)
        XCTAssertGreaterThanOrEqual(sd_bus_message_rewind(message, 1), 0)
        var text: UnsafePointer<CChar>?
        XCTAssertGreaterThan(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text), 0)
        XCTAssertEqual(text.map { String(cString: $0) }, "backlight")
        XCTAssertGreaterThan(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text), 0)
        XCTAssertEqual(text.map { String(cString: $0) }, "intel_backlight")
        var value: UInt32 = 0
        XCTAssertGreaterThan(sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &value), 0)
        XCTAssertEqual(value, 4_321)
    }
}
