import Foundation

/// A virtual pointer and a virtual keyboard that stay plugged into the stage's seat for the rest
/// of this test process (`toastd-stage seat`).
///
/// With no input device the seat has no pointer or keyboard capability, so a client only gets a
/// wl_pointer or wl_keyboard once some virtual device appears; a one-shot `toastd-stage click` or
/// `key` would race the client's get_pointer/get_keyboard. With the seat holder plugged in first,
/// every client (the probe, toastd) has both from the start, and one-shot clicks and keys arrive.
final class InputSeat: Sendable {
    let pid: pid_t

    private init(pid: pid_t) { self.pid = pid }

    private static let instance = Result<InputSeat, any Error> {
        let stage = try Stage.shared()
        let log = "\(stage.directory)/toastd-stage-seat.stderr.log"
        let (pid, line) = try spawnTiedToThisProcess([try stage.binary("toastd-stage"), "seat"],
                                                     environment: stage.environment(), stderrLog: log,
                                                     timeout: 15)
        guard line == "ready" else {
            kill(pid, SIGTERM)
            let stderr = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw StageError.startFailed("toastd-stage seat said \(line ?? "nothing"): \(stderr)")
        }
        return InputSeat(pid: pid)
    }

    /// Plugs the devices in (once per process); returns when the seat has them.
    static func plugIn() throws { _ = try instance.get() }
}

extension Stage {
    /// Makes sure the seat has a pointer and a keyboard (see `InputSeat`). Call before starting
    /// a client that should receive clicks or keys.
    func plugInInputDevices() throws { try InputSeat.plugIn() }

    /// Clicks `button` (left, right, middle) at output coordinates (x, y) of the stage's first output
    /// (`toastd-stage click`).
    func click(x: Int, y: Int, button: String = "left") throws {
        try plugInInputDevices()
        try check(["toastd-stage", "click", "\(x)", "\(y)", "--button", button], environment: environment(), timeout: 15)
    }

    /// Presses and releases a key, by xkb keysym name ("a", "Escape", "Return") or evdev code
    /// (`toastd-stage key`).
    func press(key: String) throws {
        try plugInInputDevices()
        try check(["toastd-stage", "key", key], environment: environment(), timeout: 15)
    }
}
