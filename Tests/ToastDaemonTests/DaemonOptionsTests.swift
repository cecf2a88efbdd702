@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import XCTest

/// `toastd`'s hand-written command-line parser.
final class DaemonOptionsTests: XCTestCase {
    private func options(_ arguments: [String]) -> DaemonOptions? {
        if case .success(.run(let options)) = DaemonOptions.parse(arguments) { return options }
        return nil
    }

    private func error(_ arguments: [String]) -> String? {
        if case .failure(let error) = DaemonOptions.parse(arguments) { return error.message }
        return nil
    }

    func testNoArgumentsGiveTheDefaults() {
        XCTAssertEqual(options([]), DaemonOptions())
        XCTAssertNil(DaemonOptions().configPath)
        XCTAssertTrue(DaemonOptions().animations)
        XCTAssertFalse(DaemonOptions().clickableActions, "toasts are pass-through unless asked")
    }

    func testClickableActionsFlag() {
        XCTAssertEqual(options(["--clickable-actions"])?.clickableActions, true)
        XCTAssertTrue(DaemonOptions.usage.contains("--clickable-actions"))
    }

    func testConfigTakesAPath() {
        XCTAssertEqual(options(["--config", "/etc/toastd.conf"])?.configPath, "/etc/toastd.conf")
        XCTAssertEqual(options(["--config", "a", "--config", "b"])?.configPath, "b", "the last one wins")
    }

    func testConfigWithoutAPathIsAnError() {
        XCTAssertEqual(error(["--config"]), "--config needs a value")
        XCTAssertEqual(error(["--config", ""]), "--config needs a value")
    }

    func testEveryFlagTogether() {
        let parsed = options(["--replace", "--no-animations", "--no-dbus", "--socket", "/s", "--output", "DP-1",
                              "--config", "/c"])
        var expected = DaemonOptions()
        expected.replace = true
        expected.animations = false
        expected.dbus = false
        expected.socketPath = "/s"
        expected.output = "DP-1"
        expected.configPath = "/c"
        XCTAssertEqual(parsed, expected)
    }

    func testValuesNeedTheirArgument() {
        XCTAssertEqual(error(["--socket"]), "--socket needs a value")
        XCTAssertEqual(error(["--output"]), "--output needs a value")
    }

    func testUnknownOptionsAreErrors() {
        XCTAssertEqual(error(["--conf", "x"]), "unknown option '--conf' (see toastd --help)")
        XCTAssertEqual(error(["config"]), "unknown option 'config' (see toastd --help)")
    }

    func testHelpAndVersion() {
        XCTAssertEqual(DaemonOptions.parse(["-h"]), .success(.help))
        XCTAssertEqual(DaemonOptions.parse(["--version"]), .success(.version))
        XCTAssertEqual(DaemonOptions.parse(["--config", "x", "--help"]), .success(.help))
        XCTAssertTrue(DaemonOptions.usage.contains("--config PATH"))
        XCTAssertTrue(DaemonOptions.usage.contains("SIGHUP"))
    }
}

final class CheckConfigOptionTests: XCTestCase {
    func testCheckConfigTakesAnOptionalPath() {
        XCTAssertEqual(DaemonOptions.parse(["--check-config"]), .success(.checkConfig(nil)))
        XCTAssertEqual(DaemonOptions.parse(["--check-config", "/tmp/c"]), .success(.checkConfig("/tmp/c")))
        XCTAssertEqual(DaemonOptions.parse(["--config", "/tmp/c", "--check-config"]), .success(.checkConfig("/tmp/c")))
    }
}
