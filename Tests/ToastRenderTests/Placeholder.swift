import XCTest
final class ToastRenderTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
