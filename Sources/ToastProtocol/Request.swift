import ToastVocabulary

/// Which toasts a request applies to: some ids, or all of them.
public enum ToastSelection: Equatable, Sendable {
    case ids([NotificationID])
    case all

    func encode(into o: inout JSONObject) {
        switch self {
        case .ids(let ids): o["ids"] = .array(ids.map { .int(Int64($0)) })
        case .all: o["all"] = .bool(true)
        }
    }

    /// Exactly one of `"ids": [id, …]` (non-empty) or `"all": true`.
    static func decode(_ r: inout FieldReader) throws(ProtocolError) -> ToastSelection {
        let ids = try r.array("ids")
        let all = try r.bool("all")
        switch (ids, all) {
        case (_?, true?):
            throw ProtocolError(.conflictingFields, "\(r.context) takes either \"ids\" or \"all\", not both")
        case (nil, true?):
            return .all
        case (let list?, _):
            guard !list.isEmpty else { throw r.outOfRange("ids", "must not be empty") }
            var out: [NotificationID] = []
            for item in list {
                guard case .int(let i) = item else { throw r.wrongType("ids", "an array of integers", item) }
                guard i >= 1 && i <= Int64(NotificationID.max) else {
                    throw r.outOfRange("ids", "must hold ids in 1...\(NotificationID.max), not \(i)")
                }
                out.append(NotificationID(i))
            }
            return .ids(out)
        case (nil, false?):
            throw r.outOfRange("all", "must be true when given")
        case (nil, nil):
            throw ProtocolError(.missingField, "\(r.context) needs \"ids\" or \"all\"")
        }
    }
}

/// Which toasts `dismiss` closes: some ids, all of them, or the newest one showing.
public enum DismissSelection: Equatable, Sendable {
    case ids([NotificationID])
    case all
    /// The newest toast showing, as `makoctl dismiss` and `dunstctl close` do without arguments.
    case newest

    func encode(into o: inout JSONObject) {
        switch self {
        case .ids(let ids): ToastSelection.ids(ids).encode(into: &o)
        case .all: ToastSelection.all.encode(into: &o)
        case .newest: o["newest"] = .bool(true)
        }
    }

    /// Exactly one of `"ids": [id, …]` (non-empty), `"all": true` or `"newest": true`.
    static func decode(_ r: inout FieldReader) throws(ProtocolError) -> DismissSelection {
        guard let newest = try r.bool("newest") else {
            guard r.has("ids") || r.has("all") else {
                throw ProtocolError(.missingField, "\(r.context) needs \"ids\", \"all\" or \"newest\"")
            }
            switch try ToastSelection.decode(&r) {
            case .ids(let ids): return .ids(ids)
            case .all: return .all
            }
        }
        guard !r.has("ids") && !r.has("all") else {
            throw ProtocolError(.conflictingFields, "\(r.context) takes one of \"ids\", \"all\" or \"newest\"")
        }
        guard newest else { throw r.outOfRange("newest", "must be true when given") }
        return .newest
    }
}

/// What `dnd` does: set, clear, flip, or only report do-not-disturb.
public enum DndMode: String, CaseIterable, Equatable, Sendable {
    case on, off, toggle, status
}

/// When a mode turned on for a while ends: wall-clock seconds since the epoch.
public enum ModeEnd {
    /// From 2001 to 9999: a time written by a confused client is refused, not kept for ever.
    public static let range: ClosedRange<Int64> = 978_307_200...253_402_300_799
}

/// What `mode` does, as makoctl mode's flags: `set` replaces the modes on, then `add`, `remove` and
/// `toggle` apply in that order. All empty: only report them.
public struct ModeChange: Equatable, Sendable {
    public var set: [String]?
    public var add: [String]
    public var remove: [String]
    public var toggle: [String]
    /// When the modes of `add` end by themselves, in wall-clock seconds since the epoch (`--for`,
    /// `--until`); nil: they stay on until turned off.
    public var until: Int64?

    public init(set: [String]? = nil, add: [String] = [], remove: [String] = [], toggle: [String] = [], until: Int64? = nil) {
        self.set = set; self.add = add; self.remove = remove; self.toggle = toggle; self.until = until
    }

    /// `names` after the change.
    public func applied(to names: [String]) -> [String] {
        var names = set ?? names
        for name in add where !names.contains(name) { names.append(name) }
        names.removeAll { remove.contains($0) }
        for name in toggle {
            if let index = names.firstIndex(of: name) { names.remove(at: index) } else { names.append(name) }
        }
        return names
    }

    func encode(into o: inout JSONObject) {
        o.set("set", set.map { .array($0.map { .string($0) }) })
        for (key, names) in [("add", add), ("remove", remove), ("toggle", toggle)] where !names.isEmpty {
            o[key] = .array(names.map { .string($0) })
        }
        o.set("until", until.map { .int($0) })
    }

