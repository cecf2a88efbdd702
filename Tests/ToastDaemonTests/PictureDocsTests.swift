import Foundation
import ToastDBus
import ToastPictures
import XCTest
@testable import ToastDaemon

/// The picture limits the docs quote are the code's: one constant each.
final class PictureDocsTests: XCTestCase {
    private func doc(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/" + name), encoding: .utf8)
    }

    func testTheDocsQuoteThePictureLimits() throws {
        let dbus = try doc("dbus.md"), security = try doc("security.md")
        XCTAssertTrue(dbus.contains("width and height are 1…\(ImageData.maxSide),"), "docs/dbus.md's image sides")
        XCTAssertTrue(security.contains("1…\(ImageData.maxSide) pixels a side"))
        XCTAssertTrue(security.contains("bounded by \(PictureLimits.maxPendingBytes >> 20) MiB (`PictureLimits.maxPendingBytes`)"))
        XCTAssertTrue(security.contains("longer than \(PictureWorker.deadline / 1000) seconds over one picture"))
        XCTAssertTrue(security.contains("at most \(PictureLimits.maxPictureSide) × \(PictureLimits.maxPictureSide) RGBA"))
        XCTAssertTrue(security.contains("at most \(PictureLimits.maxFileBytes >> 20) MiB) and sends"))
        XCTAssertTrue(security.contains("cached up to \(PictureCache.maxBytes >> 20) MiB"))
        XCTAssertTrue(security.contains("files up to \(PictureLimits.maxDecodeSide) a side and \(PictureLimits.maxDecodePixels / 1_000_000) million pixels"))
    }
}
