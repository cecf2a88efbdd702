import XCTest
final class ToastProtocolTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
