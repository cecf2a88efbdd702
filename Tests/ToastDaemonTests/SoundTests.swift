import ToastCore
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastVocabulary
import XCTest

/// Which sound a notification plays: hints, rules, suppress-sound, the theme lookup, the configuration.
final class SoundTests: XCTestCase {
    func testHintsRulesAndSuppressDecideTheSound() {
        var request = NotificationRequest(appName: "chat", summary: "Hi")
        HintInterpreter.apply([HintName.soundName: .string("message-new-instant")], to: &request)
        XCTAssertEqual(request.soundToPlay, .name("message-new-instant"))
        HintInterpreter.apply([HintName.soundFile: .string("file:///tmp/a%20b.wav"), HintName.soundName: .string("bell")], to: &request)
        XCTAssertEqual(request.soundToPlay, .file("/tmp/a b.wav"), "sound-file wins over sound-name")

        let rules = ConfigParser.parse("[app-name=chat]\nsound = bell\n[app-name=quiet]\nsound = none\n", path: "cfg").config.rules
        XCTAssertEqual(rules.resolve(request).soundToPlay, .name("bell"), "a rule's sound replaces the client's")
        var quiet = NotificationRequest(appName: "quiet", summary: "Hi")
        quiet.sound = .name("bell")
        XCTAssertNil(rules.resolve(quiet).soundToPlay, "sound = none silences")
        var other = NotificationRequest(appName: "other", summary: "Hi")
        XCTAssertNil(rules.resolve(other).soundToPlay, "no hint, no rule: no sound")
        other.sound = .name("bell")
        HintInterpreter.apply([HintName.suppressSound: .boolean(true)], to: &other)
        XCTAssertNil(other.soundToPlay, "suppress-sound wins")
        var ruled = NotificationRequest(appName: "chat", summary: "Hi")
        ruled.suppressSound = true
        XCTAssertNil(rules.resolve(ruled).soundToPlay, "suppress-sound wins over rules too")
    }

    func testThemeLookupFollowsTheSpecsFallbacks() {
        let theme = SoundTheme(directories: ["/home/u/.local/share/sounds", "/usr/share/sounds"])
        let files: Set<String> = ["/usr/share/sounds/freedesktop/stereo/message-new-instant.oga",
                                  "/usr/share/sounds/freedesktop/stereo/message.wav",
                                  "/home/u/.local/share/sounds/freedesktop/bell.ogg"]
        let exists = { files.contains($0) }
        XCTAssertEqual(theme.file(named: "message-new-instant", exists: exists), "/usr/share/sounds/freedesktop/stereo/message-new-instant.oga")
        XCTAssertEqual(theme.file(named: "message-new-email", exists: exists), "/usr/share/sounds/freedesktop/stereo/message.wav",
                       "dash parts are dropped from the end")
        XCTAssertEqual(theme.file(named: "bell", exists: exists), "/home/u/.local/share/sounds/freedesktop/bell.ogg")
        XCTAssertNil(theme.file(named: "alarm-clock", exists: exists))
        XCTAssertNil(theme.file(named: "../../etc/passwd", exists: { _ in true }), "a name is not a path")
        XCTAssertEqual(SoundTheme.fromEnvironment(["HOME": "/h", "XDG_DATA_DIRS": "/a:/b"].self.lookup).directories,
                       ["/h/.local/share/sounds", "/a/sounds", "/b/sounds"])
    }

    func testSoundCommandConfiguration() {
        XCTAssertNil(ConfigParser.parse("", path: "cfg").config.soundCommand, "default: look for a player")
        XCTAssertEqual(ConfigParser.parse("sound-command = /opt/play --quiet\n", path: "cfg").config.soundCommand, ["/opt/play", "--quiet"])
        XCTAssertEqual(ConfigParser.parse("sound-command = none\n", path: "cfg").config.soundCommand, [])
        let player = SoundPlayer(configured: [], environment: { _ in nil })
        XCTAssertFalse(player.isAvailable)
        XCTAssertEqual(SoundPlayer(configured: ["/x/y"], environment: { _ in nil }).command, ["/x/y"])
        XCTAssertNil(SoundPlayer(configured: nil, environment: { $0 == "PATH" ? "/nonexistent" : nil }).command,
                     "no player on PATH: none")
        XCTAssertEqual(ConfigParser.parse("[app-name=x]\nsound = ../x\n", path: "cfg").diagnostics.count, 1)
    }
}

private extension Dictionary where Key == String, Value == String {
    func lookup(_ key: String) -> String? { self[key] }
}
