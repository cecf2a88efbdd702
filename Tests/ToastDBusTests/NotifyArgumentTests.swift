import Foundation
import XCTest
import ToastDBus
import ToastVocabulary

/// Notify with hand-written arguments through gdbus: hints, images, odd actions.
final class NotifyArgumentTests: BusTestCase {
    private func notify(actions: String = "[]", hints: String, timeout: String = "int32 -1",
                        file: StaticString = #filePath, line: UInt = #line) throws -> (Client, BusNotification?) {
        let client = try gdbusCall("Notify", ["app", "5", "icon", "sum", "body", actions, hints, timeout],
                                   file: file, line: line)
        return (client, delegate.notifications.last)
    }

    func testImageDataRGBAArrivesAsSixteenBytes() throws {
        let bytes = (1...16).map { "\($0)" }.joined(separator: ", ")
        let (client, n) = try notify(hints: "{'image-data': <(2, 2, 8, true, 8, 4, [byte \(bytes)])>}")
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertTrue(client.stdout.contains("uint32 5"), client.stdout)
        XCTAssertEqual(n?.hints["image-data"], .image(RGBAImage(width: 2, height: 2, pixels: Array(1...16))))
        XCTAssertEqual(n?.hintProblems, [])
    }

    func testRGBWithPaddedRowsBecomesRGBA() throws {
        // 2x2 RGB, rowstride 8 (2 bytes of padding); the last row needs only 6 bytes: 14 in all.
        let (client, n) = try notify(hints: "{'image_data': <(2, 2, 8, false, 8, 3, [byte 1,2,3, 4,5,6, 0,0, 7,8,9, 10,11,12])>}")
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertEqual(n?.hints["image_data"],
                       .image(RGBAImage(width: 2, height: 2, pixels: [1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255])))
    }

    func testImageWithTooFewBytesIsAnsweredWithoutImage() throws {
        let (client, n) = try notify(hints: "{'image-data': <(2, 2, 8, true, 8, 4, [byte 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])>}")
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertTrue(client.stdout.contains("uint32 5"), client.stdout)
        XCTAssertNil(n?.hints["image-data"])
        XCTAssertEqual(n?.hintProblems, ["image-data: image has 10 bytes, needs 16"])
    }

    func testImageWithShortRowstrideOrHugeSizeIsAnsweredWithoutImage() throws {
        let (c1, n1) = try notify(hints: "{'image-data': <(2, 2, 4, true, 8, 4, [byte 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])>}")
        XCTAssertEqual(c1.status, 0, c1.stderr)
        XCTAssertNil(n1?.hints["image-data"])
        XCTAssertEqual(n1?.hintProblems.count, 1)
        let (c2, n2) = try notify(hints: "{'image-data': <(2147483647, 2147483647, 2147483647, true, 8, 4, [byte 1])>}")
        XCTAssertEqual(c2.status, 0, c2.stderr)
        XCTAssertNil(n2?.hints["image-data"])
        // The wrong type altogether is ignored too.
        let (c3, n3) = try notify(hints: "{'image-data': <'not an image'>}")
        XCTAssertEqual(c3.status, 0, c3.stderr)
        XCTAssertNil(n3?.hints["image-data"])
        XCTAssertEqual(n3?.hintProblems, ["image-data: image hint is not (iiibiiay)"])
    }

    func testHints() throws {
        let (client, n) = try notify(
            actions: "['default', 'Open', 'reply', 'Reply', 'orphan']",
            hints: """
            {'urgency': <int32 2>, 'category': <'email.arrived'>, 'desktop-entry': <'org.example.Mail'>, \
            'image-path': <'file:///tmp/a%20b.png'>, 'transient': <true>, 'resident': <false>, \
            'value': <int32 73>, 'x-canonical-private-synchronous': <'volume'>, 'x-dunst-stack-tag': <'vol'>, \
            'suppress-sound': <true>, 'sound-name': <'bell'>, 'x-unknown': <{'nested': <[1, 2, 3]>}>}
            """,
            timeout: "2500")
        XCTAssertEqual(client.status, 0, client.stderr)
        // Known hints arrive as door-neutral values (ToastCore's HintInterpreter reads them); unknown
        // ones are skipped unread.
        XCTAssertEqual(n?.hints, [
            "urgency": .integer(2), "category": .string("email.arrived"), "desktop-entry": .string("org.example.Mail"),
            "image-path": .string("file:///tmp/a%20b.png"), "transient": .boolean(true), "resident": .boolean(false),
            "value": .integer(73), "x-canonical-private-synchronous": .string("volume"), "x-dunst-stack-tag": .string("vol"),
            "suppress-sound": .boolean(true), "sound-name": .string("bell"),
        ])
        XCTAssertEqual(n?.actions, [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "reply", label: "Reply")])
        XCTAssertEqual(n?.expiry, .after(2500))
        XCTAssertEqual(n?.replacesId, 5)
        XCTAssertEqual(n?.appIcon, "icon")
    }

    func testUrgencyAsByteAndCanonicalTag() throws {
        let (_, n) = try notify(hints: "{'urgency': <byte 0>, 'x-canonical-private-synchronous': <'brightness'>}")
        XCTAssertEqual(n?.hints["urgency"], .integer(0))
        XCTAssertEqual(n?.hints["x-canonical-private-synchronous"], .string("brightness"))
        let (_, n2) = try notify(hints: "{'urgency': <uint32 7>}")
        XCTAssertEqual(n2?.hints["urgency"], .integer(7), "passed on; the interpreter ignores it")
        let (c3, n3) = try notify(hints: "{'urgency': <{'deep': <[(1, 'x')]>}>, 'category': <[byte 1, 2]>, 'value': <'50'>}")
        XCTAssertEqual(c3.status, 0, c3.stderr)
        XCTAssertNil(n3?.hints["urgency"], "a known hint of an unusable type is left out")
        XCTAssertNil(n3?.hints["category"])
        XCTAssertEqual(n3?.hints["value"], .string("50"))
    }
}
