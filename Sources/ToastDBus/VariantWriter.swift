import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// A value we send inside a variant: the few shapes mako's and dunst's controllers read.
public enum OutValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case byte(UInt8)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case strings([String])
    /// `a{ss}`: mako's actions, key to title.
    case stringPairs([StringPair])
    /// `aa{sv}`: a list of records.
    case records([[VariantEntry]])

    /// Its D-Bus signature.
    var signature: String {
        switch self {
        case .string: "s"
        case .bool: "b"
        case .byte: "y"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .strings: "as"
        case .stringPairs: "a{ss}"
        case .records: "aa{sv}"
        }
    }
}

/// One `{ss}` entry.
public struct StringPair: Sendable, Equatable {
    public var key: String
    public var value: String
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// One `{sv}` entry.
public struct VariantEntry: Sendable, Equatable {
    public var key: String
    public var value: OutValue
    public init(_ key: String, _ value: OutValue) {
        self.key = key
        self.value = value
    }
}

private func checked(_ r: Int32, _ what: String) throws(MessageError) {
    if r < 0 { throw MessageError(errno: -r, what: what) }
}

extension MessageWriter {
    /// `value` as it is (not in a variant).
    func plain(_ value: OutValue) throws(MessageError) {
        switch value {
        case .string(let text): try string(text)
        case .bool(let flag):
            var v: Int32 = flag ? 1 : 0
            try checked(sd_bus_message_append_basic(m, typeCode("b"), &v), "append b")
        case .byte(var v): try checked(sd_bus_message_append_basic(m, typeCode("y"), &v), "append y")
        case .int32(var v): try checked(sd_bus_message_append_basic(m, typeCode("i"), &v), "append i")
        case .uint32(let v): try uint32(v)
        case .int64(var v): try checked(sd_bus_message_append_basic(m, typeCode("x"), &v), "append x")
        case .strings(let list): try strings(list)
        case .stringPairs(let pairs):
            try checked(sd_bus_message_open_container(m, typeCode("a"), "{ss}"), "open a{ss}")
            for pair in pairs {
                try checked(sd_bus_message_open_container(m, typeCode("e"), "ss"), "open {ss}")
                try string(pair.key)
                try string(pair.value)
                try checked(sd_bus_message_close_container(m), "close {ss}")
            }
            try checked(sd_bus_message_close_container(m), "close a{ss}")
        case .records(let records):
            try checked(sd_bus_message_open_container(m, typeCode("a"), "a{sv}"), "open aa{sv}")
            for record in records { try dictionary(record) }
            try checked(sd_bus_message_close_container(m), "close aa{sv}")
        }
    }

    /// `value` in a variant (`v`).
    func variant(_ value: OutValue) throws(MessageError) {
        try checked(value.signature.withCString { sd_bus_message_open_container(m, typeCode("v"), $0) }, "open v")
        try plain(value)
        try checked(sd_bus_message_close_container(m), "close v")
    }

    /// `a{sv}`.
    func dictionary(_ entries: [VariantEntry]) throws(MessageError) {
        try checked(sd_bus_message_open_container(m, typeCode("a"), "{sv}"), "open a{sv}")
        for entry in entries {
            try checked(sd_bus_message_open_container(m, typeCode("e"), "sv"), "open {sv}")
            try string(entry.key)
            try variant(entry.value)
            try checked(sd_bus_message_close_container(m), "close {sv}")
        }
        try checked(sd_bus_message_close_container(m), "close a{sv}")
    }
}
