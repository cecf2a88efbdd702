/// Which output has the focus, and whether a fullscreen window holds it, from what the compositor
/// tells through zwlr_foreign_toplevel_manager_v1 (`ForeignToplevels` feeds it). Layer-shell gives a
/// client no "focused output"; the activated window's output stands for it. Pure: events in,
/// answers out, so it is tested without a compositor.
package struct FocusTracker: Equatable {
    /// An output, by its wl_registry global name.
    package typealias OutputID = UInt32
    /// A window, by a number the feeder gives each handle.
    package typealias ToplevelID = Int

    package struct Toplevel: Equatable {
        /// The outputs the window is on, the one it entered most recently last.
        package var outputs: [OutputID] = []
        package var activated = false
        package var fullscreen = false
        /// When it was last activated (a counter): with several seats, the latest one wins.
        package var activatedStamp = 0
    }

    /// The windows as of their last `done`.
    package private(set) var toplevels: [ToplevelID: Toplevel] = [:]
    /// Changes since the last `done`, per window (the protocol applies them together).
    private var pending: [ToplevelID: Toplevel] = [:]
    /// The output the focus was on most recently (kept when the window closes or loses focus).
    package private(set) var lastFocusedOutput: OutputID?
    private var stamp = 0

    package init() {}

    private func current(_ id: ToplevelID) -> Toplevel { pending[id] ?? toplevels[id] ?? Toplevel() }

    /// The window is now on `output`.
    package mutating func enter(_ id: ToplevelID, output: OutputID) {
        var toplevel = current(id)
        toplevel.outputs.removeAll { $0 == output }
        toplevel.outputs.append(output)
        pending[id] = toplevel
    }

    /// The window left `output`.
    package mutating func leave(_ id: ToplevelID, output: OutputID) {
        var toplevel = current(id)
        toplevel.outputs.removeAll { $0 == output }
        pending[id] = toplevel
    }

    /// The window's states (the `state` event).
    package mutating func state(_ id: ToplevelID, activated: Bool, fullscreen: Bool) {
        var toplevel = current(id)
        if activated && !toplevel.activated {
            stamp += 1
            toplevel.activatedStamp = stamp
        }
        toplevel.activated = activated
        toplevel.fullscreen = fullscreen
        pending[id] = toplevel
    }

    /// The window's changes since the last `done` apply.
    package mutating func done(_ id: ToplevelID) {
        guard let toplevel = pending.removeValue(forKey: id) else { return }
        toplevels[id] = toplevel
        if let active = activeToplevel, let output = active.outputs.last { lastFocusedOutput = output }
    }

    /// The window is gone.
    package mutating func closed(_ id: ToplevelID) {
        pending[id] = nil
        toplevels[id] = nil
    }

    /// An output went away: no window is on it any more.
    package mutating func removeOutput(_ output: OutputID) {
        for id in Array(toplevels.keys) { toplevels[id]?.outputs.removeAll { $0 == output } }
        for id in Array(pending.keys) { pending[id]?.outputs.removeAll { $0 == output } }
        if lastFocusedOutput == output { lastFocusedOutput = nil }
    }

    /// The activated window (the most recently activated, with several).
    package var activeToplevel: Toplevel? {
        toplevels.values.filter(\.activated).max { $0.activatedStamp < $1.activatedStamp }
    }

    /// The output to show on among `outputs`: the one the activated window most recently entered; with
    /// no such window, the one the focus was last on; nil before any window had the focus (the
    /// compositor then chooses, and sway chooses its focused output: better than a first guess).
    package func focusedOutput(among outputs: [OutputID]) -> OutputID? {
        if let active = activeToplevel, let output = active.outputs.last(where: outputs.contains) { return output }
        if let lastFocusedOutput, outputs.contains(lastFocusedOutput) { return lastFocusedOutput }
        return nil
    }

    /// The output where the activated window is fullscreen, if it is.
    package func fullscreenOutput(among outputs: [OutputID]) -> OutputID? {
        guard let active = activeToplevel, active.fullscreen else { return nil }
        return active.outputs.last(where: outputs.contains)
    }

    /// What the screen follows: where the focus is and whether it is fullscreen there. A change in
    /// anything else (titles, other windows) leaves it equal, and nothing is redrawn.
    package struct Summary: Equatable {
        package var focused: OutputID?
        package var fullscreen: OutputID?

        package init(focused: OutputID? = nil, fullscreen: OutputID? = nil) {
            self.focused = focused
            self.fullscreen = fullscreen
        }
    }

    package func summary(among outputs: [OutputID]) -> Summary {
        Summary(focused: focusedOutput(among: outputs), fullscreen: fullscreenOutput(among: outputs))
    }
}
