import Foundation
import XCTest
import ToastDBus

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
        let image = try XCTUnwrap(n?.hints.image)
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(image.rgba, Array(1...16))
        XCTAssertNil(n?.hints.imageProblem)
    }

    func testRGBWithPaddedRowsBecomesRGBA() throws {
        // 2x2 RGB, rowstride 8 (2 bytes of padding); the last row needs only 6 bytes: 14 in all.
        let (client, n) = try notify(hints: "{'image_data': <(2, 2, 8, false, 8, 3, [byte 1,2,3, 4,5,6, 0,0, 7,8,9, 10,11,12])>}")
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertEqual(n?.hints.image?.rgba, [1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255])
    }

    func testImageWithTooFewBytesIsAnsweredWithoutImage() throws {
        let (client, n) = try notify(hints: "{'image-data': <(2, 2, 8, true, 8, 4, [byte 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])>}")
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertTrue(client.stdout.contains("uint32 5"), client.stdout)
        XCTAssertNil(n?.hints.image)
        XCTAssertEqual(n?.hints.imageProblem, "image-data: image has 10 bytes, needs 16")
    }

    func testImageWithShortRowstrideOrHugeSizeIsAnsweredWithoutImage() throws {
        let (c1, n1) = try notify(hints: "{'image-data': <(2, 2, 4, true, 8, 4, [byte 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])>}")
        XCTAssertEqual(c1.status, 0, c1.stderr)
        XCTAssertNil(n1?.hints.image)
        XCTAssertNotNil(n1?.hints.imageProblem)
        let (c2, n2) = try notify(hints: "{'image-data': <(2147483647, 2147483647, 2147483647, true, 8, 4, [byte 1])>}")
        XCTAssertEqual(c2.status, 0, c2.stderr)
        XCTAssertNil(n2?.hints.image)
        // The wrong type altogether is ignored too.
        let (c3, n3) = try notify(hints: "{'image-data': <'not an image'>}")
        XCTAssertEqual(c3.status, 0, c3.stderr)
        XCTAssertNil(n3?.hints.image)
        XCTAssertEqual(n3?.hints.imageProblem, "image-data: image hint is not (iiibiiay)")
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
        let h = try XCTUnwrap(n?.hints)
        XCTAssertEqual(h.urgency, .critical)
        XCTAssertEqual(h.category, "email.arrived")
        XCTAssertEqual(h.desktopEntry, "org.example.Mail")
        XCTAssertEqual(h.imagePath, "/tmp/a b.png")
        XCTAssertEqual(h.transient, true)
        XCTAssertEqual(h.resident, false)
        XCTAssertEqual(h.value, 73)
        XCTAssertEqual(h.stackTag, "vol")
        XCTAssertEqual(n?.actions, [BusAction(key: "default", label: "Open"), BusAction(key: "reply", label: "Reply")])
        XCTAssertEqual(n?.expiry, .milliseconds(2500))
        XCTAssertEqual(n?.replacesId, 5)
        XCTAssertEqual(n?.appIcon, "icon")
    }

    func testUrgencyAsByteAndCanonicalTag() throws {
        let (_, n) = try notify(hints: "{'urgency': <byte 0>, 'x-canonical-private-synchronous': <'brightness'>}")
        XCTAssertEqual(n?.hints.urgency, .low)
        XCTAssertEqual(n?.hints.stackTag, "brightness")
        let (_, n2) = try notify(hints: "{'urgency': <uint32 7>}")
        XCTAssertNil(n2?.hints.urgency, "out-of-range urgency is ignored")
        let (c3, n3) = try notify(hints: "{'urgency': <{'deep': <[(1, 'x')]>}>, 'category': <[byte 1, 2]>, 'value': <'50'>}")
        XCTAssertEqual(c3.status, 0, c3.stderr)
        XCTAssertNil(n3?.hints.urgency, "a known hint of an unusable type is ignored")
        XCTAssertNil(n3?.hints.category)
        XCTAssertNil(n3?.hints.value)
    }
}
