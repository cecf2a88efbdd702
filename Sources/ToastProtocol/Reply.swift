import ToastVocabulary

/// One toast as `list` and `history` report it.
public struct ToastInfo: Equatable, Sendable {
    public var id: NotificationID
    public var summary: String
    public var body: String?
    public var appName: String?
    public var icon: String?
    public var urgency: Urgency
    public var category: String?
    public var tag: String?
    public var value: Int?
    public var actions: [NotificationAction]
    /// Milliseconds since it was shown (monotonic), if the daemon tracks it.
    public var ageMs: Int64?
    /// Why it closed (history entries only).
    public var reason: CloseReason?

    public init(id: NotificationID, summary: String, body: String? = nil, appName: String? = nil, icon: String? = nil,
                urgency: Urgency = .normal, category: String? = nil, tag: String? = nil, value: Int? = nil,
                actions: [NotificationAction] = [], ageMs: Int64? = nil, reason: CloseReason? = nil) {
        self.id = id
        self.summary = summary
        self.body = body
        self.appName = appName
        self.icon = icon
        self.urgency = urgency
        self.category = category
        self.tag = tag
        self.value = value
        self.actions = actions
        self.ageMs = ageMs
        self.reason = reason
    }

    /// The toast as a JSON object (the elements of a reply's `toasts`).
    public var json: JSONValue {
        var o = JSONObject([("id", .int(Int64(id))), ("summary", .string(summary))])
        o.set("body", body.map { .string($0) })
        o.set("app_name", appName.map { .string($0) })
        o.set("icon", icon.map { .string($0) })
        o["urgency"] = .string(urgency.rawValue)
        o.set("category", category.map { .string($0) })
        o.set("tag", tag.map { .string($0) })
        o.set("value", value.map { .int(Int64($0)) })
        if !actions.isEmpty { o["actions"] = .array(actions.map(\.json)) }
        o.set("age_ms", ageMs.map { .int($0) })
        o.set("reason", reason.map { .string($0.rawValue) })
        return .object(o)
    }

    static func decode(_ json: JSONValue, context: String) throws(ProtocolError) -> ToastInfo {
        var r = try FieldReader(json, context: context)
        var t = ToastInfo(id: try r.requiredToastID("id"), summary: try r.requiredString("summary"))
        t.body = try r.string("body")
        t.appName = try r.string("app_name")
        t.icon = try r.string("icon")
        t.urgency = try r.enumeration("urgency", Urgency.self) ?? .normal
        t.category = try r.string("category")
        t.tag = try r.string("tag")
        t.value = try r.int("value", in: Int64(NotifyParams.valueRange.lowerBound)...Int64(NotifyParams.valueRange.upperBound)).map { Int($0) }
        if let actions = try r.array("actions") {
            for (i, a) in actions.enumerated() {
                t.actions.append(try NotificationAction.decode(a, context: "\(context) action \(i)"))
            }
        }
        t.ageMs = try r.int("age_ms", in: 0...Int64.max)
        t.reason = try r.enumeration("reason", CloseReason.self)
        try r.finish()
        return t
    }
}

/// What `status` reports, and what a `status` event carries: what a status bar shows.
public struct StatusInfo: Equatable, Sendable {
    /// Toasts open now, hidden ones included.
    public var open: Int
    /// Open toasts not drawn: held back by do-not-disturb, or `invisible` by a rule.
    public var hidden: Int
    /// Closed toasts in the history.
    public var history: Int
    /// Do-not-disturb.
    public var dnd: Bool
    /// When do-not-disturb ends by itself (wall-clock seconds since the epoch); nil: it stays.
    public var dndUntil: Int64?
    /// Loading keys active (the spinner shows while there is one).
    public var loading: Int

    public init(open: Int, hidden: Int, history: Int, dnd: Bool, dndUntil: Int64? = nil, loading: Int = 0) {
        self.dndUntil = dndUntil
        self.open = open
        self.hidden = hidden
        self.history = history
        self.dnd = dnd
        self.loading = loading
    }

