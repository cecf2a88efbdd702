import Foundation
import XCTest
@testable import ToastDaemon

final class IconThemeTests: XCTestCase {
    private var root: String!

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "icon-theme-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func place(_ relative: String) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([0x89, 0x50])))
        return path
    }

    func testFindsTheNearestSizeThenPixmaps() throws {
        let large = try place("share/icons/hicolor/256x256/apps/editor.png")
        let near = try place("share/icons/hicolor/48x48/apps/editor.png")
        let pixmap = try place("share/pixmaps/terminal.png")
        var theme = IconTheme(dataDirectories: [root + "/share"])
        XCTAssertEqual(theme.path(forIconNamed: "editor"), near)
        XCTAssertNotEqual(near, large)
        XCTAssertEqual(theme.path(forIconNamed: "terminal"), pixmap)
        XCTAssertNil(theme.path(forIconNamed: "missing"))
    }

    func testEarlierDataDirectoriesWin() throws {
        let user = try place("home/icons/hicolor/32x32/apps/mail.png")
        _ = try place("system/icons/hicolor/48x48/apps/mail.png")
        var theme = IconTheme(dataDirectories: [root + "/home", root + "/system"])
        XCTAssertEqual(theme.path(forIconNamed: "mail"), user)
    }

    func testPathsAndTraversalAreNotIconNames() {
        XCTAssertTrue(IconTheme.isIconName("org.gnome.Nautilus"))
        XCTAssertTrue(IconTheme.isIconName("dialog-information"))
        for bad in ["", ".", "..", "../etc/passwd", "a/b", "/usr/share/x.png", "file:///x.png", "a b"] {
            XCTAssertFalse(IconTheme.isIconName(bad), bad)
        }
    }

    func testEnvironmentDefaults() {
        let theme = IconTheme.fromEnvironment { ["HOME": "/home/u"][$0] }
        XCTAssertEqual(theme.dataDirectories, ["/home/u/.local/share", "/usr/local/share", "/usr/share"])
        let custom = IconTheme.fromEnvironment { ["XDG_DATA_HOME": "/d", "XDG_DATA_DIRS": "/a:/b"][$0] }
        XCTAssertEqual(custom.dataDirectories, ["/d", "/a", "/b"])
    }
}
