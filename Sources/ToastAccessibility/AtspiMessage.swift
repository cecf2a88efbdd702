import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Appends AT-SPI's values to an sd-bus message. A failed append leaves `failed` set (the message is
/// then not sent); each call after a failure does nothing.
struct AtspiWriter {
    let m: OpaquePointer
    private(set) var failed = false

    init(_ m: OpaquePointer) { self.m = m }

    private mutating func check(_ r: Int32) { if r < 0 { failed = true } }

    private mutating func basic<T: BitwiseCopyable>(_ type: Character, _ value: T) {
        guard !failed else { return }
        var value = value
        check(sd_bus_message_append_basic(m, CChar(type.asciiValue!), &value))
    }

    mutating func int32(_ v: Int32) { basic("i", v) }
    mutating func uint32(_ v: UInt32) { basic("u", v) }
    mutating func bool(_ v: Bool) { basic("b", Int32(v ? 1 : 0)) }
    mutating func double(_ v: Double) { basic("d", v) }

    mutating func string(_ s: String, type: Character = "s") {
        guard !failed else { return }
        check(s.withCString { sd_bus_message_append_basic(m, CChar(type.asciiValue!), $0) })
    }

    mutating func objectPath(_ s: String) { string(s, type: "o") }

    mutating func open(_ type: Character, _ contents: String) {
        guard !failed else { return }
        check(sd_bus_message_open_container(m, CChar(type.asciiValue!), contents))
    }

    mutating func close() {
        guard !failed else { return }
        check(sd_bus_message_close_container(m))
    }

    /// An object reference, `(so)`: a bus name and a path.
    mutating func reference(_ name: String, _ path: String) {
        open("r", "so"); string(name); objectPath(path); close()
    }

    mutating func strings(_ list: [String]) {
        open("a", "s"); for s in list { string(s) }; close()
    }

    /// An empty array of `contents`.
    mutating func emptyArray(_ contents: String) { open("a", contents); close() }
}

/// Reads the few arguments AT-SPI's calls carry.
enum AtspiReader {
    static func int32(_ m: OpaquePointer) -> Int32? {
        var v: Int32 = 0
        return sd_bus_message_read_basic(m, CChar(UInt8(ascii: "i")), &v) > 0 ? v : nil
    }

    static func string(_ m: OpaquePointer) -> String? {
        var p: UnsafePointer<CChar>? = nil
        guard sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &p) > 0, let p else { return nil }
        return String(cString: p)
    }

    /// `(so)`.
    static func reference(_ m: OpaquePointer) -> (name: String, path: String)? {
        guard sd_bus_message_enter_container(m, CChar(UInt8(ascii: "r")), "so") > 0,
              let name = string(m) else { return nil }
        var p: UnsafePointer<CChar>? = nil
        guard sd_bus_message_read_basic(m, CChar(UInt8(ascii: "o")), &p) > 0, let p else { return nil }
        _ = sd_bus_message_exit_container(m)
        return (name, String(cString: p))
    }
}
