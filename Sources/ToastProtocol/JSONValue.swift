import ToastVocabulary

/// A JSON document as the control protocol sees it.
///
/// Integers are kept exact (`int`); only numbers written with a fraction or an exponent, or integers
/// beyond `Int64`, become `double`. Objects keep their members in document order, so encoding is stable.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The name of this value's JSON type, for error messages ("string", "integer", ...).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON object: members in insertion order, keys unique.
public struct JSONObject: Equatable, Sendable {
    /// The members, in document (or insertion) order.
    public private(set) var members: [(key: String, value: JSONValue)]

    public init() { members = [] }

    /// Builds an object from pairs; a later pair with the same key replaces the earlier value in place.
    public init(_ pairs: [(String, JSONValue)]) {
        members = []
        for (key, value) in pairs { self[key] = value }
    }

    /// Appends a member whose key the caller knows to be new (the parser checks with a `KeySet`).
    mutating func appendNew(_ key: String, _ value: JSONValue) { members.append((key, value)) }

    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    /// The value for `key`; setting keeps the member's position, or appends a new one; nil removes.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case let (i?, v?): members[i].value = v
            case let (i?, nil): members.remove(at: i)
            case let (nil, v?): members.append((key, v))
            case (nil, nil): break
            }
        }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