    static func decode(_ r: inout FieldReader) throws(ProtocolError) -> ModeChange {
        func names(_ key: String) throws(ProtocolError) -> [String]? {
            guard let items = try r.array(key) else { return nil }
            guard items.count <= ModeNames.maxCount else {
                throw r.outOfRange(key, "holds at most \(ModeNames.maxCount) modes")
            }
            var names: [String] = []
            for item in items {
                guard case .string(let name) = item else { throw r.wrongType(key, "an array of strings", item) }
                guard ModeNames.isValid(name) else {
                    throw r.outOfRange(key, "\"\(name.prefix(80))\" is not a mode name (1 to \(ModeNames.maxNameBytes) bytes, no blanks, quotes, '=' or brackets)")
                }
                names.append(name)
            }
            return names
        }
        return ModeChange(set: try names("set"), add: try names("add") ?? [], remove: try names("remove") ?? [],
                          toggle: try names("toggle") ?? [], until: try r.int("until", in: ModeEnd.range))
    }
}

/// What `center` does: open or close the notification center, or flip it.
public enum CenterMode: String, CaseIterable, Equatable, Sendable {
    case toggle, open, close
}

/// A HUD (value bar) update: volume, brightness, … like wob or SwayOSD.
public struct HudParams: Equatable, Sendable {
    /// What the bar shows (`volume`, `brightness`, `mic`, …); one bar per kind, updated in place.
    public var kind: String
    /// The value in percent, 0...`HudParams.valueRange.upperBound` (above 100 is drawn as overdrive).
    public var value: Int
    public var muted: Bool
    public var label: String?
    public var icon: String?

    public init(kind: String, value: Int, muted: Bool = false, label: String? = nil, icon: String? = nil) {
        self.kind = kind
        self.value = value
        self.muted = muted
        self.label = label
        self.icon = icon
    }

    /// The allowed range of `value`.
    public static let valueRange = 0...200

    func encode(into o: inout JSONObject) {
        o["kind"] = .string(kind)
        o["value"] = .int(Int64(value))
        if muted { o["muted"] = .bool(true) }
        o.set("label", label.map { .string($0) })
        o.set("icon", icon.map { .string($0) })
    }

    static func decode(_ r: inout FieldReader) throws(ProtocolError) -> HudParams {
        HudParams(
            kind: try r.requiredName("kind"),
            value: Int(try r.requiredInt("value", in: Int64(valueRange.lowerBound)...Int64(valueRange.upperBound))),
            muted: try r.bool("muted") ?? false,
            label: try r.string("label"),
            icon: try r.string("icon"))
    }
}

