import ToastCore
import ToastDBus
import ToastProtocol
import ToastVocabulary
import XCTest
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene

/// The same hints through the control socket (as `toast -h TYPE:NAME:VALUE` sends them) and through
/// D-Bus (as an app's Notify call carries them) make the same notification.
final class FrontDoorHintTests: XCTestCase {
    private struct Case {
        var name: String
        /// notify-send's spelling, and the D-Bus value an app sends, for each hint.
        var hints: [(cli: String, bus: (String, BusValue))]
        var expect: (inout NotificationRequest) -> Void
    }

    private let cases: [Case] = [
        Case(name: "urgency as a byte", hints: [("byte:urgency:2", ("urgency", .byte(2)))]) { $0.urgency = .critical },
        Case(name: "urgency as an int", hints: [("int:urgency:0", ("urgency", .int32(0)))]) { $0.urgency = .low },
        Case(name: "urgency out of range", hints: [("int:urgency:9", ("urgency", .uint32(9)))]) { _ in },
        Case(name: "value as a byte", hints: [("byte:value:40", ("value", .byte(40)))]) { $0.progress = 40 },
        Case(name: "value as an int", hints: [("int:value:73", ("value", .uint32(73)))]) { $0.progress = 73 },
        Case(name: "both stack tags: dunst's wins",
             hints: [("string:x-canonical-private-synchronous:a", ("x-canonical-private-synchronous", .string("a"))),
                     ("string:x-dunst-stack-tag:b", ("x-dunst-stack-tag", .string("b")))]) { $0.tag = "b" },
        Case(name: "the canonical tag alone",
             hints: [("string:x-canonical-private-synchronous:volume", ("x-canonical-private-synchronous", .string("volume")))]) {
            $0.tag = "volume"
        },
        Case(name: "image-path as a file URI",
             hints: [("string:image-path:file:///tmp/a%20b.png", ("image-path", .string("file:///tmp/a%20b.png")))]) {
            $0.image = .path("/tmp/a b.png")
        },
        Case(name: "image_path, the old spelling", hints: [("string:image_path:/tmp/c.png", ("image_path", .string("/tmp/c.png")))]) {
            $0.image = .path("/tmp/c.png")
        },
        Case(name: "transient as an int", hints: [("int:transient:1", ("transient", .int32(1)))]) { $0.isTransient = true },
        Case(name: "transient as a boolean", hints: [("boolean:transient:true", ("transient", .bool(true)))]) { $0.isTransient = true },
        Case(name: "resident", hints: [("boolean:resident:true", ("resident", .bool(true)))]) { $0.isResident = true },
        Case(name: "category and desktop entry",
             hints: [("string:category:email.arrived", ("category", .string("email.arrived"))),
                     ("string:desktop-entry:org.example.Mail", ("desktop-entry", .string("org.example.Mail")))]) {
            $0.category = "email.arrived"
            $0.desktopEntry = "org.example.Mail"
        },
        Case(name: "a hint of the wrong type", hints: [("string:value:50", ("value", .string("50")))]) { _ in },
        Case(name: "unknown hints", hints: [("string:x-kde-origin-name:bell", ("x-kde-origin-name", .string("bell")))]) { _ in },
        Case(name: "a sound name", hints: [("string:sound-name:bell", ("sound-name", .string("bell")))]) { $0.sound = .name("bell") },
        Case(name: "a sound file wins, suppressed",
             hints: [("string:sound-file:file:///s/a.oga", ("sound-file", .string("file:///s/a.oga"))),
                     ("string:sound-name:bell", ("sound-name", .string("bell"))),
                     ("boolean:suppress-sound:true", ("suppress-sound", .bool(true)))]) {
            $0.sound = .file("/s/a.oga")
            $0.suppressSound = true
        },
    ]

    func testTheSameHintsMakeTheSameNotificationThroughBothDoors() throws {
        for testCase in cases {
            var expected = NotificationRequest(appName: "app", summary: "Title", body: "Body")
            testCase.expect(&expected)

            let hints = try testCase.hints.map { try Hint.parse($0.cli).get() }
            var params = NotifyParams(summary: "Title", body: "Body", appName: "app", hints: hints)
            params.expireMs = -1
            var viaSocket = SocketFrontDoor.notification(from: params, origin: .socket(1))
            viaSocket.origin = nil

            let bus = Hints.values(Dictionary(uniqueKeysWithValues: testCase.hints.map(\.bus)))
            var viaBus = BusFrontDoor.notification(from: BusNotification(
                sender: ":1.9", appName: "app", summary: "Title", body: "Body", hints: bus.values))
            viaBus.origin = nil

            XCTAssertEqual(viaSocket, expected, "socket: \(testCase.name)")
            XCTAssertEqual(viaBus, expected, "D-Bus: \(testCase.name)")
        }
    }

    func testTheCLIsFlagsWinOverItsHints() throws {
        var params = NotifyParams(summary: "s", urgency: .low, category: "flag", hints: [
            try Hint.parse("byte:urgency:2").get(), try Hint.parse("string:category:hint").get(),
            try Hint.parse("int:value:10").get(), try Hint.parse("string:x-dunst-stack-tag:hint").get(),
            try Hint.parse("boolean:transient:false").get(),
        ], tag: "flag", value: 90, transient: true)
        params.expireMs = 2500
        let request = SocketFrontDoor.notification(from: params, origin: .socket(3))
        XCTAssertEqual(request.urgency, .low)
        XCTAssertEqual(request.category, "flag")
        XCTAssertEqual(request.tag, "flag")
        XCTAssertEqual(request.progress, 90)
        XCTAssertTrue(request.isTransient)
        XCTAssertEqual(request.expireTimeout, .after(2500))
        XCTAssertEqual(request.origin, .socket(3))
    }
}
