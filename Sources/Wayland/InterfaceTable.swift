import CWayland

// libwayland needs `wl_interface`/`wl_message` tables for every interface it marshals or
// demarshals. Swift cannot emit them as compile-time constants, so the scanner generates plain
// descriptions and this file turns all of them into C tables once, at first use, in memory that is
// never freed. Every table is allocated before any is filled, so interfaces that refer to each
// other (or to themselves) resolve.

/// A generated description of one request or event.
struct MessageDescription {
    let name: StaticString
    /// libwayland's signature string: optional since-version prefix, `?` for nullable, one
    /// character per wire argument (`i u f s o n a h`; an untyped new_id is `sun`).
    let signature: StaticString
    /// One entry per wire argument: the index of the argument's interface in the table, or -1.
    let types: [Int16]
}

/// A generated description of one interface.
struct InterfaceDescription {
    let name: StaticString
    let version: Int32
    let requests: [MessageDescription]
    let events: [MessageDescription]
}

/// The C tables of every generated interface; built once, never freed.
final class InterfaceTable: @unchecked Sendable {
    // @unchecked: the pointers are written only in init and read-only afterwards.

    /// The table for every generated interface, built at first use.
    static let shared = InterfaceTable(InterfaceTable.allDescriptions())

    let interfaces: UnsafeMutablePointer<wl_interface>
    let count: Int
    let indexByName: [String: Int]

    init(_ descriptions: [InterfaceDescription]) {
        count = descriptions.count
        var messageCount = 0
        var typeCount = 0
        var stringBytes = 0
        for d in descriptions {
            stringBytes += d.name.utf8CodeUnitCount + 1
            for m in d.requests + d.events {
                messageCount += 1
                typeCount += m.types.count
                stringBytes += m.name.utf8CodeUnitCount + m.signature.utf8CodeUnitCount + 2
            }
        }
        // Allocate everything first, so any interface can point at any other.
        let interfaces = UnsafeMutablePointer<wl_interface>.allocate(capacity: max(count, 1))
        let messages = UnsafeMutablePointer<wl_message>.allocate(capacity: max(messageCount, 1))
        let types = UnsafeMutablePointer<UnsafePointer<wl_interface>?>.allocate(capacity: typeCount + 1)
        let strings = UnsafeMutablePointer<CChar>.allocate(capacity: max(stringBytes, 1))
        types.initialize(repeating: nil, count: typeCount + 1)

        var stringCursor = strings
        func copy(_ s: StaticString) -> UnsafePointer<CChar> {
            let start = stringCursor
            s.withUTF8Buffer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    _ = UnsafeMutableBufferPointer(start: stringCursor, count: chars.count).initialize(from: chars)
                }
            }
            stringCursor[s.utf8CodeUnitCount] = 0
            stringCursor += s.utf8CodeUnitCount + 1
            return UnsafePointer(start)
        }
        var messageCursor = messages
        var typeCursor = types
        func fill(_ list: [MessageDescription]) -> UnsafePointer<wl_message> {
            let start = messageCursor
            for m in list {
                let typeStart = typeCursor
                for t in m.types {
                    typeCursor.pointee = t >= 0 ? UnsafePointer(interfaces + Int(t)) : nil
                    typeCursor += 1
                }
                messageCursor.initialize(to: wl_message(name: copy(m.name), signature: copy(m.signature),
                                                        types: typeStart))
                messageCursor += 1
            }
            return UnsafePointer(start)
        }
        var names: [String: Int] = [:]
        names.reserveCapacity(count)
        for (i, d) in descriptions.enumerated() {
            let name = copy(d.name)
            let methods = fill(d.requests)
            let events = fill(d.events)
            (interfaces + i).initialize(to: wl_interface(
                name: name, version: d.version,
                method_count: Int32(d.requests.count), methods: methods,
                event_count: Int32(d.events.count), events: events))
            names[d.name.description] = i
        }
        self.interfaces = interfaces
        indexByName = names
    }

    subscript(index: Int) -> UnsafePointer<wl_interface> {
        precondition(index >= 0 && index < count, "interface index out of range")
        return UnsafePointer(interfaces + index)
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
        return table.indexByName[name].map { table[$0] }
    }
}
