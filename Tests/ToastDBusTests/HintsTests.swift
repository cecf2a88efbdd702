import XCTest
import ToastDBus

/// Hint interpretation without a bus.
final class HintsTests: XCTestCase {
    func testLenientIntegersAndBooleans() {
        XCTAssertEqual(Hints.parse(["urgency": .uint32(2)]).urgency, .critical)
        XCTAssertEqual(Hints.parse(["urgency": .int64(1)]).urgency, .normal)
        XCTAssertNil(Hints.parse(["urgency": .int32(-1)]).urgency)
        XCTAssertNil(Hints.parse(["urgency": .string("high")]).urgency)
        XCTAssertEqual(Hints.parse(["transient": .int32(1)]).transient, true)
        XCTAssertEqual(Hints.parse(["resident": .byte(0)]).resident, false)
        XCTAssertEqual(Hints.parse(["value": .uint32(120)]).value, 120)
    }

    func testStackTagPrefersDunst() {
        XCTAssertEqual(Hints.parse(["x-canonical-private-synchronous": .string("a"),
                                    "x-dunst-stack-tag": .string("b")]).stackTag, "b")
        XCTAssertEqual(Hints.parse(["x-canonical-private-synchronous": .string("a"),
                                    "x-dunst-stack-tag": .string("")]).stackTag, "a")
    }

    func testImagePrecedenceAndFallback() {
        let good = BusValue.structure([.int32(1), .int32(1), .int32(4), .bool(true), .int32(8), .int32(4),
                                       .bytes([1, 2, 3, 4])])
        let bad = BusValue.structure([.int32(1), .int32(1), .int32(4), .bool(true), .int32(8), .int32(4), .bytes([])])
        let h = Hints.parse(["image-data": bad, "icon_data": good])
        XCTAssertEqual(h.image?.rgba, [1, 2, 3, 4])
        XCTAssertNil(h.imageProblem)
        XCTAssertEqual(Hints.parse(["image-data": bad]).imageProblem, "image-data: image has 0 bytes, needs 4")
    }

    func testImagePath() {
        XCTAssertEqual(Hints.pathFromImagePath("file:///home/u/a%20b.png"), "/home/u/a b.png")
        XCTAssertEqual(Hints.pathFromImagePath("file://localhost/tmp/x.png"), "/tmp/x.png")
        XCTAssertEqual(Hints.pathFromImagePath("/tmp/x.png"), "/tmp/x.png")
        XCTAssertEqual(Hints.pathFromImagePath("dialog-warning"), "dialog-warning")
        XCTAssertEqual(Hints.pathFromImagePath("file:///bad%zzescape"), "/bad%zzescape")
        XCTAssertEqual(Hints.parse(["image_path": .string("file:///a.png")]).imagePath, "/a.png")
    }

    func testActionsPairUpAndDropAnOddTail() {
        XCTAssertEqual(Hints.actions([]), [])
        XCTAssertEqual(Hints.actions(["a"]), [])
        XCTAssertEqual(Hints.actions(["a", "A", "b"]), [BusAction(key: "a", label: "A")])
    }

    func testExpiry() {
        XCTAssertEqual(BusExpiry(rawTimeout: -1), .serverDefault)
        XCTAssertEqual(BusExpiry(rawTimeout: -5), .serverDefault)
        XCTAssertEqual(BusExpiry(rawTimeout: 0), .never)
        XCTAssertEqual(BusExpiry(rawTimeout: 1500), .milliseconds(1500))
    }
}
