import XCTest
final class WaylandTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