    func encode(into o: inout JSONObject) {
        o["open"] = .int(Int64(open))
        o["hidden"] = .int(Int64(hidden))
        o["history"] = .int(Int64(history))
        o["dnd"] = .bool(dnd)
        o.set("dnd_until", dndUntil.map { .int($0) })
        o["loading"] = .int(Int64(loading))
    }

    /// The members alone, as `toast status --json` prints them.
    public var json: JSONValue {
        var o = JSONObject()
        encode(into: &o)
        return .object(o)
    }

    static func decode(_ r: inout FieldReader) throws(ProtocolError) -> StatusInfo {
        StatusInfo(open: Int(try r.requiredInt("open", in: 0...Int64(Int32.max))),
                   hidden: Int(try r.requiredInt("hidden", in: 0...Int64(Int32.max))),
                   history: Int(try r.requiredInt("history", in: 0...Int64(Int32.max))),
                   dnd: try r.bool("dnd") ?? false, dndUntil: try r.int("dnd_until", in: ModeEnd.range),
                   loading: Int(try r.int("loading", in: 0...Int64(Int32.max)) ?? 0))
    }
}

/// What `version` reports.
public struct VersionInfo: Equatable, Sendable {
    /// The protocol version the daemon speaks.
    public var protocolVersion: Int64
    /// The daemon's own version string.
    public var daemon: String

    public init(protocolVersion: Int64 = ProtocolLimits.version, daemon: String) {
        self.protocolVersion = protocolVersion
        self.daemon = daemon
    }
}

/// What `settings` reports: how the daemon is set up, as far as a client's behaviour depends on it.
public struct DaemonSettings: Equatable, Sendable {
    /// Toasts take clicks (`clickable-actions`): a waiting client's buttons can be clicked.
    public var clickableActions: Bool

    public init(clickableActions: Bool) {
        self.clickableActions = clickableActions
    }
}

/// The payload of a successful reply. Which one a request gets is listed on `Request`.
public enum ReplyPayload: Equatable, Sendable {
    /// Plain `{"v":1,"ok":true}`.
    case none
    /// `"id": N` — notify, restore.
    case id(NotificationID)
    /// `"toasts": [...]` — list, history.
    case toasts([ToastInfo])
    /// `"dnd": true|false` — dnd (the state after the request), and `"dnd_until"` when it ends by itself
    /// (wall-clock seconds since the epoch).
    case dnd(Bool, until: Int64? = nil)
    /// `"modes": ["default", …]` — mode (those on after the request, in the order they were turned on).
    case modes([String])
    /// `"version": {"protocol": 1, "daemon": "…"}` — version.
    case version(VersionInfo)
    /// `"warnings": ["path:line: message", …]` — reload (empty: the file is clean).
    case warnings([String])
    /// `"settings": {"clickable_actions": false}` — settings.
    case settings(DaemonSettings)
    /// `"status": {"open": N, "hidden": N, "history": N, "dnd": false, "loading": N}` — status.
    case status(StatusInfo)
    /// `"level": {"value": N, "muted": false}` — osd (the level after the change).
    case level(LevelInfo)
    /// `"playback": "Paused"` — osd media (the player's `PlaybackStatus` after the command).
    case playback(String)
}

/// The daemon's answer to one request: `{"v":1,"ok":true, …payload}` or
/// `{"v":1,"ok":false,"error":{"code":"…","message":"…"}}`.
public enum Reply: Equatable, Sendable {
    case ok(ReplyPayload)
    case error(ProtocolError)

    /// Plain success.
    public static let ok = Reply.ok(.none)

    public var json: JSONValue {
        var o = JSONObject([("v", .int(ProtocolLimits.version))])
        switch self {
        case .ok(let payload):
            o["ok"] = .bool(true)
            switch payload {
            case .none: break
            case .id(let id): o["id"] = .int(Int64(id))
            case .toasts(let toasts): o["toasts"] = .array(toasts.map(\.json))
            case .dnd(let on, let until):
                o["dnd"] = .bool(on)
                o.set("dnd_until", until.map { .int($0) })
            case .modes(let names): o["modes"] = .array(names.map { .string($0) })
            case .version(let v):
                o["version"] = .object(JSONObject([("protocol", .int(v.protocolVersion)),
                                                   ("daemon", .string(v.daemon))]))
            case .warnings(let warnings): o["warnings"] = .array(warnings.map { .string($0) })
            case .settings(let s):
                o["settings"] = .object(JSONObject([("clickable_actions", .bool(s.clickableActions))]))
            case .status(let status): o["status"] = status.json
            case .level(let level): o["level"] = level.json
            case .playback(let status): o["playback"] = .string(status)
            }
        case .error(let e):
            o["ok"] = .bool(false)
            o["error"] = .object(JSONObject([("code", .string(e.code.rawValue)), ("message", .string(e.message))]))
        }
        return .object(o)
    }

