import CWayland
import Glibc

/// A connection to a Wayland compositor; owns the `wl_display`.
///
/// For an event loop of your own (epoll): watch `fd` for input; before waiting call
/// `prepareRead()` (if it returns false, `dispatchPending()` and try again) and `flush()`; when `fd`
/// is readable call `readEvents()` then `dispatchPending()`; if you decide not to read, call
/// `cancelRead()`. Every proxy keeps its display alive, so the connection closes only after the
/// last object is gone.
public final class WaylandDisplay {
    /// The `wl_display`.
    public let rawDisplay: OpaquePointer

    /// Connects to the compositor named by the environment (`WAYLAND_SOCKET`, else
    /// `WAYLAND_DISPLAY`, else `wayland-0`).
    public convenience init() throws(WaylandError) {
        try self.init(connectingTo: nil)
    }

    /// Connects to a display by socket name (relative to `XDG_RUNTIME_DIR`) or absolute path.
    public convenience init(name: String) throws(WaylandError) {
        try self.init(connectingTo: name)
    }

    private init(connectingTo name: String?) throws(WaylandError) {
        let connected: OpaquePointer? = withOptionalCString(name) { wl_display_connect($0) }
        guard let connected else {
            let failure = errno
            let tried = name ?? getenv("WAYLAND_SOCKET").map { "WAYLAND_SOCKET=" + String(cString: $0) }
                ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0 (WAYLAND_DISPLAY is unset)"
            throw .noDisplay(display: tried, errno: failure)
        }
        rawDisplay = connected
    }

    deinit {
        wl_display_disconnect(rawDisplay)
    }

    /// The connection's file descriptor, to watch for input in an event loop.
    public var fd: Int32 { wl_display_get_fd(rawDisplay) }

    /// The `wl_display` object itself, for its requests (`sync`, `getRegistry`).
    public var displayObject: WlDisplay {
        WlDisplay(borrowing: rawDisplay, connection: self, version: 1)
    }

    /// Creates a registry; set its `onEvent` to receive `.global` / `.globalRemove`.
    public func registry() -> WlRegistry { displayObject.getRegistry() }

    /// Asks the compositor for a `done` callback once it has handled every earlier request.
    public func sync() -> WlCallback { displayObject.sync() }

    /// Sends all requests and dispatches events until the compositor has handled them all.
    public func roundtrip() throws(WaylandError) {
        if wl_display_roundtrip(rawDisplay) < 0 { throw currentError() }
    }

    /// Blocks until events arrive and dispatches them; returns how many were dispatched.
    @discardableResult
    public func dispatch() throws(WaylandError) -> Int {
        let count = wl_display_dispatch(rawDisplay)
        if count < 0 { throw currentError() }
        return Int(count)
    }

    /// Writes buffered requests to the socket. Returns false if the socket is full (EAGAIN): wait
    /// for the fd to become writable and flush again.
    @discardableResult
    public func flush() throws(WaylandError) -> Bool {
        if wl_display_flush(rawDisplay) >= 0 { return true }
        if errno == EAGAIN { return false }
        throw currentError()
    }

    /// Announces the intention to read. False means events are queued: `dispatchPending()` first.
    public func prepareRead() -> Bool { wl_display_prepare_read(rawDisplay) == 0 }

    /// Reads events from the fd after `prepareRead()` (does not block if the fd was readable).
    public func readEvents() throws(WaylandError) {
        if wl_display_read_events(rawDisplay) < 0 { throw currentError() }
    }

    /// Gives up a `prepareRead()` without reading.
    public func cancelRead() { wl_display_cancel_read(rawDisplay) }

    /// Dispatches events already read, without reading; returns how many.
    @discardableResult
    public func dispatchPending() throws(WaylandError) -> Int {
        let count = wl_display_dispatch_pending(rawDisplay)
        if count < 0 { throw currentError() }
        return Int(count)
    }

    /// The error that killed the connection, if any (a protocol error or a socket error).
    public var lastError: WaylandError? {
        wl_display_get_error(rawDisplay) == 0 ? nil : currentError()
    }

    private func currentError() -> WaylandError {
        let code = wl_display_get_error(rawDisplay)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var objectID: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(rawDisplay, &interface, &objectID)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown"
            return .protocolError(interface: name, objectID: objectID, code: protocolCode)
        }
        return .connectionFailed(errno: code != 0 ? code : errno)
    }
}
