import ToastVocabulary

/// Something that happened to a toast, sent to connections subscribed to it (by `subscribe` or by a
/// `notify` with `wait`): `{"v":1,"event":"closed","id":N,"reason":"expired"}` or
/// `{"v":1,"event":"action","id":N,"key":"KEY"}`; or, to a connection that sent `status` with `follow`,
/// `{"v":1,"event":"status","open":N,"hidden":N,"history":N,"dnd":false}`. Events may arrive between a
/// request and its reply.
public enum Event: Equatable, Sendable {
    /// The toast closed. It is the last event for this id.
    case closed(id: NotificationID, reason: CloseReason)
    /// The user (or `toast action`) invoked one of its actions; `default` for the default action.
    case action(id: NotificationID, key: String)
    /// The counts or do-not-disturb changed (sent to connections following the status).
    case status(StatusInfo)
    /// An activation token for the app, just before the `action` it goes with (spec 1.3): the
    /// compositor's leave to raise a window, from a click on the toast or from `action`'s caller.
    case activationToken(id: NotificationID, token: String)
    /// A line of a `hud_stream` input that is not a value: its number (from 1) and why.
    case streamProblem(line: Int, message: String)
    /// The `hud_stream` input ended; the daemon no longer reads it.
    case streamEnd

    /// The toast this event is about; nil for a status event.
    public var id: NotificationID? {
        switch self {
        case .closed(let id, _), .action(let id, _), .activationToken(let id, _): id
        case .status, .streamProblem, .streamEnd: nil
        }
    }

    public var json: JSONValue {
        var o = JSONObject([("v", .int(ProtocolLimits.version))])
        switch self {
        case .closed(let id, let reason):
            o["event"] = .string("closed")
            o["id"] = .int(Int64(id))
            o["reason"] = .string(reason.rawValue)
        case .action(let id, let key):
            o["event"] = .string("action")
            o["id"] = .int(Int64(id))
            o["key"] = .string(key)
        case .status(let status):
            o["event"] = .string("status")
            status.encode(into: &o)
        case .activationToken(let id, let token):
            o["event"] = .string("activation_token")
            o["id"] = .int(Int64(id))
            o["token"] = .string(token)
        case .streamProblem(let line, let message):
            o["event"] = .string("stream_problem")
            o["line"] = .int(Int64(line))
            o["message"] = .string(message)
        case .streamEnd:
            o["event"] = .string("stream_end")
        }
        return .object(o)
    }

    /// One line of JSON, without the trailing newline.
    public func encode() -> String { json.encoded() }

    /// The bytes to write on the socket: the encoding plus `\n`.
    public func encodedLine() -> [UInt8] { Array((encode() + "\n").utf8) }

    public static func decode(line: [UInt8]) -> Result<Event, ProtocolError> {
        switch ServerMessage.decode(line: line) {
        case .success(.event(let event)): return .success(event)
        case .success(.reply): return .failure(ProtocolError(.invalidType, "expected an event, got a reply"))
        case .failure(let e): return .failure(e)
        }
    }

    public static func decode(line: String) -> Result<Event, ProtocolError> { decode(line: Array(line.utf8)) }

    static func decode(_ r: inout FieldReader, name: String) throws(ProtocolError) -> Event {
        r = FieldReader(r, context: "\(name) event")
        let event: Event
        switch name {
        case "closed":
            guard let reason = try r.enumeration("reason", CloseReason.self) else { throw r.missing("reason") }
            event = .closed(id: try r.requiredToastID("id"), reason: reason)
        case "action":
            event = .action(id: try r.requiredToastID("id"), key: try r.requiredName("key"))
        case "status":
            event = .status(try StatusInfo.decode(&r))
        case "activation_token":
            event = .activationToken(id: try r.requiredToastID("id"), token: try r.requiredName("token"))
        case "stream_problem":
            event = .streamProblem(line: Int(try r.requiredInt("line", in: 1...Int64.max)), message: try r.requiredString("message"))
        case "stream_end":
            event = .streamEnd
        default:
            throw ProtocolError(.unknownRequest, "unknown event \"\(name)\"")
        }
        try r.finish()
        return event
    }
}

/// Any line a client reads from the daemon: a reply (has `ok`) or an event (has `event`).
public enum ServerMessage: Equatable, Sendable {
    case reply(Reply)
    case event(Event)

    public static func decode(line: [UInt8]) -> Result<ServerMessage, ProtocolError> {
        do throws(ProtocolError) {
            return .success(try parse(line: line))
        } catch {
            return .failure(error)
        }
    }

    /// `decode(line:)`, throwing: what a client reading replies calls. No `Result` is made, so the
    /// CLI's start needs no runtime lookup of `ProtocolError: Error` to destroy one (a walk of every
    /// conformance record of the binary; see `JSONParser.value`).
    public static func parse(line: [UInt8]) throws(ProtocolError) -> ServerMessage {
        guard line.count <= ProtocolLimits.maxReplyLength else {
            throw ProtocolError(.lineTooLong, "line of \(line.count) bytes exceeds the limit")
        }
        var r = try FieldReader(try JSONParser.value(line), context: "message")
        let ok = try r.bool("ok")
        let event = try r.string("event")
        do throws(ProtocolError) {
            try checkVersion(&r)
        } catch {
            // Let a newer daemon's "unsupported_version" error through so the client can print it.
            guard ok == false, error.code == .unsupportedVersion else { throw error }
        }
        switch (ok, event) {
        case let (ok?, nil): return .reply(try Reply.decode(&r, ok: ok))
        case let (nil, name?): return .event(try Event.decode(&r, name: name))
        case (_?, _?):
            throw ProtocolError(.conflictingFields, "a message is either a reply (ok) or an event, not both")
        case (nil, nil):
            throw ProtocolError(.missingField, "a message needs \"ok\" (reply) or \"event\"")
        }
    }

    public static func decode(line: String) -> Result<ServerMessage, ProtocolError> {
        decode(line: Array(line.utf8))
    }
}
