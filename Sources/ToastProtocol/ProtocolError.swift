import ToastVocabulary

/// A structured protocol error: a stable machine-readable `code` and a human `message`.
///
/// Sent in error replies (`{"v":1,"ok":false,"error":{"code":"…","message":"…"}}`) and returned by
/// every decoder in this module.
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// The error for a `LineSplitter.Item.tooLong` line.
    public static func lineTooLong(discardedBytes: Int) -> ProtocolError {
        ProtocolError(.lineTooLong,
                      "line of more than \(max(discardedBytes, ProtocolLimits.maxLineLength)) bytes exceeds the limit of \(ProtocolLimits.maxLineLength)")
    }
}

/// A stable error code. The known codes are the static members; decoding a reply keeps any other code
/// a newer daemon may send, so clients can still print it.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A request line longer than `ProtocolLimits.maxLineLength` bytes (the line is discarded).
    public static let lineTooLong = ErrorCode(rawValue: "line_too_long")
    /// The line is not one well-formed JSON value (syntax, bad escape, lone surrogate, nesting > 32).
    public static let invalidJSON = ErrorCode(rawValue: "invalid_json")
    /// The line is not valid UTF-8 (stray continuation bytes, overlong forms, encoded surrogates, …).
    public static let invalidUTF8 = ErrorCode(rawValue: "invalid_utf8")
    /// A member the message type does not define.
    public static let unknownField = ErrorCode(rawValue: "unknown_field")
    /// A required member is absent.
    public static let missingField = ErrorCode(rawValue: "missing_field")
    /// A member has the wrong JSON type (or the line is not an object).
    public static let invalidType = ErrorCode(rawValue: "invalid_type")
    /// A member has the right type but a value outside what it allows.
    public static let outOfRange = ErrorCode(rawValue: "out_of_range")
    /// Two members that exclude each other were both given (e.g. `ids` and `all`).
    public static let conflictingFields = ErrorCode(rawValue: "conflicting_fields")
    /// The `request` member names no known request.
    public static let unknownRequest = ErrorCode(rawValue: "unknown_request")
    /// The `v` member is not a protocol version this side speaks.
    public static let unsupportedVersion = ErrorCode(rawValue: "unsupported_version")
    /// The request names a toast (or history entry, or loading key) that does not exist.
    public static let notFound = ErrorCode(rawValue: "not_found")
    /// The daemon failed to carry out a valid request.
    public static let internalError = ErrorCode(rawValue: "internal_error")
    /// `hud_stream` came with no descriptor the daemon can watch (none passed, a regular file, or a
    /// stream already open on this connection): the client relays the values itself.
    public static let unusableDescriptor = ErrorCode(rawValue: "unusable_descriptor")
    /// `osd` found nothing to ask: no sound server answers, no backlight or LED is there. The CLI
    /// exits with its own status for it (docs/protocol.md).
    public static let unavailable = ErrorCode(rawValue: "unavailable")

    /// Every code this version of the protocol defines.
    public static let known: [ErrorCode] = [
        .lineTooLong, .invalidJSON, .invalidUTF8, .unknownField, .missingField, .invalidType, .outOfRange,
        .conflictingFields, .unknownRequest, .unsupportedVersion, .notFound, .internalError,
        .unusableDescriptor, .unavailable,
    ]
}

/// Fixed limits of protocol version 1.
public enum ProtocolLimits {
    /// The protocol version this module speaks; every message carries it as `"v"`.
    public static let version: Int64 = 1
    /// The longest request line (excluding the newline) the daemon accepts: 64 KiB.
    public static let maxLineLength = 64 * 1024
    /// The longest line the daemon sends (a reply or an event), excluding the newline: 256 MiB. Replies
    /// are bounded by what the daemon holds: `list` and `history` hold at most 1,000 toasts each, and a
    /// toast's fields at most ~27 KiB (1 KiB summary, 16 KiB body, a 4 KiB icon path, names and ten
    /// actions); escaped as JSON, at most six bytes a byte, that is ~170 MiB for a full list. Clients
    /// read whole replies up to this.
    public static let maxReplyLength = 256 * 1024 * 1024
    /// The deepest nesting of arrays and objects the JSON parser accepts.
    public static let maxDepth = 32
}
