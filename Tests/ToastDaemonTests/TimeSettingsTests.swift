import ToastCore
@testable import ToastConfig
@testable import ToastDaemon
import ToastProtocol
import ToastVocabulary
import XCTest

/// The keys of issue 30 (`idle-threshold`, `dnd-allows`, `flood-limit`, `flood-window`; `ConfigKeys.time`) and the modes
/// file that keeps a timed do-not-disturb across a restart.
final class TimeSettingsTests: XCTestCase {
    private func parse(_ text: String) -> ParsedConfig { ConfigParser.parse(text, path: "cfg") }

    func testTheKeysAndTheirDefaults() {
        XCTAssertEqual(DaemonConfig().idleThreshold, 120_000, "dunst's default")
        XCTAssertEqual(DaemonConfig().notifications.floodLimit, 10)
        XCTAssertEqual(DaemonConfig().notifications.floodWindow, 1000)
        XCTAssertTrue(DaemonConfig().notifications.dndAllowsCritical)
        let parsed = parse("idle-threshold = 2\ndnd-allows = none\nflood-limit = 0\nflood-window = 0.5\n")
        XCTAssertEqual(parsed.diagnostics.map(\.description), [])
        XCTAssertEqual(parsed.config.idleThreshold, 2000)
        XCTAssertFalse(parsed.config.notifications.dndAllowsCritical)
        XCTAssertEqual(parsed.config.notifications.floodLimit, 0)
        XCTAssertEqual(parsed.config.notifications.floodWindow, 500)
        XCTAssertEqual(parse("idle-threshold = 0\n").config.idleThreshold, 0, "0 turns it off")
    }

    func testBadValuesAreNamedAndChangeNothing() {
        for (line, message) in [
            ("idle-threshold = -1", "cfg:1: 'idle-threshold' must be seconds from 0 to 86400, got '-1'"),
            ("idle-threshold = 2m", "cfg:1: 'idle-threshold' must be seconds from 0 to 86400, got '2m'"),
            ("idle-threshold = 1e9", "cfg:1: 'idle-threshold' must be seconds from 0 to 86400, got '1e9'"),
            ("dnd-allows = low", "cfg:1: 'dnd-allows' must be critical or none, got 'low'"),
            ("flood-limit = lots", "cfg:1: 'flood-limit' must be a whole number, got 'lots'"),
            ("flood-window = 0", "cfg:1: 'flood-window' must be seconds from 0.001 to 60, got '0'"),
            ("flood-window = 1..5", "cfg:1: 'flood-window' must be seconds from 0.001 to 60, got '1..5'"),
        ] {
            let parsed = parse(line + "\n")
            XCTAssertEqual(parsed.diagnostics.map(\.description), [message], line)
            XCTAssertEqual(parsed.config, DaemonConfig(), line)
        }
    }

    func testTheModesFileReadsBackWhatItWroteAndSkipsWhatItCannotRead() {
        let modes = [TimedMode(name: "do-not-disturb", end: 1_800_000_000_123), TimedMode(name: "work", end: 1)]
        XCTAssertEqual(ModesFormat.decode(ModesFormat.encode(modes)), modes)
        XCTAssertEqual(ModesFormat.decode(Array("toastd-modes 1\nwork 5\nbroken\ntwo words 7\nx y\n".utf8)),
                       [TimedMode(name: "work", end: 5)])
        XCTAssertEqual(ModesFormat.decode(Array("something else\nwork 5\n".utf8)), [], "not ours")
        XCTAssertEqual(ModesFormat.decode([0xff, 0xfe, 0x00]), [])
    }
}
