import Glibc

/// Errors from the Wayland connection.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
    /// No compositor to connect to: `display` is the name or socket that was tried.
    case noDisplay(display: String, errno: Int32)
    /// The compositor reported a protocol error on one of our objects; the connection is dead.
    case protocolError(interface: String, objectID: UInt32, code: UInt32)
    /// The connection failed (read, write or flush error; `errno` says which).
    case connectionFailed(errno: Int32)

    public var description: String {
        switch self {
        case let .noDisplay(display, errno):
            return "cannot connect to Wayland display '\(display)' (\(Self.text(errno))); is a compositor running and WAYLAND_DISPLAY set?"
        case let .protocolError(interface, objectID, code):
            return "Wayland protocol error \(code) on \(interface)@\(objectID)"
        case let .connectionFailed(errno):
            return "Wayland connection failed: \(Self.text(errno))"
        }
    }

    /// The system's words for `errno` ("Broken pipe"), which a log reader can act on.
    static func text(_ errno: Int32) -> String {
        strerror(errno).map { String(cString: $0) } ?? "errno \(errno)"
    }
}