/// A request from a client to the daemon: one JSON object per line,
/// `{"v":1,"request":"NAME", …members}`. Every request gets exactly one reply line, in order.
public enum Request: Equatable, Sendable {
    /// Show (or replace) a toast. Reply: `id`.
    case notify(NotifyParams)
    /// Close toasts (reason `dismissed`). Reply: plain ok, or with `newest` the `id` it closed;
    /// `not_found` if a given id is not showing, or with `newest` if none is.
    case dismiss(DismissSelection)
    /// Reply: `toasts` showing now, oldest first.
    case list
    /// Reply: `toasts` closed recently (not transient ones), most recent first, each with its `reason`.
    case history
    /// Bring back the closed toast `id` from the history, or (nil) the most recently closed one.
    /// Reply: its (new) `id`; `not_found` if the history is empty or holds no such id.
    case restore(id: NotificationID?)
    /// Forget every closed toast. Reply: plain ok.
    case historyClear
    /// Invoke an action as if clicked; nil key means the default action, nil id the newest toast showing
    /// (`makoctl invoke`). An activation token (a launcher's `XDG_ACTIVATION_TOKEN`) goes to the app
    /// first. Reply: plain ok; `not_found` if the toast or its action does not exist.
    case action(id: NotificationID?, key: String?, activationToken: String? = nil)
    /// Reply: `dnd` state after the change.
    case dnd(DndMode, until: Int64? = nil)
    /// `until`: when do-not-disturb turned on ends by itself, in wall-clock seconds since the epoch.
    /// Change the modes on (or only report them). Reply: `modes`, those on after the change.
    case mode(ModeChange)
    /// Reply: `version`.
    case version
    /// Reread the configuration file and apply it (as SIGHUP does). Reply: `warnings`, one
    /// `path:line: message` per problem found (empty: the file is clean).
    case reload
    /// Reply: `settings`, what a client must know of how the daemon is set up (whether toasts take clicks).
    case settings
    /// Subscribe this connection to events of these toasts (`all`: every toast, present and future).
    /// Reply: plain ok; then `event` lines arrive on this connection as they happen.
    case subscribe(ToastSelection)
    /// Show or update a HUD bar. Reply: plain ok.
    case hud(HudParams)
    /// Start a loading spinner named `key` (starting one already running only updates its label).
    /// Unless `detach`, the spinner stops when this connection closes. Reply: plain ok.
    case loadingStart(key: String, label: String?, detach: Bool)
    /// Stop a loading spinner. Reply: plain ok; `not_found` if no spinner has this key.
    case loadingStop(key: String)
    /// Reply: `status` (counts and do-not-disturb). With `follow`, a `status` event follows on this
    /// connection whenever any of it changes (what status bars read).
    case status(follow: Bool)
    /// Read HUD values from the descriptor passed with this line (SCM_RIGHTS), one `toast hud --stream`
    /// line each, for bar `kind` (its `value` member is not used). Reply: plain ok, then `stream_problem`
    /// events for bad lines and one `stream_end` when the input ends; `invalid_argument` when no
    /// descriptor came or it cannot be watched (a regular file): the client then sends `hud` itself.
    case hudStream(HudParams)
    /// Change a device's level (volume, mic, brightness) or read a lock key, and show the bar with what
    /// it holds after; or command the media player. Reply: `level` (media: `playback`); `unavailable`
    /// when there is no sound server, backlight, LED or player to ask, `not_found` when the named
    /// device does not exist.
    case osd(OsdParams)
    /// Open, close or flip the notification center (the daemon's panel of open and closed toasts,
    /// which takes the keyboard while open). Reply: plain ok.
    case center(CenterMode)
    /// Answer toast `id` (nil: the newest that takes a reply) with a line of text: its sender hears
    /// `NotificationReplied`, and it closes. Reply: `id`; `not_found` when it is not open or takes no reply.
    case reply(id: NotificationID?, text: String)
    /// Give the newest toast showing the keyboard (until Escape, or until it closes): Enter invokes its
    /// default action, Tab its buttons in turn. Reply: `id`; `not_found` when none shows.
    case focus

    /// The wire name of the request (`"request"` member).
    public var name: String {
        switch self {
        case .notify: "notify"
        case .dismiss: "dismiss"
        case .list: "list"
        case .history: "history"
        case .restore: "restore"
        case .historyClear: "history_clear"
        case .action: "action"
        case .dnd: "dnd"
        case .mode: "mode"
        case .version: "version"
        case .reload: "reload"
        case .settings: "settings"
        case .subscribe: "subscribe"
        case .hud: "hud"
        case .loadingStart: "loading_start"
        case .loadingStop: "loading_stop"
        case .status: "status"
        case .hudStream: "hud_stream"
        case .osd: "osd"
        case .center: "center"
        case .reply: "reply"
        case .focus: "focus"
        }
    }

    /// Every request name, for messages and docs.
    public static let names = ["notify", "dismiss", "list", "history", "restore", "action", "dnd", "mode", "version",
                               "reload", "settings", "subscribe", "hud", "loading_start", "loading_stop", "status", "hud_stream",
                               "history_clear", "osd", "center", "reply", "focus"]

    /// The request as a JSON object (`v` and `request` first).
    public var json: JSONValue {
        var o = JSONObject([("v", .int(ProtocolLimits.version)), ("request", .string(name))])
        switch self {
        case .notify(let p): p.encode(into: &o)
        case .dismiss(let s): s.encode(into: &o)
        case .subscribe(let s): s.encode(into: &o)
        case .list, .history, .historyClear, .version, .reload, .settings, .focus: break
        case .restore(let id): o.set("id", id.map { .int(Int64($0)) })
        case .action(let id, let key, let token):
            o.set("id", id.map { .int(Int64($0)) })
            o.set("key", key.map { .string($0) })
            o.set("activation_token", token.map { .string($0) })
        case .dnd(let mode, let until):
            o["mode"] = .string(mode.rawValue)
            o.set("until", until.map { .int($0) })
        case .mode(let change): change.encode(into: &o)
        case .hud(let p): p.encode(into: &o)
        case .loadingStart(let key, let label, let detach):
            o["key"] = .string(key)
            o.set("label", label.map { .string($0) })
            if detach { o["detach"] = .bool(true) }
        case .loadingStop(let key): o["key"] = .string(key)
        case .status(let follow): if follow { o["follow"] = .bool(true) }
        case .hudStream(let p): p.encode(into: &o)
        case .osd(let p): p.encode(into: &o)
        case .center(let mode): o["mode"] = .string(mode.rawValue)
        case .reply(let id, let text):
            o.set("id", id.map { .int(Int64($0)) })
            o["text"] = .string(text)
        }
        return .object(o)
    }

