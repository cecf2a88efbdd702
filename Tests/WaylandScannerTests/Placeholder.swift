import XCTest
final class WaylandScannerTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
