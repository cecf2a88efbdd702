import Foundation
import XCTest
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene

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
        let user = try place("home/icons/hicolor/48x48/apps/mail.png")
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

    // MARK: The icon theme specification

    private func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A HUD's icon on a scale-2 output comes from the theme's Scale=2 directory for its logical size
    /// (looked up as 36 px at scale 1, a 36x36 directory won); at scale 1, from the plain one.
    func testHudIconsAreLookedUpAtTheOutputsScale() throws {
        try write("share/icons/hicolor/index.theme", """
            [Icon Theme]
            Directories=18x18/status,36x36/status,18x18@2/status
            [18x18/status]
            Size=18
            Type=Fixed
            [36x36/status]
            Size=36
            Type=Fixed
            [18x18@2/status]
            Size=18
            Scale=2
            Type=Fixed
            """)
        let plain = try place("share/icons/hicolor/18x18/status/audio-volume-high.png")
        _ = try place("share/icons/hicolor/36x36/status/audio-volume-high.png")
        let double = try place("share/icons/hicolor/18x18@2/status/audio-volume-high.png")
        var loader = PictureLoader(icons: IconTheme(dataDirectories: [root + "/share"]))
        XCTAssertEqual(loader.smallIconFile("audio-volume-high", side: HudIcons.side * 2, scale: 2), double)
        XCTAssertEqual(loader.smallIconFile("audio-volume-high", side: HudIcons.side, scale: 1), plain)
        XCTAssertEqual(loader.smallIconFile("/an/absolute/path.png", side: 36, scale: 2), "/an/absolute/path.png")
    }

    func testIndexThemeIsParsedWithTheSpecificationsDefaults() {
        let index = ThemeIndex.parse("""
            # comment
            [Icon Theme]
            Name=Test
            Inherits=Parent, Other
            Directories=16x16/apps,scalable/status,48x48@2/apps,unlisted,nosize
            ScaledDirectories=24x24@2/apps

            [16x16/apps]
            Size=16
            Type=Fixed

            [scalable/status]
            Size=16
            MinSize=8
            MaxSize=512
            Type=Scalable

            [48x48@2/apps]
            Size=48
            Scale=2

            [24x24@2/apps]
            Size=24
            Scale=2
            Threshold=4

            [nosize]
            Type=Fixed
            """)
        XCTAssertEqual(index.inherits, ["Parent", "Other"])
        XCTAssertEqual(index.directories.map(\.path), ["16x16/apps", "scalable/status", "48x48@2/apps", "24x24@2/apps"])
        XCTAssertEqual(index.directories[0].type, .fixed)
        XCTAssertEqual(index.directories[1].type, .scalable)
        XCTAssertEqual(index.directories[2].type, .threshold)
        XCTAssertEqual(index.directories[2].scale, 2)
        XCTAssertEqual(index.directories[2].threshold, 2)
        XCTAssertEqual(index.directories[3].threshold, 4)
    }

    /// Index files written on other systems: CRLF or a lone CR ends a line as LF does.
    func testIndexThemeLinesEndWithLFCRLFOrCR() {
        let lines = ["[Icon Theme]", "Inherits=Parent", "Directories=16x16/apps,32x32/apps", "[16x16/apps]", "Size=16",
                     "Type=Fixed", "[32x32/apps]", "Size=32"]
        for ending in ["\n", "\r\n", "\r"] {
            let index = ThemeIndex.parse(lines.joined(separator: ending))
            XCTAssertEqual(index.inherits, ["Parent"], "lines ending in \(ending.debugDescription)")
            XCTAssertEqual(index.directories.map(\.path), ["16x16/apps", "32x32/apps"], "lines ending in \(ending.debugDescription)")
            XCTAssertEqual(index.directories.first?.type, .fixed)
        }
    }

    /// Blanks around keys, values and headers, unknown keys, a key given twice and a section given twice
    /// (the last value wins, the sections merge), comments, and lines that are neither.
    func testIndexThemeKeysAreReadWhereverTheyStand() {
        let index = ThemeIndex.parse("""
            [Icon Theme]
            \tInherits =  Parent ,, Other\t
            Directories = 16x16/apps , 32x32/apps,
            # Size=99
            [16x16/apps]
            Comment=not a key the lookup reads
            Size=12
            Size = 16
            not a key line
            [32x32/apps]
            Size=32
            [16x16/apps]
            Type = Fixed
            [32x32/apps]
            MinSize=8
            MaxSize=64
            Type=Scalable
            Threshold=7
            Scale=x
            """)
        XCTAssertEqual(index.inherits, ["Parent", "Other"])
        XCTAssertEqual(index.directories, [ThemeDirectory(path: "16x16/apps", size: 16, type: .fixed),
                                           ThemeDirectory(path: "32x32/apps", size: 32, type: .scalable, minSize: 8,
                                                          maxSize: 64, threshold: 7)])
    }

    func testTheSizeRule() {
        let fixed = ThemeDirectory(path: "f", size: 32, type: .fixed)
        XCTAssertTrue(fixed.matches(size: 32, scale: 1))
        XCTAssertFalse(fixed.matches(size: 32, scale: 2), "another scale never matches")
        XCTAssertEqual(fixed.distance(size: 48, scale: 1), 16)
        XCTAssertEqual(fixed.distance(size: 16, scale: 2), 0, "32 device pixels either way")
        let scalable = ThemeDirectory(path: "s", size: 16, type: .scalable, minSize: 8, maxSize: 512)
        XCTAssertTrue(scalable.matches(size: 48, scale: 1))
        XCTAssertEqual(scalable.distance(size: 4, scale: 1), 4)
        XCTAssertEqual(scalable.distance(size: 600, scale: 1), 88)
        let threshold = ThemeDirectory(path: "t", size: 48, scale: 2, type: .threshold)
        XCTAssertTrue(threshold.matches(size: 50, scale: 2))
        XCTAssertFalse(threshold.matches(size: 51, scale: 2))
        XCTAssertEqual(threshold.distance(size: 48, scale: 2), 0)
        XCTAssertEqual(threshold.distance(size: 20, scale: 2), (46 - 20) * 2)
    }

    /// The user's theme, what it inherits (depth first), then hicolor; the closest size when none fits;
    /// the @2 directory at scale 2.
    func testInheritanceChainSizesAndScale() throws {
        try write("share/icons/Child/index.theme", """
            [Icon Theme]
            Inherits=Middle
            Directories=16x16/apps
            [16x16/apps]
            Size=16
            Type=Fixed
            """)
        try write("share/icons/Middle/index.theme", """
            [Icon Theme]
            Inherits=Child,hicolor
            Directories=scalable/status,48x48/status,48x48@2/status
            [scalable/status]
            Size=16
            MinSize=16
            MaxSize=32
            Type=Scalable
            [48x48/status]
            Size=48
            Type=Fixed
            [48x48@2/status]
            Size=48
            Scale=2
            Type=Fixed
            """)
        try write("share/icons/hicolor/index.theme", """
            [Icon Theme]
            Directories=48x48/apps
            [48x48/apps]
            Size=48
            Type=Fixed
            """)
        let small = try place("share/icons/Child/16x16/apps/app.png")
        let fromHicolor = try place("share/icons/hicolor/48x48/apps/app.png")
        let scalable = try place("share/icons/Middle/scalable/status/only-svg.svg")
        let normal = try place("share/icons/Middle/48x48/status/two.png")
        let double = try place("share/icons/Middle/48x48@2/status/two.png")
        var theme = IconTheme(dataDirectories: [root + "/share"], themeName: "Child")
        XCTAssertEqual(theme.path(forIconNamed: "app"), small, "the user's theme first, at whatever size it has")
        XCTAssertEqual(theme.path(forIconNamed: "only-svg"), scalable, "an inherited theme's SVG, the closest size")
        XCTAssertEqual(theme.path(forIconNamed: "two", size: 48, scale: 1), normal)
        XCTAssertEqual(theme.path(forIconNamed: "two", size: 48, scale: 2), double)
        var plain = IconTheme(dataDirectories: [root + "/share"])
        XCTAssertEqual(plain.path(forIconNamed: "app"), fromHicolor)
        XCTAssertNil(plain.path(forIconNamed: "only-svg"), "hicolor inherits nothing")
    }

    /// `loadThemes` (a login start) reads the indexes and finds the directories holding icons then: the
    /// first lookup after it reads no index (here: the index is gone by then, yet its directory is used).
    func testThemesLoadedAheadAreWhatTheFirstLookupUses() throws {
        try write("share/icons/Custom/index.theme", """
            [Icon Theme]
            Directories=odd/place
            [odd/place]
            Size=48
            Type=Fixed
            """)
        let icon = try place("share/icons/Custom/odd/place/volume.png")
        var ahead = IconTheme(dataDirectories: [root + "/share"], themeName: "Custom")
        var late = IconTheme(dataDirectories: [root + "/share"], themeName: "Custom")
        ahead.loadThemes()
        try FileManager.default.removeItem(atPath: root + "/share/icons/Custom/index.theme")
        XCTAssertEqual(ahead.path(forIconNamed: "volume"), icon)
        XCTAssertNil(late.path(forIconNamed: "volume"), "without its index the theme has no such directory")
    }

    /// A hicolor laid out as packages install it (every size and category directory, nearly all empty):
    /// a missing name is looked for only where there are files, and a theme's directories are read
    /// once (an icon put into an empty one is seen by the next `IconTheme`, as after a reload).
    func testOnlyDirectoriesHoldingFilesAreSearched() throws {
        for directory in IconTheme.fallbackDirectories {
            try FileManager.default.createDirectory(atPath: "\(root!)/share/icons/hicolor/\(directory.path)",
                                                    withIntermediateDirectories: true)
        }
        let app = try place("share/icons/hicolor/48x48/apps/app.png")
        var theme = IconTheme(dataDirectories: [root + "/share"])
        XCTAssertEqual(theme.path(forIconNamed: "app"), app)
        let before = theme.fileProbes
        for name in ["missing-a", "missing-b", "missing-c"] { XCTAssertNil(theme.path(forIconNamed: name)) }
        // Per name: 48x48/apps twice (meant for the size, then the closest) and pixmaps, two extensions each.
        XCTAssertEqual(theme.fileProbes - before, 3 * 6)

        let late = try place("share/icons/hicolor/16x16/status/late.png")
        XCTAssertNil(theme.path(forIconNamed: "late"), "directories empty at load are not searched")
        var reloaded = IconTheme(dataDirectories: [root + "/share"])
        XCTAssertEqual(reloaded.path(forIconNamed: "late"), late)
    }

    func testIconPathIsSearchedFirst() throws {
        _ = try place("share/icons/hicolor/48x48/apps/app.png")
        let direct = try place("mine/app.svg")
        var theme = IconTheme(dataDirectories: [root + "/share"], iconPaths: [root + "/mine"])
        XCTAssertEqual(theme.path(forIconNamed: "app"), direct)
    }

    func testTheCacheIsBoundedInEntriesAndBytes() {
        var theme = IconTheme(dataDirectories: [root + "/share"])
        for n in 0..<2000 { _ = theme.path(forIconNamed: "missing-\(n)-" + String(repeating: "x", count: 200)) }
        XCTAssertLessThanOrEqual(theme.cacheSize.entries, IconTheme.maxCacheEntries)
        XCTAssertLessThanOrEqual(theme.cacheSize.bytes, IconTheme.maxCacheBytes)
    }

    func testGTKSettingsNameTheTheme() throws {
        XCTAssertEqual(ThemeIndex.gtkIconThemeName(settingsIni: "[Settings]\ngtk-theme-name=A\ngtk-icon-theme-name = Papirus-Dark\n"),
                       "Papirus-Dark")
        XCTAssertNil(ThemeIndex.gtkIconThemeName(settingsIni: "[Other]\ngtk-icon-theme-name=X\n"))
        XCTAssertNil(ThemeIndex.gtkIconThemeName(settingsIni: "[Settings]\ngtk-icon-theme-name=../etc\n"))
        try write("config/gtk-3.0/settings.ini", "[Settings]\ngtk-icon-theme-name=Adwaita\n")
        let fromGTK = IconTheme.fromEnvironment { ["XDG_CONFIG_HOME": self.root + "/config"][$0] }
        XCTAssertEqual(fromGTK.themeName, "Adwaita")
        let fromConfig = IconTheme.fromEnvironment(theme: "Mine") { ["XDG_CONFIG_HOME": self.root + "/config"][$0] }
        XCTAssertEqual(fromConfig.themeName, "Mine")
        XCTAssertEqual(IconTheme.fromEnvironment { _ in nil }.themeName, "hicolor")
    }

    func testDesktopEntriesNameTheirIcon() throws {
        try write("home/applications/org.example.App.desktop", "[Desktop Entry]\nName=App\nIcon=app-icon\n[Desktop Action x]\nIcon=other\n")
        try write("system/applications/org.example.App.desktop", "[Desktop Entry]\nIcon=shadowed\n")
        try write("system/applications/noicon.desktop", "[Desktop Entry]\nName=None\n")
        var theme = IconTheme(dataDirectories: [root + "/home", root + "/system"])
        XCTAssertEqual(theme.desktopEntryIcon("org.example.App"), "app-icon")
        XCTAssertEqual(theme.desktopEntryIcon("org.example.App.desktop"), "app-icon")
        XCTAssertNil(theme.desktopEntryIcon("noicon"))
        XCTAssertNil(theme.desktopEntryIcon("../applications/org.example.App"))
    }
}
