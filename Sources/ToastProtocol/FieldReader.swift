import ToastVocabulary

/// Reads the members of one JSON object for a decoder, remembering which were read so that `finish()`
/// can reject the ones nobody asked for (`unknown_field`). `context` names the object in messages.
struct FieldReader {
    let object: JSONObject
    private(set) var context: String
    /// An array, not a set: it holds only the keys a decoder asks for, a few, and a Set<String> would
    /// cost the CLI's start a walk of the conformance records (see `KeySet`).
    private var used: [String] = []

    init(_ object: JSONObject, context: String) {
        self.object = object
        self.context = context
    }

    /// The same reader under a new context name (keeps what was read).
    init(_ other: FieldReader, context: String) {
        self = other
        self.context = context
    }

    init(_ value: JSONValue, context: String) throws(ProtocolError) {
        guard case .object(let object) = value else {
            throw ProtocolError(.invalidType, "\(context) must be a JSON object, not \(value.typeName)")
        }
        self.init(object, context: context)
    }

    /// The raw value of `key` (nil when absent; JSON `null` counts as absent), marking it as read.
    mutating func value(_ key: String) -> JSONValue? {
        if !used.contains(key) { used.append(key) }
        guard let v = object[key], v != .null else { return nil }
        return v
    }

    func has(_ key: String) -> Bool {
        if let v = object[key], v != .null { return true }
        return false
    }

    func missing(_ key: String) -> ProtocolError {
        ProtocolError(.missingField, "\(context) needs \"\(key)\"")
    }

    func wrongType(_ key: String, _ expected: String, _ got: JSONValue) -> ProtocolError {
        ProtocolError(.invalidType, "\"\(key)\" in \(context) must be \(expected), not \(got.typeName)")
    }

    func outOfRange(_ key: String, _ detail: String) -> ProtocolError {
        ProtocolError(.outOfRange, "\"\(key)\" in \(context) \(detail)")
    }

    mutating func string(_ key: String) throws(ProtocolError) -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw wrongType(key, "a string", v) }
        return s
    }

    mutating func requiredString(_ key: String) throws(ProtocolError) -> String {
        guard let s = try string(key) else { throw missing(key) }
        return s
    }

    /// A string that must not be empty.
    mutating func name(_ key: String) throws(ProtocolError) -> String? {
        guard let s = try string(key) else { return nil }
        guard !s.isEmpty else { throw outOfRange(key, "must not be empty") }
        return s
    }

    mutating func requiredName(_ key: String) throws(ProtocolError) -> String {
        guard let s = try name(key) else { throw missing(key) }
        return s
    }

    mutating func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard case .bool(let b) = v else { throw wrongType(key, "a boolean", v) }
        return b
    }

    mutating func int(_ key: String, in range: ClosedRange<Int64>) throws(ProtocolError) -> Int64? {
        guard let v = value(key) else { return nil }
        guard case .int(let i) = v else { throw wrongType(key, "an integer", v) }
        guard range.contains(i) else {
            throw outOfRange(key, "must be in \(range.lowerBound)...\(range.upperBound), not \(i)")
        }
        return i
    }

    mutating func requiredInt(_ key: String, in range: ClosedRange<Int64>) throws(ProtocolError) -> Int64 {
        guard let i = try int(key, in: range) else { throw missing(key) }
        return i
    }

    mutating func toastID(_ key: String) throws(ProtocolError) -> NotificationID? {
        try int(key, in: 1...Int64(NotificationID.max)).map { NotificationID($0) }
    }

    mutating func requiredToastID(_ key: String) throws(ProtocolError) -> NotificationID {
        guard let id = try toastID(key) else { throw missing(key) }
        return id
    }

    mutating func array(_ key: String) throws(ProtocolError) -> [JSONValue]? {
        guard let v = value(key) else { return nil }
        guard case .array(let a) = v else { throw wrongType(key, "an array", v) }
        return a
    }

    mutating func object(_ key: String) throws(ProtocolError) -> JSONObject? {
        guard let v = value(key) else { return nil }
        guard case .object(let o) = v else { throw wrongType(key, "an object", v) }
        return o
    }

    /// A value of a string enumeration such as `Urgency`.
    mutating func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type)
        throws(ProtocolError) -> E? where E.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let e = E(rawValue: s) else {
            let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw outOfRange(key, "must be one of \(allowed), not \"\(s)\"")
        }
        return e
    }

    /// Rejects members that were never read.
    func finish() throws(ProtocolError) {
        if let extra = object.keys.first(where: { !used.contains($0) }) {
            throw ProtocolError(.unknownField, "unknown field \"\(extra)\" in \(context)")
        }
    }
}

extension JSONObject {
    /// Sets `key` only when `value` is non-nil (encoders omit absent optionals).
    mutating func set(_ key: String, _ value: JSONValue?) {
        if let value { self[key] = value }
    }
}
