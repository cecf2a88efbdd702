import ToastVocabulary
import XCTest
import ToastProtocol

final class HintAndActionTests: XCTestCase {
    func testParsesNotifySendHints() throws {
        let cases: [(String, Hint)] = [
            ("int:x:5", Hint(name: "x", value: .int(5))),
            ("int:y:-2147483648", Hint(name: "y", value: .int(Int32.min))),
            ("string:foo:bar", Hint(name: "foo", value: .string("bar"))),
            ("string:foo:", Hint(name: "foo", value: .string(""))),
            ("string:image-path:/a:b/c", Hint(name: "image-path", value: .string("/a:b/c"))),
            ("boolean:transient:true", Hint(name: "transient", value: .boolean(true))),
            ("boolean:resident:FALSE", Hint(name: "resident", value: .boolean(false))),
            ("boolean:resident:1", Hint(name: "resident", value: .boolean(true))),
            ("byte:urgency:2", Hint(name: "urgency", value: .byte(2))),
            ("byte:b:255", Hint(name: "b", value: .byte(255))),
            ("double:d:0.5", Hint(name: "d", value: .double(0.5))),
            ("INT:x:1", Hint(name: "x", value: .int(1))),
        ]
        for (spec, hint) in cases {
            XCTAssertEqual(try Hint.parse(spec).get(), hint, spec)
        }
    }

    func testRejectsBadHints() {
        let cases: [(String, ErrorCode)] = [
            ("int:x", .invalidType),
            ("x", .invalidType),
            ("", .invalidType),
            ("int::5", .outOfRange),
            ("int:x:five", .invalidType),
            ("int:x:5.5", .invalidType),
            ("int:x:2147483648", .outOfRange),
            ("byte:urgency:256", .outOfRange),
            ("byte:urgency:-1", .outOfRange),
            ("byte:urgency:two", .invalidType),
            ("boolean:transient:yes", .invalidType),
            ("double:d:abc", .invalidType),
            ("double:d:inf", .invalidType),
            ("float:d:1", .invalidType),
            ("variant:v:1", .invalidType),
        ]
        for (spec, code) in cases {
            switch Hint.parse(spec) {
            case .success(let h): XCTFail("\(spec) accepted as \(h)")
            case .failure(let e): XCTAssertEqual(e.code, code, "\(spec): \(e.message)")
            }
        }
    }

    func testActionSpecs() {
        XCTAssertEqual(NotificationAction.parse("yes=Yes please", index: 0), NotificationAction(key: "yes", label: "Yes please"))
        XCTAssertEqual(NotificationAction.parse("Later", index: 2), NotificationAction(key: "2", label: "Later"))
        XCTAssertEqual(NotificationAction.parse("a=b=c", index: 0), NotificationAction(key: "a", label: "b=c"))
        XCTAssertEqual(NotificationAction.parse("=x", index: 1), NotificationAction(key: "1", label: "=x"))
        XCTAssertEqual(NotificationAction.parse("default=Open", index: 0).key, NotificationAction.defaultKey)
    }
}
