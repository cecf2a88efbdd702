import ToastVocabulary

/// A named, typed hint (freedesktop notification hints: `urgency`, `category`, `transient`, `x`, …).
public struct Hint: Equatable, Sendable {
    public var name: String
    public var value: Value

    /// A typed hint value, as `notify-send -h TYPE:NAME:VALUE` gives it.
    public enum Value: Equatable, Sendable {
        case int(Int32)
        case double(Double)
        case string(String)
        case byte(UInt8)
        case boolean(Bool)

        /// The type name used on the command line and on the wire.
        public var typeName: String {
            switch self {
            case .int: "int"
            case .double: "double"
            case .string: "string"
            case .byte: "byte"
            case .boolean: "boolean"
            }
        }
    }

    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }

    /// Parses notify-send's `TYPE:NAME:VALUE` (`int:x:5`, `string:foo:bar`, `boolean:transient:true`,
    /// `byte:urgency:2`, `double:y:0.5`). The value may itself contain colons. Booleans accept
    /// `true`/`false`/`1`/`0` in any case. Errors use codes `invalid_type` (unknown TYPE, malformed
    /// spec, a value that does not parse as TYPE) and `out_of_range` (an int or byte beyond its type).
    public static func parse(_ spec: String) -> Result<Hint, ProtocolError> {
        let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .failure(ProtocolError(.invalidType, "hint \"\(spec)\" is not TYPE:NAME:VALUE"))
        }
        let type = parts[0].lowercased(), name = String(parts[1]), text = String(parts[2])
        guard !name.isEmpty else {
            return .failure(ProtocolError(.outOfRange, "hint \"\(spec)\" has an empty name"))
        }
        func bad(_ what: String) -> Result<Hint, ProtocolError> {
            .failure(ProtocolError(.invalidType, "hint \"\(spec)\": \"\(text)\" is not \(what)"))
        }
        let value: Value
        switch type {
        case "int":
            guard let i = Int64(text) else { return bad("an integer") }
            guard let i32 = Int32(exactly: i) else {
                return .failure(ProtocolError(.outOfRange, "hint \"\(spec)\": \(i) does not fit in int32"))
            }
            value = .int(i32)
        case "byte":
            guard let i = Int64(text) else { return bad("an integer") }
            guard let b = UInt8(exactly: i) else {
                return .failure(ProtocolError(.outOfRange, "hint \"\(spec)\": \(i) is not in 0...255"))
            }
            value = .byte(b)
        case "double":
            guard let d = Double(text), d.isFinite else { return bad("a number") }
            value = .double(d)
        case "string":
            value = .string(text)
        case "boolean", "bool":
            switch text.lowercased() {
            case "true", "1": value = .boolean(true)
            case "false", "0": value = .boolean(false)
            default: return bad("true or false")
            }
        default:
            return .failure(ProtocolError(
                .invalidType, "hint \"\(spec)\": unknown type \"\(type)\" (int, double, string, byte, boolean)"))
        }
        return .success(Hint(name: name, value: value))
    }

    /// Wire form of the value: a one-member object `{"TYPE": value}`.
    var json: JSONValue {
        let v: JSONValue = switch value {
        case .int(let i): .int(Int64(i))
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .byte(let b): .int(Int64(b))
        case .boolean(let b): .bool(b)
        }
        return .object(JSONObject([(value.typeName, v)]))
    }

    static func decode(name: String, _ json: JSONValue) throws(ProtocolError) -> Hint {
        let context = "hint \"\(name)\""
        guard case .object(let o) = json, o.count == 1, let (type, v) = o.members.first else {
            throw ProtocolError(.invalidType, "\(context) must be an object with one member {\"TYPE\": value}")
        }
        var r = FieldReader(o, context: context)
        let value: Value
        switch type {
        case "int": value = .int(Int32(try r.requiredInt(type, in: Int64(Int32.min)...Int64(Int32.max))))
        case "byte": value = .byte(UInt8(try r.requiredInt(type, in: 0...255)))
        case "string": value = .string(try r.requiredString(type))
        case "boolean":
            guard let b = try r.bool(type) else { throw r.missing(type) }
            value = .boolean(b)
        case "double":
            switch v {
            case .double(let d): value = .double(d)
            case .int(let i): value = .double(Double(i))
            default: throw r.wrongType(type, "a number", v)
            }
        default:
            throw ProtocolError(.invalidType, "\(context) has unknown type \"\(type)\" (int, double, string, byte, boolean)")
        }
        return Hint(name: name, value: value)
    }
}

/// notify-send's `-A` syntax and the wire form of an action.
extension NotificationAction {
    /// Parses notify-send's `-A [NAME=]Text`. Without `NAME=`, the key is the action's position
    /// among the `-A` options (`index`, from 0), as notify-send does.
    public static func parse(_ spec: String, index: Int) -> NotificationAction {
        if let eq = spec.firstIndex(of: "="), eq != spec.startIndex {
            return NotificationAction(key: String(spec[..<eq]), label: String(spec[spec.index(after: eq)...]))
        }
        return NotificationAction(key: String(index), label: spec)
    }

