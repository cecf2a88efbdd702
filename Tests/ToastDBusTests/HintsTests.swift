import ToastDBus
import ToastVocabulary
import XCTest

/// D-Bus hint values brought to the door-neutral form, without a bus. What they mean is tested once,
/// in ToastCoreTests' HintInterpreterTests.
final class HintsTests: XCTestCase {
    func testEveryIntegerTypeBecomesAnInteger() {
        let values = Hints.values(["a": .byte(2), "b": .int16(-3), "c": .uint16(4), "d": .int32(-5),
                                   "e": .uint32(6), "f": .int64(-7), "g": .uint64(8), "h": .variant(.int32(9))]).values
        XCTAssertEqual(values, ["a": .integer(2), "b": .integer(-3), "c": .integer(4), "d": .integer(-5),
                                "e": .integer(6), "f": .integer(-7), "g": .integer(8), "h": .integer(9)])
    }

    func testStringsBooleansAndDoubles() {
        let values = Hints.values(["s": .string("x"), "t": .bool(true), "y": .double(0.5)]).values
        XCTAssertEqual(values, ["s": .string("x"), "t": .boolean(true), "y": .double(0.5)])
    }

    func testValuesOfNoUseAreLeftOut() {
        XCTAssertEqual(Hints.values(["x": .array([.string("a")]), "y": .uint64(.max)]).values, [:])
    }

    func testImagesAreValidatedAndPacked() {
        let good = BusValue.structure([.int32(1), .int32(1), .int32(4), .bool(true), .int32(8), .int32(4),
                                       .bytes([1, 2, 3, 4])])
        let bad = BusValue.structure([.int32(1), .int32(1), .int32(4), .bool(true), .int32(8), .int32(4), .bytes([])])
        let converted = Hints.values(["image-data": bad, "icon_data": good])
        XCTAssertEqual(converted.values, ["icon_data": .image(RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4]))])
        XCTAssertEqual(converted.problems, ["image-data: image has 0 bytes, needs 4"])
        XCTAssertEqual(Hints.values(["image_data": .string("no")]).problems, ["image_data: image hint is not (iiibiiay)"])
    }

    func testActionsPairUpAndDropAnOddTail() {
        XCTAssertEqual(Hints.actions([]), [])
        XCTAssertEqual(Hints.actions(["a"]), [])
        XCTAssertEqual(Hints.actions(["a", "A", "b"]), [NotificationAction(key: "a", label: "A")])
    }

    func testExpiry() {
        XCTAssertEqual(ExpireTimeout(specValue: -1), .serverDefault)
        XCTAssertEqual(ExpireTimeout(specValue: -5), .serverDefault)
        XCTAssertEqual(ExpireTimeout(specValue: 0), .never)
        XCTAssertEqual(ExpireTimeout(specValue: 1500), .after(1500))
    }
}
