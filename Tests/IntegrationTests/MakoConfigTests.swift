import Foundation
import XCTest

/// A mako user's config, as the review had it, in toastd: mako's `height`, `outer-margin`, `sort` and
/// `progress-color = over` apply without a warning, and a 60 % toast has its background filled to 60 %.
/// A key meant only for mako is said once for the file, not at every reload.
final class MakoConfigTests: XCTestCase {
    private static let config = """
        shadow = none
        font=monospace 10
        background-color=#1e1e2eff
        text-color=#cdd6f4
        border-color=#89b4fa
        border-size=2
        border-radius=0
        progress-color=over #f38ba8
        width=360
        height=110
        margin=10
        outer-margin=6
        padding=15
        sort=-time
        default-timeout=0
        [urgency=critical]
        border-color=#fab387
        """

    func testTheReviewersMakoConfigLoadsCleanAndFillsTheBackground() throws {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/mako-config-\(UUID().uuidString.prefix(8))"
        try Data((Self.config + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let check = try stage.run([try stage.binary("toastd"), "--check-config", path])
        XCTAssertEqual(check.stdoutText, "")
        XCTAssertEqual(check.status, 0)
        let state = "\(stage.directory)/state-\(UUID().uuidString.prefix(8))"
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"],
                                       environment: ["XDG_STATE_HOME": state])
        XCTAssertTrue(toastd.log.contains("(0 warnings)"), toastd.log)

        XCTAssertEqual(try toastd.toast(["--value", "60", "Copying"]).status, 0)
        let fill = RGB(r: 0xf3, g: 0x8b, b: 0xa8), box = RGB(r: 0x1e, g: 0x1e, b: 0x2e)
        var share = 0.0
        let (shot, held) = try stage.waitForScreenshot { image in
            guard let toast = image.boundingBox(notMatching: stage.background) else { return false }
            let y = toast.y + toast.height / 2
            let row = (toast.x..<(toast.x + toast.width)).map { image.pixel($0, y) }
            let filled = row.filter { $0 == fill }.count, empty = row.filter { $0 == box }.count
            guard filled + empty > 0 else { return false }
            share = Double(filled) / Double(filled + empty)
            return abs(share - 0.6) < 0.03
        }
        XCTAssertTrue(held, "filled \(share) of the background, not 0.6; kept at \(stage.keep(shot, name: "mako-progress"))")
    }

    func testAKeyMeantOnlyForMakoIsSaidOncePerFile() throws {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/mako-only-\(UUID().uuidString.prefix(8))"
        try Data("shadow = none\ntext-alignment=center\n".utf8).write(to: URL(fileURLWithPath: path))
        let state = "\(stage.directory)/state-\(UUID().uuidString.prefix(8))"
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"],
                                       environment: ["XDG_STATE_HOME": state])
        XCTAssertTrue(toastd.log.contains("mako key 'text-alignment' is not supported"), toastd.log)
        XCTAssertTrue(toastd.log.contains("(1 warnings)"), toastd.log)
        let reload = try toastd.toast(["reload"])
        XCTAssertEqual(reload.status, 0, reload.stderrText)
        XCTAssertEqual(reload.stderrText, "")
        // --check-config still lists it: it is what the file says.
        let check = try stage.run([try stage.binary("toastd"), "--check-config", path])
        XCTAssertTrue(check.stdoutText.contains("mako key 'text-alignment' is not supported"), check.stdoutText)
    }
}
