import Foundation
import XCTest

/// `toast osd media` and `mpris = true` (issue #31) with a real MPRIS player: mpv with its MPRIS plugin,
/// playing two generated WAV files into no audio device, on the stage's session bus.
final class OsdMediaTests: XCTestCase {
    func testATrackChangeShowsTheNewTitleAndPlayPausePausesThePlayer() throws {
        let stage = try Stage.shared()
        let (toastd, mpv, title) = try playTwoTracks(stage)
        defer { mpv.terminate() }

        var summaries: [String] = []
        let shown = try waitUntil(timeout: 20, interval: 0.05) {
            summaries = try self.summaries(toastd)
            return summaries.contains(title)
        }
        XCTAssertTrue(shown, "no toast for the second track: \(summaries); mpv: \(mpv.stderrText); toastd: \(toastd.log)")

        let pause = try toastd.toast(["osd", "media", "play-pause"])
        XCTAssertEqual(pause.status, 0, pause.stderrText)
        XCTAssertEqual(pause.stdoutText, "Paused\n")
        XCTAssertEqual(try stage.run(["playerctl", "status"], timeout: 10).stdoutText, "Paused\n")
        XCTAssertEqual(try toastd.toast(["osd", "media", "play-pause"]).stdoutText, "Playing\n")
    }

    /// The track's toast carries play/pause and next buttons that control the player: invoked as a click
    /// would (`toast action`), play-pause pauses mpv, as playerctl sees it.
    func testTheTrackToastsButtonsControlThePlayer() throws {
        let stage = try Stage.shared()
        let (toastd, mpv, title) = try playTwoTracks(stage)
        defer { mpv.terminate() }
        var toast: [String: Any]?
        let shown = try waitUntil(timeout: 20, interval: 0.05) {
            toast = try self.toasts(toastd).first { $0["summary"] as? String == title }
            return toast != nil
        }
        XCTAssertTrue(shown, "no toast for the second track; mpv: \(mpv.stderrText); toastd: \(toastd.log)")
        let id = try XCTUnwrap(toast?["id"] as? Int, "\(String(describing: toast))")
        let keys = (toast?["actions"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
        XCTAssertEqual(keys, ["play-pause", "next"], "\(String(describing: toast))")
        XCTAssertEqual(try stage.run(["playerctl", "status"], timeout: 10).stdoutText, "Playing\n")

        let pressed = try toastd.toast(["action", String(id), "play-pause"])
        XCTAssertEqual(pressed.status, 0, pressed.stderrText)
        let paused = try waitUntil(timeout: 10, interval: 0.05) {
            try stage.run(["playerctl", "status"], timeout: 10).stdoutText == "Paused\n"
        }
        XCTAssertTrue(paused, "play-pause did not pause the player; toastd: \(toastd.log)")
        // What it did shows in the media toast, which keeps its buttons.
        let told = try waitUntil(timeout: 10, interval: 0.05) { try self.summaries(toastd).contains("Paused") }
        XCTAssertTrue(told, "no Paused toast: \((try? summaries(toastd)) ?? [])")
    }

    func testWithoutAPlayerTheCLISaysSoAndExitsSix() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let result = try toastd.toast(["osd", "media", "next"])
        XCTAssertEqual(result.status, 6, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("no media player"), result.stderrText)
    }

    /// toastd with `mpris = true`, and mpv playing a one-second track, then a long one whose title
    /// (returned) the track change shows.
    private func playTwoTracks(_ stage: Stage) throws -> (ToastdProcess, BackgroundProcess, title: String) {
        let first = try Self.silence(stage, name: "first", seconds: 1)
        let second = try Self.silence(stage, name: "second", seconds: 120)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("mpris = true")])
        let mpv = try stage.spawn(["mpv", "--no-config", "--ao=null", "--vo=null", "--no-terminal",
                                   "--script=/usr/lib/mpv-mpris/mpris.so", first, second])
        return (toastd, mpv, (second as NSString).lastPathComponent)
    }

    /// The toasts showing, by summary.
    private func summaries(_ toastd: ToastdProcess) throws -> [String] {
        try toasts(toastd).compactMap { $0["summary"] as? String }
    }

    private func toasts(_ toastd: ToastdProcess) throws -> [[String: Any]] {
        let list = try toastd.toast(["list", "--json"])
        return try JSONSerialization.jsonObject(with: Data(list.stdoutText.utf8)) as? [[String: Any]] ?? []
    }

    /// A mono 8 kHz WAV of `seconds` of silence; mpv reports its file name as the title.
    private static func silence(_ stage: Stage, name: String, seconds: Int) throws -> String {
        let path = "\(stage.directory)/\(name)-\(UUID().uuidString.prefix(8)).wav"
        let samples = 8000 * seconds, dataBytes = samples * 2
        var bytes = Array("RIFF".utf8) + le32(36 + dataBytes) + Array("WAVEfmt ".utf8)
        bytes += le32(16) + le16(1) + le16(1) + le32(8000) + le32(16000) + le16(2) + le16(16)
        bytes += Array("data".utf8) + le32(dataBytes) + [UInt8](repeating: 0, count: dataBytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    private static func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
}
