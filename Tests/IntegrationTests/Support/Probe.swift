import Foundation
import XCTest

/// A running `toastd-stage probe`: an ordinary window (sway tiles it over the whole output) that
/// prints each pointer and keyboard event it receives. Terminated when released.
final class ProbeWindow {
    /// The probe's solid colour (Sources/toastd-stage/Probe.swift).
    static let colour = RGB(hex: "3070b0")!

    let process: BackgroundProcess
    /// Its size, from its `ready WxH` line.
    let width: Int, height: Int

    /// Starts a probe (input devices plugged in first, so it has a pointer and a keyboard) and
    /// waits until its first frame is on screen.
    init(stage: Stage, fullscreen: Bool = false, timeout: Double = 15) throws {
        try stage.plugInInputDevices()
        // New windows open on the focused output: make it the stage's first.
        try stage.swaymsg("focus", "output", stage.output)
        process = try stage.spawn([try stage.binary("toastd-stage"), "probe"] + (fullscreen ? ["--fullscreen"] : []))
        guard let ready = process.waitForLine(startingWith: "ready ", timeout: timeout) else {
            process.terminate()
            throw StageError.startFailed("the probe never got ready: \(process.lines) \(process.stderrText)")
        }
        let size = ready.dropFirst("ready ".count).split(separator: "x").compactMap { Int($0) }
        width = size.first ?? 0
        height = size.count > 1 ? size[1] : 0
    }

    deinit { process.terminate() }

    /// A probe that has been given the keyboard (its `keyboard-enter`): the window whose keys a test
    /// watches a toast take and give back.
    static func holdingKeyboard(stage: Stage, file: StaticString = #filePath, line: UInt = #line) throws -> ProbeWindow {
        let probe = try ProbeWindow(stage: stage)
        XCTAssertTrue(probe.waitFor("keyboard-enter"), "\(probe.lines)", file: file, line: line)
        return probe
    }

    /// Every line the probe printed so far.
    var lines: [String] {
        process.pump(until: .after(0))
        return process.lines
    }

    /// Waits for a line equal to `line`, printed at index `from` or later.
    func waitFor(_ line: String, from: Int = 0, timeout: Double = 10) -> Bool {
        process.waitForLine(from: from, deadline: .after(timeout)) { $0 == line } != nil
    }
}
