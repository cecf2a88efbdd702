import CSystemd

/// The bytes of a large `ay` where sd-bus received them: the message stays referenced while this
/// object lives, and is let go of when it goes (which must be on the thread that runs the bus).
public final class MessageBytes: @unchecked Sendable, Equatable {
    /// Arrays at least this long are not copied out of their message.
    public static let threshold = 1 << 20

    private let message: OpaquePointer
    /// Valid while this object lives.
    public let buffer: UnsafeRawBufferPointer

    init(message: OpaquePointer, buffer: UnsafeRawBufferPointer) {
        self.message = sd_bus_message_ref(message)
        self.buffer = buffer
    }

    deinit { sd_bus_message_unref(message) }

    public static func == (a: MessageBytes, b: MessageBytes) -> Bool { a === b }
}

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
    /// A large `ay`, left in the message it came in (see `MessageBytes`).
    case messageBytes(MessageBytes)
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
