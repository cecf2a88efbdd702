/// A decoded D-Bus value (the content of a hint's variant).
///
/// Byte arrays stay compact (`bytes`); everything else nests.
public indirect enum BusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16), uint16(UInt16)
    case int32(Int32), uint32(UInt32)
    case int64(Int64), uint64(UInt64)
    case double(Double)
    /// `s`, `o` and `g`.
    case string(String)
    /// A Unix fd index (`h`); never used as a descriptor.
    case fdIndex(Int32)
    /// `ay`.
    case bytes([UInt8])
    case array([BusValue])
    case dictEntry(BusValue, BusValue)
    case structure([BusValue])
    case variant(BusValue)

    /// Any integer type, or a byte, as Int (lenient: apps send urgency as `y`, `i` or `u`).
    public var integer: Int? {
        switch self {
        case .byte(let v): return Int(v)
        case .int16(let v): return Int(v)
        case .uint16(let v): return Int(v)
        case .int32(let v): return Int(v)
        case .uint32(let v): return Int(v)
        case .int64(let v): return Int(v)
        case .uint64(let v): return v <= UInt64(Int.max) ? Int(v) : nil
        case .variant(let v): return v.integer
        default: return nil
        }
    }

    /// A boolean, or an integer read as nonzero (some apps send `transient` as `i`).
    public var boolean: Bool? {
        if case .bool(let b) = self { return b }
        if case .variant(let v) = self { return v.boolean }
        return integer.map { $0 != 0 }
    }

    /// The value inside any nesting of variants.
    public var unwrapped: BusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch self {
        case .string(let s): return s
        case .variant(let v): return v.string
        default: return nil
        }
    }
}
