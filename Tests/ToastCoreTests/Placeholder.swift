import XCTest
final class ToastCoreTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
