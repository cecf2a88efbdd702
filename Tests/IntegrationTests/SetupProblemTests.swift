import Foundation
import XCTest

/// What toastd says when its setup is wrong. A compositor that cannot host it is exit status 78,
/// which the systemd unit does not restart (`RestartPreventExitStatus=`), so a wrong session does not
/// become a restart loop; a setting that names nothing is a warning, not silence.
final class SetupProblemTests: XCTestCase {
    /// weston has no `zwlr_layer_shell_v1`: toastd says so and exits 78.
    func testACompositorWithoutLayerShellIsStatus78() throws {
        let stage = try Stage.shared()
        let runtime = NSTemporaryDirectory() + "toastd-weston-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["WAYLAND_DISPLAY"] = nil
        let weston = try BackgroundProcess(["weston", "--backend=headless-backend.so", "--socket=no-layer-shell",
                                            "--idle-time=0"], environment: environment,
                                           stderrLog: runtime + "/weston.log")
        defer { _ = weston.terminate() }
        XCTAssertTrue(waitUntil(timeout: 15) { FileManager.default.fileExists(atPath: runtime + "/no-layer-shell") },
                      "weston did not start: \((try? String(contentsOfFile: runtime + "/weston.log", encoding: .utf8)) ?? "")")

        environment["WAYLAND_DISPLAY"] = "no-layer-shell"
        let toastd = try IntegrationTests.run([try stage.binary("toastd"), "--no-dbus", "--socket", runtime + "/toastd.sock"],
                             environment: environment, timeout: 15)
        XCTAssertEqual(toastd.status, 78, toastd.stderrText)
        XCTAssertTrue(toastd.stderrText.contains("zwlr_layer_shell_v1"), "no reason given: \(toastd.stderrText)")
    }

    /// A misspelt `--output` (or `output =`) is not silently ignored: the log names the outputs there
    /// are, and toastd carries on where the compositor puts its toasts.
    func testAnUnknownOutputIsAWarningNamingTheOutputs() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-dbus", "--output", "NO-SUCH-OUTPUT"],
                                       waitForBus: false)
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("no output named 'NO-SUCH-OUTPUT'") },
                      "no warning: \(toastd.log)")
        XCTAssertTrue(toastd.log.contains(stage.variables["STAGE_OUTPUT"] ?? "HEADLESS-1"), toastd.log)
        XCTAssertTrue(try toastd.toast(["Still shown"]).succeeded, "it carries on")
    }
}
