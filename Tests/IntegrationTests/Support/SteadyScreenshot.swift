import XCTest

extension Stage {
    /// Waits until something other than `background` is drawn and two screenshots in a row are equal
    /// (any fade is over). Fails the test when that does not happen within `timeout`.
    func steadyScreenshot(output: String? = nil, background: RGB? = nil, timeout: Double = 10,
                          file: StaticString = #filePath, line: UInt = #line) throws -> Image {
        let background = background ?? self.background
        var previous: Image?
        let (shot, held) = try waitForScreenshot(output: output, timeout: timeout) { shot in
            defer { previous = shot }
            return !shot.isUniform(background) && previous?.rgb == shot.rgb
        }
        XCTAssertTrue(held, "nothing steady drawn; kept at \(keep(shot, name: "unsteady"))", file: file, line: line)
        return shot
    }

    /// The box of the one toast `toastd` draws over the probe window, once it is steady.
    func steadyToastBox(_ toastd: ToastdProcess, file: StaticString = #filePath, line: UInt = #line) throws -> Rect {
        let shot = try steadyScreenshot(background: ProbeWindow.colour, file: file, line: line)
        return try XCTUnwrap(shot.boundingBox(notMatching: ProbeWindow.colour), "no toast: \(toastd.log)",
                             file: file, line: line)
    }
}
