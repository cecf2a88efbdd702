import ToastVocabulary
import XCTest
@testable import ToastCore

final class ValidationTests: XCTestCase {
    private let limits = TextLimits()

    // MARK: Strings

    func testTruncationKeepsWholeCharacters() {
        XCTAssertEqual("hello".truncated(toUTF8Bytes: 10), "hello")
        XCTAssertEqual("hello".truncated(toUTF8Bytes: 3), "hel")
        XCTAssertEqual("héllo".truncated(toUTF8Bytes: 2), "h", "é is 2 bytes: cut before it, not inside")
        XCTAssertEqual("👍🏽ok".truncated(toUTF8Bytes: 5), "", "a grapheme cluster is never split")
        XCTAssertEqual("ab👍🏽".truncated(toUTF8Bytes: 9), "ab")
        XCTAssertEqual("ab👍🏽".truncated(toUTF8Bytes: 10), "ab👍🏽")
    }

    func testSummaryAndBodyAreCapped() throws {
        var model = ToastModel()
        let id = try model.notify(request(String(repeating: "s", count: 5000),
                                          body: String(repeating: "é", count: 20_000)), now: t(0))
        let notification = try XCTUnwrap(model.notification(id: id))
        XCTAssertEqual(notification.summary.utf8.count, 1024)
        XCTAssertEqual(notification.body.utf8.count, 16 * 1024)
        XCTAssertEqual(notification.body.count, 8 * 1024)
    }

    func testOtherStringsAreCapped() throws {
        var long = request("x", app: String(repeating: "a", count: 1000))
        long.category = String(repeating: "c", count: 1000)
        long.tag = String(repeating: "t", count: 1000)
        long.actions = [NotificationAction(key: "k", label: String(repeating: "l", count: 1000))]
        let valid = try long.validated(limits: limits)
        XCTAssertEqual(valid.appName.utf8.count, 256)
        XCTAssertEqual(valid.category?.utf8.count, 256)
        XCTAssertEqual(valid.tag?.utf8.count, 256)
        XCTAssertEqual(valid.actions.first?.label.utf8.count, 256)
    }

    func testEmptyOptionalStringsBecomeNil() throws {
        var empty = request("x", tag: "")
        empty.category = ""
        let valid = try empty.validated(limits: limits)
        XCTAssertNil(valid.tag, "an empty tag must not make every untagged-by-accident notification replace each other")
        XCTAssertNil(valid.category)
    }

    // MARK: Content

    func testAnythingIncludingNothingAtAllIsShown() {
        XCTAssertNoThrow(try request("summary only").validated(limits: limits))
        XCTAssertNoThrow(try request("", body: "body only").validated(limits: limits))
        XCTAssertEqual(try request("", app: "mail").validated(limits: limits), request("", app: "mail"),
                       "an empty notification is shown as a box with its app name, as mako does")
        var progressOnly = request("")
        progressOnly.progress = 40
        XCTAssertNoThrow(try progressOnly.validated(limits: limits))
    }

    func testProgressIsClamped() throws {
        var over = request("x")
        over.progress = 150
        XCTAssertEqual(try over.validated(limits: limits).progress, 100)
        over.progress = -3
        XCTAssertEqual(try over.validated(limits: limits).progress, 0)
        over.progress = 42
        XCTAssertEqual(try over.validated(limits: limits).progress, 42)
    }

    func testActionsAreDedupedAndCapped() throws {
        var many = request("x")
        many.actions = [NotificationAction(key: "", label: "empty key")]
            + (0..<20).map { NotificationAction(key: "k\($0)", label: "L") }
            + [NotificationAction(key: "k0", label: "again")]
        let actions = try many.validated(limits: limits).actions
        XCTAssertEqual(actions.count, 10)
        XCTAssertEqual(actions.first, NotificationAction(key: "k0", label: "L"))
        XCTAssertEqual(Set(actions.map(\.key)).count, actions.count)
    }

    func testTimeoutNormalization() throws {
        XCTAssertEqual(try request("x", timeout: .after(0)).validated(limits: limits).expireTimeout, .never)
        XCTAssertEqual(try request("x", timeout: .after(-5)).validated(limits: limits).expireTimeout, .serverDefault)
    }

    func testRawImageMustMatchItsSize() {
        var withImage = request("x")
        withImage.image = .pixels(RGBAImage(width: 2, height: 2, pixels: Array(repeating: 255, count: 16)))
        XCTAssertNoThrow(try withImage.validated(limits: limits))

        withImage.image = .pixels(RGBAImage(width: 2, height: 2, pixels: Array(repeating: 255, count: 12)))
        XCTAssertThrowsError(try withImage.validated(limits: limits)) {
            guard case .invalidImage = $0 as? NotificationError else { return XCTFail("got \($0)") }
        }
        withImage.image = .pixels(RGBAImage(width: 0, height: 2, pixels: []))
        XCTAssertThrowsError(try withImage.validated(limits: limits))
        withImage.image = .pixels(RGBAImage(width: 5000, height: 1, pixels: Array(repeating: 0, count: 20_000)))
        XCTAssertThrowsError(try withImage.validated(limits: limits), "too wide")
    }

    func testEmptyImagePathIsNoImage() throws {
        var withPath = request("x")
        withPath.image = .path("")
        XCTAssertNil(try withPath.validated(limits: limits).image)
    }

    // MARK: D-Bus values

    func testUrgencyFromDBus() {
        XCTAssertEqual(Urgency(specValue: 0), .low)
        XCTAssertEqual(Urgency(specValue: 1), .normal)
        XCTAssertEqual(Urgency(specValue: 2), .critical)
        XCTAssertNil(Urgency(specValue: 9))
        XCTAssertNil(Urgency(specValue: -1))
        XCTAssertEqual(Urgency.allCases.map(\.specValue), [0, 1, 2])
        XCTAssertLessThan(Urgency.low, Urgency.critical)
    }

    func testExpireTimeoutFromDBus() {
        XCTAssertEqual(ExpireTimeout(specValue: -1), .serverDefault)
        XCTAssertEqual(ExpireTimeout(specValue: -100), .serverDefault)
        XCTAssertEqual(ExpireTimeout(specValue: 0), .never)
        XCTAssertEqual(ExpireTimeout(specValue: 3000), .after(3000))
    }

    // MARK: Time arithmetic

    func testInstantArithmeticSaturates() {
        XCTAssertEqual(t(10) + 5, t(15))
        XCTAssertEqual(t(15) - t(10), 5)
        XCTAssertEqual(Instant(milliseconds: .max - 1) + 10, Instant(milliseconds: .max))
        XCTAssertEqual(t(0) - Instant(milliseconds: .min), .max)
    }
}
