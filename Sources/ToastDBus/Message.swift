import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus type code as the `char` sd-bus takes.
@inline(__always) func typeCode(_ c: Unicode.Scalar) -> CChar { CChar(truncatingIfNeeded: c.value) }

/// A read or append on a message failed; `errno` is positive.
struct MessageError: Error {
    var errno: Int32
    var what: String
}

@inline(__always) private func check(_ r: Int32, _ what: @autoclosure () -> String) throws(MessageError) -> Int32 {
    if r < 0 { throw MessageError(errno: -r, what: what()) }
    return r
}

/// Reads arguments of an sd-bus message in order (`*_basic` and container calls only: the variadic
/// `sd_bus_message_read` cannot be called from Swift).
struct MessageReader {
    let m: OpaquePointer

    func uint32() throws(MessageError) -> UInt32 {
        var v: UInt32 = 0
        _ = try check(sd_bus_message_read_basic(m, typeCode("u"), &v), "read u")
        return v
    }

    func int32() throws(MessageError) -> Int32 {
        var v: Int32 = 0
        _ = try check(sd_bus_message_read_basic(m, typeCode("i"), &v), "read i")
        return v
    }

    func bool() throws(MessageError) -> Bool {
        var v: Int32 = 0  // sd-bus reads `b` into a C int.
        _ = try check(sd_bus_message_read_basic(m, typeCode("b"), &v), "read b")
        return v != 0
    }

    func string() throws(MessageError) -> String {
        var p: UnsafePointer<CChar>? = nil
        _ = try check(sd_bus_message_read_basic(m, typeCode("s"), &p), "read s")
        return p.map { String(cString: $0) } ?? ""
    }

    /// `as`.
    func strings() throws(MessageError) -> [String] {
        _ = try check(sd_bus_message_enter_container(m, typeCode("a"), "s"), "enter as")
        var out: [String] = []
        while true {
            var p: UnsafePointer<CChar>? = nil
            let r = try check(sd_bus_message_read_basic(m, typeCode("s"), &p), "read as item")
            if r == 0 { break }
            out.append(p.map { String(cString: $0) } ?? "")
        }
        _ = try check(sd_bus_message_exit_container(m), "exit as")
        return out
    }

    /// `a{sv}`, decoding only the values whose key is in `keys` (the others are skipped unread).
    func variantDictionary(keeping keys: Set<String>) throws(MessageError) -> [String: BusValue] {
        _ = try check(sd_bus_message_enter_container(m, typeCode("a"), "{sv}"), "enter a{sv}")
        var out: [String: BusValue] = [:]
        while try check(sd_bus_message_enter_container(m, typeCode("e"), "sv"), "enter {sv}") > 0 {
            let key = try string()
            if keys.contains(key), case .variant(let inner)? = try value() {
                out[key] = inner
            } else {
                _ = try check(sd_bus_message_skip(m, "v"), "skip v")
            }
            _ = try check(sd_bus_message_exit_container(m), "exit {sv}")
        }
        _ = try check(sd_bus_message_exit_container(m), "exit a{sv}")
        return out
    }

    /// Decodes the next complete value, whatever its type; nil at the end of the current container.
    func value() throws(MessageError) -> BusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>? = nil
        if try check(sd_bus_message_peek_type(m, &type, &contentsPointer), "peek") == 0 { return nil }
        let contents = contentsPointer.map { String(cString: $0) }
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "y"): var v: UInt8 = 0; try basic(type, &v); return .byte(v)
        case UInt8(ascii: "b"): var v: Int32 = 0; try basic(type, &v); return .bool(v != 0)
        case UInt8(ascii: "n"): var v: Int16 = 0; try basic(type, &v); return .int16(v)
        case UInt8(ascii: "q"): var v: UInt16 = 0; try basic(type, &v); return .uint16(v)
        case UInt8(ascii: "i"): var v: Int32 = 0; try basic(type, &v); return .int32(v)
        case UInt8(ascii: "u"): var v: UInt32 = 0; try basic(type, &v); return .uint32(v)
        case UInt8(ascii: "x"): var v: Int64 = 0; try basic(type, &v); return .int64(v)
        case UInt8(ascii: "t"): var v: UInt64 = 0; try basic(type, &v); return .uint64(v)
        case UInt8(ascii: "d"): var v: Double = 0; try basic(type, &v); return .double(v)
        case UInt8(ascii: "h"): var v: Int32 = 0; try basic(type, &v); return .fdIndex(v)
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var p: UnsafePointer<CChar>? = nil
            try basic(type, &p)
            return .string(p.map { String(cString: $0) } ?? "")
        case UInt8(ascii: "a") where contents == "y":
            // Byte arrays (image pixels) are read in one piece, not element by element.
            var p: UnsafeRawPointer? = nil
            var size = 0
            _ = try check(sd_bus_message_read_array(m, typeCode("y"), &p, &size), "read ay")
            guard let p, size > 0 else { return .bytes([]) }
            // A 4K picture is 33 MB: copying it into fresh pages held the loop for tens of milliseconds.
            if size >= MessageBytes.threshold {
                return .messageBytes(MessageBytes(message: m, buffer: UnsafeRawBufferPointer(start: p, count: size)))
            }
            // One memcpy: a generic copy walks a 33 MB picture byte by byte when it is not specialized.
            return .bytes([UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                memcpy(buffer.baseAddress!, p, size)
                count = size
            })
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "e"), UInt8(ascii: "v"):
            _ = try check(sd_bus_message_enter_container(m, type, contents), "enter container")
            var items: [BusValue] = []
            while let item = try value() { items.append(item) }
            _ = try check(sd_bus_message_exit_container(m), "exit container")
            switch UInt8(truncatingIfNeeded: type) {
            case UInt8(ascii: "a"): return .array(items)
            case UInt8(ascii: "r"): return .structure(items)
            case UInt8(ascii: "v"): return items.count == 1 ? .variant(items[0]) : nil
            default: return items.count == 2 ? .dictEntry(items[0], items[1]) : nil
            }
        default:
            throw MessageError(errno: EBADMSG, what: "unknown type code \(type)")
        }
    }

    private func basic<T: BitwiseCopyable>(_ type: CChar, _ v: inout T) throws(MessageError) {
        _ = try check(sd_bus_message_read_basic(m, type, &v), "read basic")
    }
}

/// Appends arguments to an sd-bus message (`append_basic` and container calls only).
struct MessageWriter {
    let m: OpaquePointer

    func uint32(_ v: UInt32) throws(MessageError) {
        var v = v
        _ = try check(sd_bus_message_append_basic(m, typeCode("u"), &v), "append u")
    }

    func string(_ s: String) throws(MessageError) {
        _ = try check(s.withCString { sd_bus_message_append_basic(m, typeCode("s"), $0) }, "append s")
    }

    func strings(_ list: [String]) throws(MessageError) {
        _ = try check(sd_bus_message_open_container(m, typeCode("a"), "s"), "open as")
        for s in list { try string(s) }
        _ = try check(sd_bus_message_close_container(m), "close as")
    }

    /// An empty `a{sv}`.
    func emptyVariantDictionary() throws(MessageError) {
        _ = try check(sd_bus_message_open_container(m, typeCode("a"), "{sv}"), "open a{sv}")
        _ = try check(sd_bus_message_close_container(m), "close a{sv}")
    }
}