    /// One line of JSON, without the trailing newline.
    public func encode() -> String { json.encoded() }

    /// The bytes to write on the socket: the encoding plus `\n`.
    public func encodedLine() -> [UInt8] { Array((encode() + "\n").utf8) }

    /// Decodes one request line (without its newline; a trailing `\r` is tolerated as whitespace).
    ///
    /// Checks, in order: length (`line_too_long`), UTF-8 (`invalid_utf8`), JSON (`invalid_json`), an
    /// object (`invalid_type`), `v` (`missing_field`, `invalid_type`, `unsupported_version`), `request`
    /// (`missing_field`, `invalid_type`, `unknown_request`), then the members: `missing_field`,
    /// `invalid_type`, `out_of_range`, `conflicting_fields`, and `unknown_field` for any extra member.
    public static func decode(line: [UInt8]) -> Result<Request, ProtocolError> {
        line.withUnsafeBytes { decode(line: $0) }
    }

    /// Decodes one request line from a buffer (valid only for the duration of the call).
    public static func decode(line: UnsafeRawBufferPointer) -> Result<Request, ProtocolError> {
        guard line.count <= ProtocolLimits.maxLineLength else {
            return .failure(ProtocolError(
                .lineTooLong, "line of \(line.count) bytes exceeds the limit of \(ProtocolLimits.maxLineLength)"))
        }
        switch JSONParser.parse(line) {
        case .failure(let e): return .failure(e)
        case .success(let json): return decode(json: json)
        }
    }

    /// Decodes a request line given as a string (convenience for tests and tools).
    public static func decode(line: String) -> Result<Request, ProtocolError> {
        decode(line: Array(line.utf8))
    }

    /// Decodes an already parsed JSON value.
    public static func decode(json: JSONValue) -> Result<Request, ProtocolError> {
        do throws(ProtocolError) {
            return .success(try decodeThrowing(json))
        } catch {
            return .failure(error)
        }
    }

    private static func decodeThrowing(_ json: JSONValue) throws(ProtocolError) -> Request {
        var r = try FieldReader(json, context: "request")
        try checkVersion(&r)
        let name = try r.requiredString("request")
        r = FieldReader(r, context: "\(name) request")
        let request: Request
        switch name {
        case "notify": request = .notify(try NotifyParams.decode(&r))
        case "dismiss": request = .dismiss(try DismissSelection.decode(&r))
        case "list": request = .list
        case "history": request = .history
        case "restore": request = .restore(id: try r.toastID("id"))
        case "history_clear": request = .historyClear
        case "action":
            request = .action(id: try r.toastID("id"), key: try r.name("key"), activationToken: try r.name("activation_token"))
        case "dnd":
            guard let mode = try r.enumeration("mode", DndMode.self) else { throw r.missing("mode") }
            request = .dnd(mode, until: try r.int("until", in: ModeEnd.range))
        case "mode": request = .mode(try ModeChange.decode(&r))
        case "version": request = .version
        case "reload": request = .reload
        case "settings": request = .settings
        case "subscribe": request = .subscribe(try ToastSelection.decode(&r))
        case "hud": request = .hud(try HudParams.decode(&r))
        case "loading_start":
            request = .loadingStart(key: try r.requiredName("key"), label: try r.string("label"),
                                    detach: try r.bool("detach") ?? false)
        case "loading_stop": request = .loadingStop(key: try r.requiredName("key"))
        case "status": request = .status(follow: try r.bool("follow") ?? false)
        case "hud_stream": request = .hudStream(try HudParams.decode(&r))
        case "osd": request = .osd(try OsdParams.decode(&r))
        case "focus": request = .focus
        case "center": request = .center(try r.enumeration("mode", CenterMode.self) ?? .toggle)
        case "reply":
            let id = try r.toastID("id")
            guard let text = try r.string("text") else { throw r.missing("text") }
            guard !text.isEmpty else { throw r.outOfRange("text", "must not be empty") }
            request = .reply(id: id, text: text)
        default:
            throw ProtocolError(.unknownRequest,
                                "unknown request \"\(name)\" (known: \(names.joined(separator: ", ")))")
        }
        try r.finish()
        return request
    }
}

/// Reads and checks the `v` member every message carries.
func checkVersion(_ r: inout FieldReader) throws(ProtocolError) {
    guard let v = r.value("v") else { throw r.missing("v") }
    guard case .int(let version) = v else { throw r.wrongType("v", "an integer", v) }
    guard version == ProtocolLimits.version else {
        throw ProtocolError(.unsupportedVersion,
                            "protocol version \(version) is not supported (this side speaks \(ProtocolLimits.version))")
    }
}
