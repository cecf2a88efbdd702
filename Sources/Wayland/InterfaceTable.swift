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
        // One writable copy of all descriptions; separators become NULs in place, so every
        // name and signature is a C string pointing into it.
        let total = descriptions.reduce(0) { $0 + $1.utf8CodeUnitCount + 1 }
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: total + 1)
        var offset = 0
        for d in descriptions {
            (text + offset).update(from: d.utf8Start, count: d.utf8CodeUnitCount)
            offset += d.utf8CodeUnitCount
            text[offset] = UInt8(ascii: "\n")
            offset += 1
        }
        text[total] = 0

        // Pass 1: count records and type slots, then allocate everything.
        var interfaceCount = 0, messageCount = 0, typeCount = 0
        var lineStart = true, isMessage = false, spaces = 0
        for i in 0..<total {
            let c = text[i]
            if lineStart {
                isMessage = c == UInt8(ascii: "M")
                if isMessage { messageCount += 1 } else if c == UInt8(ascii: "I") { interfaceCount += 1 }
                spaces = 0
            }
            lineStart = c == UInt8(ascii: "\n")
            if c == UInt8(ascii: " ") {
                spaces += 1
                if isMessage && spaces >= 3 { typeCount += 1 }  // "M name signature t t ..."
            }
        }
        count = interfaceCount
        let interfaces = UnsafeMutablePointer<wl_interface>.allocate(capacity: max(interfaceCount, 1))
        let messages = UnsafeMutablePointer<wl_message>.allocate(capacity: max(messageCount, 1))
        let types = UnsafeMutablePointer<UnsafePointer<wl_interface>?>.allocate(capacity: typeCount + 1)
        types.initialize(repeating: nil, count: typeCount + 1)

        // Pass 2: cut the text into NUL-terminated fields and fill the tables.
        var cursor = 0
        func field() -> (start: UnsafeMutablePointer<UInt8>, length: Int, endsLine: Bool) {
            let start = cursor
            while text[cursor] != UInt8(ascii: " ") && text[cursor] != UInt8(ascii: "\n") && text[cursor] != 0 {
                cursor += 1
            }
            let endsLine = text[cursor] != UInt8(ascii: " ")
            let length = cursor - start
            if cursor < total { text[cursor] = 0; cursor += 1 }
            return (text + start, length, endsLine)
        }
        func number(_ f: (start: UnsafeMutablePointer<UInt8>, length: Int, endsLine: Bool)) -> Int {
            var n = 0
            for i in 0..<f.length { n = n * 10 + Int(f.start[i] &- UInt8(ascii: "0")) }
            return n
        }
        func cString(_ p: UnsafeMutablePointer<UInt8>) -> UnsafePointer<CChar> {
            UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self)
        }
        var messageCursor = messages, typeCursor = types, interfaceIndex = 0
        while cursor < total {
            let tag = field()
            if tag.length == 0 { continue }  // blank line
            precondition(tag.start[0] == UInt8(ascii: "I") && interfaceIndex < interfaceCount,
                         "malformed generated interface description")
            let name = field().start
            let version = number(field())
            let requestCount = number(field())
            let eventCount = number(field())
            let methods = messageCursor
            for _ in 0..<(requestCount + eventCount) {
                let messageTag = field()
                precondition(messageTag.start[0] == UInt8(ascii: "M"), "malformed generated message description")
                let messageName = field().start
                let signature = field()
                if signature.length == 1 && signature.start[0] == UInt8(ascii: "-") { signature.start[0] = 0 }
                let typeStart = typeCursor
                var more = !signature.endsLine
                while more {
                    let t = field()
                    if !(t.length == 1 && t.start[0] == UInt8(ascii: "-")) {
                        typeCursor.pointee = UnsafePointer(interfaces + number(t))
                    }
                    typeCursor += 1
                    more = !t.endsLine
                }
                messageCursor.initialize(to: wl_message(name: cString(messageName), signature: cString(signature.start),
                                                        types: typeStart))
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
