import CWayland
import Glibc

// libwayland needs `wl_interface`/`wl_message` tables for every interface it marshals or
// demarshals. Swift cannot emit them as compile-time constants, so the scanner emits one compact
// text description per protocol (a StaticString in read-only data: no allocation, nothing to run
// at load time) and this file turns all of them into C tables once, at first use, in memory that
// is never freed. Every table is allocated before any is filled, so interfaces that refer to each
// other (or to themselves) resolve.
//
// Description format, one record per line, fields separated by one space:
//   I <name> <version> <request count> <event count>
//   M <name> <signature or -> <type>...      (requests first, then events)
// A message has one <type> per wire argument: the table index of its interface, or `-`.
// The signature is libwayland's: since prefix, `?` for nullable, one letter per wire argument
// (`i u f s o n a h`; an untyped new_id is `sun`).

/// The C tables of every generated interface; built once, never freed.
final class InterfaceTable: @unchecked Sendable {
    // @unchecked: the pointers are written only in init and read-only afterwards.

    /// The table for every generated interface, built at first use.
    static let shared = InterfaceTable(InterfaceTable.allDescriptions())

    let interfaces: UnsafeMutablePointer<wl_interface>
    let count: Int

    init(_ descriptions: [StaticString]) {
        let text = DescriptionText(descriptions)
        // Pass 1: count records and type slots, then allocate everything.
        let sizes = text.counts()
        count = sizes.interfaces
        let interfaces = UnsafeMutablePointer<wl_interface>.allocate(capacity: max(sizes.interfaces, 1))
        let messages = UnsafeMutablePointer<wl_message>.allocate(capacity: max(sizes.messages, 1))
        let types = UnsafeMutablePointer<UnsafePointer<wl_interface>?>.allocate(capacity: sizes.types + 1)
        types.initialize(repeating: nil, count: sizes.types + 1)

        // Pass 2: cut the text into NUL-terminated fields and fill the tables.
        var fields = text
        var messageCursor = messages, typeCursor = types, interfaceIndex = 0
        while !fields.atEnd {
            let tag = fields.next()
            if tag.length == 0 { continue }  // blank line
            precondition(tag.start[0] == UInt8(ascii: "I") && interfaceIndex < sizes.interfaces,
                         "malformed generated interface description")
            let name = fields.next().start
            let version = fields.next().number
            let requestCount = fields.next().number
            let eventCount = fields.next().number
            let methods = messageCursor
            for _ in 0..<(requestCount + eventCount) {
                messageCursor.initialize(to: fields.message(types: &typeCursor, interfaces: interfaces))
                messageCursor += 1
            }
            (interfaces + interfaceIndex).initialize(to: wl_interface(
                name: cString(name), version: Int32(version),
                method_count: Int32(requestCount), methods: methods,
                event_count: Int32(eventCount), events: methods + requestCount))
            interfaceIndex += 1
        }
        self.interfaces = interfaces
    }

    subscript(index: Int) -> UnsafePointer<wl_interface> {
        precondition(index >= 0 && index < count, "interface index out of range")
        return UnsafePointer(interfaces + index)
    }

    /// The index of an interface by name (a linear scan: only tests and diagnostics ask).
    func index(named name: String) -> Int? {
        (0..<count).first { name.utf8.elementsEqual(UnsafeRawBufferPointer(start: interfaces[$0].name,
                                                                             count: strlen(interfaces[$0].name))) }
    }
}

/// Read access to the generated interface tables (what libwayland sees), for tests and for code
/// that needs a raw `wl_interface` pointer.
public enum WaylandInterfaces {
    /// Every generated interface name, in table order.
    public static var names: [String] {
        let table = InterfaceTable.shared
        return (0..<table.count).map { String(cString: table[$0].pointee.name) }
    }

    /// The generated `wl_interface` for an interface name, or nil if none was generated.
    public static func interface(named name: String) -> UnsafePointer<wl_interface>? {
        let table = InterfaceTable.shared
        return table.index(named: name).map { table[$0] }
    }
}

private func cString(_ p: UnsafeMutablePointer<UInt8>) -> UnsafePointer<CChar> {
    UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self)
}

/// One writable copy of all descriptions, read field by field: separators become NULs in place, so
/// every name and signature is a C string pointing into it (memory never freed, as the tables').
private struct DescriptionText {
    let text: UnsafeMutablePointer<UInt8>
    let total: Int
    private var cursor = 0

    struct Field {
        let start: UnsafeMutablePointer<UInt8>
        let length: Int
        let endsLine: Bool

        var number: Int {
            var n = 0
            for i in 0..<length { n = n * 10 + Int(start[i] &- UInt8(ascii: "0")) }
            return n
        }

        var isDash: Bool { length == 1 && start[0] == UInt8(ascii: "-") }
    }

    init(_ descriptions: [StaticString]) {
        total = descriptions.reduce(0) { $0 + $1.utf8CodeUnitCount + 1 }
        text = UnsafeMutablePointer<UInt8>.allocate(capacity: total + 1)
        var offset = 0
        for d in descriptions {
            (text + offset).update(from: d.utf8Start, count: d.utf8CodeUnitCount)
            offset += d.utf8CodeUnitCount
            text[offset] = UInt8(ascii: "\n")
            offset += 1
        }
        text[total] = 0
    }

    var atEnd: Bool { cursor >= total }

    /// Interface and message records, and the type slots of the messages ("M name signature t t ...").
    func counts() -> (interfaces: Int, messages: Int, types: Int) {
        var interfaces = 0, messages = 0, types = 0
        var lineStart = true, isMessage = false, spaces = 0
        for i in 0..<total {
            let c = text[i]
            if lineStart {
                isMessage = c == UInt8(ascii: "M")
                if isMessage { messages += 1 } else if c == UInt8(ascii: "I") { interfaces += 1 }
                spaces = 0
            }
            lineStart = c == UInt8(ascii: "\n")
            if c == UInt8(ascii: " ") {
                spaces += 1
                if isMessage && spaces >= 3 { types += 1 }
            }
        }
        return (interfaces, messages, types)
    }

    /// The next field, NUL-terminated in place.
    mutating func next() -> Field {
        let start = cursor
        while text[cursor] != UInt8(ascii: " ") && text[cursor] != UInt8(ascii: "\n") && text[cursor] != 0 {
            cursor += 1
        }
        let endsLine = text[cursor] != UInt8(ascii: " ")
        let length = cursor - start
        if cursor < total { text[cursor] = 0; cursor += 1 }
        return Field(start: text + start, length: length, endsLine: endsLine)
    }

    /// An "M" record as libwayland's message; its argument types go into the next slots of `types`.
    mutating func message(types: inout UnsafeMutablePointer<UnsafePointer<wl_interface>?>,
                          interfaces: UnsafeMutablePointer<wl_interface>) -> wl_message {
        let tag = next()
        precondition(tag.start[0] == UInt8(ascii: "M"), "malformed generated message description")
        let name = next().start
        let signature = next()
        if signature.isDash { signature.start[0] = 0 }
        let first = types
        var more = !signature.endsLine
        while more {
            let t = next()
            if !t.isDash { types.pointee = UnsafePointer(interfaces + t.number) }
            types += 1
            more = !t.endsLine
        }
        return wl_message(name: cString(name), signature: cString(signature.start), types: first)
    }
}