    /// One line of JSON, without the trailing newline.
    public func encode() -> String { json.encoded() }

    /// The bytes to write on the socket: the encoding plus `\n`.
    public func encodedLine() -> [UInt8] { Array((encode() + "\n").utf8) }

    /// Decodes a reply line. An error reply with a code this side does not know keeps that code.
    /// The version check is lenient in one way: an error reply of any version still decodes when it
    /// says `unsupported_version`, so a client can report that the daemon is newer.
    public static func decode(line: [UInt8]) -> Result<Reply, ProtocolError> {
        switch ServerMessage.decode(line: line) {
        case .success(.reply(let reply)): return .success(reply)
        case .success(.event): return .failure(ProtocolError(.invalidType, "expected a reply, got an event"))
        case .failure(let e): return .failure(e)
        }
    }

    public static func decode(line: String) -> Result<Reply, ProtocolError> { decode(line: Array(line.utf8)) }

    static func decode(_ r: inout FieldReader, ok: Bool) throws(ProtocolError) -> Reply {
        guard ok else {
            guard let e = try r.object("error") else { throw r.missing("error") }
            var er = FieldReader(e, context: "error")
            let code = ErrorCode(rawValue: try er.requiredName("code"))
            let message = try er.requiredString("message")
            try er.finish()
            try r.finish()
            return .error(ProtocolError(code, message))
        }
        var payload = ReplyPayload.none
        var count = 0
        if let id = try r.toastID("id") { payload = .id(id); count += 1 }
        if let toasts = try r.array("toasts") {
            var list: [ToastInfo] = []
            for (i, t) in toasts.enumerated() { list.append(try ToastInfo.decode(t, context: "toast \(i)")) }
            payload = .toasts(list)
            count += 1
        }
        if let on = try r.bool("dnd") { payload = .dnd(on, until: try r.int("dnd_until", in: ModeEnd.range)); count += 1 }
        if let items = try r.array("modes") {
            var names: [String] = []
            for item in items {
                guard case .string(let name) = item else { throw r.wrongType("modes", "an array of strings", item) }
                names.append(name)
            }
            payload = .modes(names)
            count += 1
        }
        if let v = try r.object("version") {
            var vr = FieldReader(v, context: "version")
            payload = .version(VersionInfo(protocolVersion: try vr.requiredInt("protocol", in: 1...Int64.max),
                                           daemon: try vr.requiredString("daemon")))
            try vr.finish()
            count += 1
        }
        if let warnings = try r.array("warnings") {
            var list: [String] = []
            for item in warnings {
                guard case .string(let text) = item else { throw r.wrongType("warnings", "an array of strings", item) }
                list.append(text)
            }
            payload = .warnings(list)
            count += 1
        }
        if let s = try r.object("settings") {
            var sr = FieldReader(s, context: "settings")
            payload = .settings(DaemonSettings(clickableActions: try sr.bool("clickable_actions") ?? false))
            try sr.finish()
            count += 1
        }
        if let s = try r.object("status") {
            var sr = FieldReader(s, context: "status")
            payload = .status(try StatusInfo.decode(&sr))
            try sr.finish()
            count += 1
        }
        if let l = try r.object("level") {
            var lr = FieldReader(l, context: "level")
            payload = .level(try LevelInfo.decode(&lr))
            try lr.finish()
            count += 1
        }
        if let status = try r.string("playback") { payload = .playback(status); count += 1 }
        guard count <= 1 else {
            throw ProtocolError(.conflictingFields,
                                "a reply carries at most one of id, toasts, dnd, modes, version, warnings, settings, status, level, playback")
        }
        try r.finish()
        return .ok(payload)
    }
}
