import Foundation
import XCTest
import ToastConfig
@testable import ToastDaemon

/// A mako key toastd does not use is said once per file, then remembered.
final class MakoKeyNotesTests: XCTestCase {
    func testANoteIsSaidOncePerFile() throws {
        let directory = NSTemporaryDirectory() + "mako-notes-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notes = MakoKeyNotes(path: directory + "/state/mako-keys")
        let parsed = ConfigParser.parse("text-alignment = left\nwidth = 5\n", path: "/a/config")
        XCTAssertEqual(notes.unsaid(parsed.diagnostics).map(\.line), [1, 2])
        // Next start: only what is not a mako key is said again.
        XCTAssertEqual(notes.unsaid(parsed.diagnostics).map(\.line), [2])
        // Another file has its own.
        let other = ConfigParser.parse("text-alignment = left\n", path: "/b/config")
        XCTAssertEqual(notes.unsaid(other.diagnostics).count, 1)
        // Nowhere to keep them: said every time.
        XCTAssertEqual(MakoKeyNotes(path: nil).unsaid(other.diagnostics).count, 1)
    }
}
