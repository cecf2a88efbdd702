import ToastScene
import Wayland

/// The compositor's windows as zwlr_foreign_toplevel_manager_v1 lists them, fed into a `FocusTracker`:
/// which output has the focus, and whether a fullscreen window holds it. Bound when the compositor
/// offers the protocol (every wlroots compositor does); without it `output = focused` falls back to
/// the compositor's choice.
final class ForeignToplevels {
    let globalName: UInt32
    private let manager: ZwlrForeignToplevelManagerV1
    private var handles: [Int: ZwlrForeignToplevelHandleV1] = [:]
    private var nextID = 0
    private(set) var tracker = FocusTracker()
    /// The outputs' global names, for the proxies the events name.
    private let outputID: (WlOutput) -> UInt32?
    /// A window's `done`: the tracker's answers may have changed.
    var onChange: () -> Void = {}

    init(globalName: UInt32, manager: ZwlrForeignToplevelManagerV1, outputID: @escaping (WlOutput) -> UInt32?) {
        self.globalName = globalName
        self.manager = manager
        self.outputID = outputID
        manager.onEvent = { [unowned self] event in
            switch event {
            case .toplevel(let handle): self.adopt(handle)
            case .finished: break
            }
        }
    }

    private func adopt(_ handle: ZwlrForeignToplevelHandleV1) {
        let id = nextID
        nextID += 1
        handles[id] = handle
        handle.onEvent = { [unowned self] event in
            switch event {
            case .outputEnter(let output?):
                if let output = self.outputID(output) { self.tracker.enter(id, output: output) }
            case .outputLeave(let output?):
                if let output = self.outputID(output) { self.tracker.leave(id, output: output) }
            case .state(let bytes):
                let states = Self.states(bytes)
                self.tracker.state(id, activated: states.contains(ZwlrForeignToplevelHandleV1.State.activated.rawValue),
                                   fullscreen: states.contains(ZwlrForeignToplevelHandleV1.State.fullscreen.rawValue))
            case .done:
                self.tracker.done(id)
                self.onChange()
            case .closed:
                self.tracker.closed(id)
                self.handles.removeValue(forKey: id)?.destroy()
                self.onChange()
            default:
                break
            }
        }
    }

    /// The uint32 values of a `state` array (native byte order, as wl_array carries them).
    static func states(_ bytes: [UInt8]) -> [UInt32] {
        stride(from: 0, to: bytes.count - bytes.count % 4, by: 4).map { i in
            bytes[i..<i + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        }
    }

    /// An output went away: no window is on it any more.
    func removeOutput(_ output: UInt32) { tracker.removeOutput(output) }

    deinit {
        for handle in handles.values { handle.destroy() }
        manager.stop()
    }
}
