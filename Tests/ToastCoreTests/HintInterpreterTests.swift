import ToastCore
import ToastVocabulary
import XCTest

/// The one reading of hints, whichever door they came through.
final class HintInterpreterTests: XCTestCase {
    private func interpreted(_ hints: [String: HintValue], appIcon: String = "") -> NotificationRequest {
        var request = NotificationRequest(appName: "app", summary: "s")
        request.appIcon = appIcon
        HintInterpreter.apply(hints, to: &request)
        return request
    }

    private let pixel = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4])
    private let otherPixel = RGBAImage(width: 1, height: 1, pixels: [9, 9, 9, 9])

    func testUrgencyFromAnyIntegerInRange() {
        XCTAssertEqual(interpreted(["urgency": .integer(2)]).urgency, .critical)
        XCTAssertEqual(interpreted(["urgency": .integer(0)]).urgency, .low)
        XCTAssertEqual(interpreted(["urgency": .integer(7)]).urgency, .normal, "out of range: the default stays")
        XCTAssertEqual(interpreted(["urgency": .string("critical")]).urgency, .normal, "not an integer: ignored")
    }

    func testTextHints() {
        let request = interpreted(["category": .string("email.arrived"), "desktop-entry": .string("org.example.Mail")])
        XCTAssertEqual(request.category, "email.arrived")
        XCTAssertEqual(request.desktopEntry, "org.example.Mail")
        XCTAssertNil(interpreted(["category": .integer(3)]).category)
    }

    func testBooleansAcceptIntegers() {
        XCTAssertTrue(interpreted(["transient": .integer(1)]).isTransient)
        XCTAssertTrue(interpreted(["transient": .boolean(true)]).isTransient)
        XCTAssertFalse(interpreted(["resident": .integer(0)]).isResident)
        XCTAssertTrue(interpreted(["resident": .boolean(true)]).isResident)
    }

    func testValueFromAnyInteger() {
        XCTAssertEqual(interpreted(["value": .integer(40)]).progress, 40)
        XCTAssertNil(interpreted(["value": .string("40")]).progress)
        XCTAssertNil(interpreted(["value": .double(40)]).progress)
    }

    func testDunstStackTagWinsOverTheCanonicalOne() {
        XCTAssertEqual(interpreted(["x-canonical-private-synchronous": .string("a"),
                                    "x-dunst-stack-tag": .string("b")]).tag, "b")
        XCTAssertEqual(interpreted(["x-canonical-private-synchronous": .string("a"),
                                    "x-dunst-stack-tag": .string("")]).tag, "a")
        XCTAssertNil(interpreted(["x-dunst-stack-tag": .string("")]).tag)
    }

    func testPicturesInTheSpecsOrder() {
        // image-data, then image-path, then app_icon, and icon_data last.
        XCTAssertEqual(interpreted(["image-data": .image(pixel), "image-path": .string("/a.png"), "icon_data": .image(otherPixel)]).image,
                       .pixels(pixel))
        XCTAssertEqual(interpreted(["image_data": .image(pixel), "image-path": .string("/a.png")]).image, .pixels(pixel))
        XCTAssertEqual(interpreted(["image-path": .string("/a.png"), "icon_data": .image(otherPixel)]).image, .path("/a.png"))
        XCTAssertEqual(interpreted(["image_path": .string("/b.png")]).image, .path("/b.png"))
        XCTAssertNil(interpreted(["icon_data": .image(otherPixel)], appIcon: "firefox").image, "app_icon comes before icon_data")
        XCTAssertEqual(interpreted(["icon_data": .image(otherPixel)]).image, .pixels(otherPixel))
        XCTAssertNil(interpreted(["image-path": .string("")]).image)
    }

    func testImagePathURIsArePercentDecoded() {
        XCTAssertEqual(interpreted(["image-path": .string("file:///tmp/a%20b.png")]).image, .path("/tmp/a b.png"))
        XCTAssertEqual(HintInterpreter.path(fromImagePath: "file://localhost/tmp/x.png"), "/tmp/x.png")
        XCTAssertEqual(HintInterpreter.path(fromImagePath: "/tmp/x%20y.png"), "/tmp/x%20y.png", "a plain path is taken as is")
        XCTAssertEqual(HintInterpreter.path(fromImagePath: "dialog-warning"), "dialog-warning")
        XCTAssertEqual(HintInterpreter.path(fromImagePath: "file:///bad%zzescape"), "/bad%zzescape")
        XCTAssertEqual(HintInterpreter.path(fromImagePath: "file:///%E2%9C%93.png"), "/✓.png")
    }

    func testUnknownHintsChangeNothing() {
        XCTAssertEqual(interpreted(["x-unknown": .string("y"), "x-kde-origin-name": .string("bell")]),
                       NotificationRequest(appName: "app", summary: "s"))
    }
}
