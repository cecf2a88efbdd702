import XCTest
final class IntegrationTestsPlaceholder: XCTestCase { func testPlaceholder() {} }
