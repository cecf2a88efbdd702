import Foundation
import XCTest

/// A test case whose tests each get a directory of their own, removed when the test ends.
class ScratchDirectoryTestCase: XCTestCase {
    private(set) var directory = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = NSTemporaryDirectory() + "toastd-\(type(of: self))-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }
}
