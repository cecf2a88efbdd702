import XCTest
final class ToastDBusTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
