import ArgumentParser
import XCTest
@testable import toast

/// `toast migrate dunstrc`: where it looks without FILE (where dunst looks), and its command line.
final class MigrateCommandTests: XCTestCase {
    private func candidates(_ environment: [String: String]) -> [String] {
        MigrateFiles.defaultCandidates { environment[$0] }
    }

    func testDefaultFilesAreWhereDunstLooks() {
        XCTAssertEqual(candidates(["HOME": "/home/me"]), ["/home/me/.config/dunst/dunstrc", "/etc/xdg/dunst/dunstrc"])
        XCTAssertEqual(candidates(["HOME": "/home/me", "XDG_CONFIG_HOME": "/cfg", "XDG_CONFIG_DIRS": "/a:relative:/b"]),
                       ["/cfg/dunst/dunstrc", "/a/dunst/dunstrc", "/b/dunst/dunstrc"])
        XCTAssertEqual(candidates(["XDG_CONFIG_HOME": "relative", "HOME": "/h", "XDG_CONFIG_DIRS": ""]),
                       ["/h/.config/dunst/dunstrc", "/etc/xdg/dunst/dunstrc"], "a relative XDG_CONFIG_HOME is ignored")
        XCTAssertEqual(candidates([:]), ["/etc/xdg/dunst/dunstrc"])
    }

    func testMigrateIsAVerbNotAToast() throws {
        XCTAssertTrue(FastPath.isVerb("migrate"))
        XCTAssertNil(FastPath.parse(["migrate", "dunstrc"]), "the fast path would send it as a toast")
        let command = try Toast.parseAsRoot(["migrate", "dunstrc", "/x/dunstrc", "-o", "/y/config", "--force"])
        let dunstrc = try XCTUnwrap(command as? Migrate.Dunstrc)
        XCTAssertEqual(dunstrc.file, "/x/dunstrc")
        XCTAssertEqual(dunstrc.output, "/y/config")
        XCTAssertTrue(dunstrc.force)
        XCTAssertThrowsError(try Toast.parseAsRoot(["migrate", "dunstrc", "--force"]), "--force without -o")
        XCTAssertEqual(CommandTypo.suggestion(for: "migrat"), "migrate")
    }
}