    var json: JSONValue { .object(JSONObject([("key", .string(key)), ("label", .string(label))])) }

    static func decode(_ json: JSONValue, context: String) throws(ProtocolError) -> NotificationAction {
        var r = try FieldReader(json, context: context)
        let action = NotificationAction(key: try r.requiredName("key"), label: try r.requiredString("label"))
        try r.finish()
        return action
    }
}

/// Everything a `notify` request carries (all of notify-send's flags plus tag, value and wait).
public struct NotifyParams: Equatable, Sendable {
    /// The title line. Required (may be empty).
    public var summary: String
    /// The body text (Pango markup subset), nil for none.
    public var body: String?
    /// nil: the daemon's default (normal), or the `urgency` hint.
    public var urgency: Urgency?
    /// Milliseconds until it expires: -1 the daemon's default, 0 never; at most Int32.max.
    public var expireMs: Int32
    /// An icon name or absolute path.
    public var icon: String?
    public var appName: String?
    public var category: String?
    /// Extra typed hints; names are unique.
    public var hints: [Hint]
    /// Buttons, in order; keys are unique.
    public var actions: [NotificationAction]
    /// Replace this toast (in place) instead of adding one.
    public var replaceID: NotificationID?
    /// Replace the toast that has the same tag, in place (like a `x-canonical-private-synchronous` hint).
    public var tag: String?
    /// A progress bar value, 0...100.
    public var value: Int?
    /// Do not keep it in history.
    public var transient: Bool
    /// Subscribe this connection to this toast's events (closed, action).
    public var wait: Bool
    /// Shown as an alert (`toast alert`): a centred dialog that takes the keyboard until answered,
    /// one at a time, instead of a toast; kept out of the history.
    public var alert = false

    public init(summary: String, body: String? = nil, urgency: Urgency? = nil, expireMs: Int32 = -1,
                icon: String? = nil, appName: String? = nil, category: String? = nil,
                hints: [Hint] = [], actions: [NotificationAction] = [], replaceID: NotificationID? = nil,
                tag: String? = nil, value: Int? = nil, transient: Bool = false, wait: Bool = false) {
        self.summary = summary
        self.body = body
        self.urgency = urgency
        self.expireMs = expireMs
        self.icon = icon
        self.appName = appName
        self.category = category
        self.hints = hints
        self.actions = actions
        self.replaceID = replaceID
        self.tag = tag
        self.value = value
        self.transient = transient
        self.wait = wait
    }

    /// The allowed range of `value` (a percentage).
    public static let valueRange = 0...100

    func encode(into o: inout JSONObject) {
        o["summary"] = .string(summary)
        o.set("body", body.map { .string($0) })
        o.set("urgency", urgency.map { .string($0.rawValue) })
        if expireMs != -1 { o["expire_ms"] = .int(Int64(expireMs)) }
        o.set("icon", icon.map { .string($0) })
        o.set("app_name", appName.map { .string($0) })
        o.set("category", category.map { .string($0) })
        if !hints.isEmpty { o["hints"] = .object(JSONObject(hints.map { ($0.name, $0.json) })) }
        if !actions.isEmpty { o["actions"] = .array(actions.map(\.json)) }
        o.set("replace_id", replaceID.map { .int(Int64($0)) })
        o.set("tag", tag.map { .string($0) })
        o.set("value", value.map { .int(Int64($0)) })
        if transient { o["transient"] = .bool(true) }
        if wait { o["wait"] = .bool(true) }
        if alert { o["alert"] = .bool(true) }
    }

    static func decode(_ r: inout FieldReader) throws(ProtocolError) -> NotifyParams {
        var p = NotifyParams(summary: try r.requiredString("summary"))
        p.body = try r.string("body")
        p.urgency = try r.enumeration("urgency", Urgency.self)
        p.expireMs = Int32(try r.int("expire_ms", in: -1...Int64(Int32.max)) ?? -1)
        p.icon = try r.string("icon")
        p.appName = try r.string("app_name")
        p.category = try r.string("category")
        if let hints = try r.object("hints") {
            for (name, v) in hints.members { p.hints.append(try Hint.decode(name: name, v)) }
        }
        if let actions = try r.array("actions") {
            var keys = Set<String>()
            for (i, a) in actions.enumerated() {
                let action = try NotificationAction.decode(a, context: "action \(i)")
                guard keys.insert(action.key).inserted else {
                    throw r.outOfRange("actions", "has the key \"\(action.key)\" twice")
                }
                p.actions.append(action)
            }
        }
        p.replaceID = try r.toastID("replace_id")
        p.tag = try r.name("tag")
        p.value = try r.int("value", in: Int64(valueRange.lowerBound)...Int64(valueRange.upperBound)).map { Int($0) }
        p.transient = try r.bool("transient") ?? false
        p.wait = try r.bool("wait") ?? false
        p.alert = try r.bool("alert") ?? false
        return p
    }
}
