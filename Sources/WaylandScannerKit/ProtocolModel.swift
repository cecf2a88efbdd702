// The Wayland protocol description as the scanner sees it, read from the XML tree.

/// One `<protocol>` file.
public struct ProtocolDescription: Equatable {
    public var name: String
    /// The file it came from, for error messages.
    public var file: String
    public var interfaces: [Interface]
}

/// One `<interface>`.
public struct Interface: Equatable {
    public var name: String
    public var version: UInt32
    public var summary: String?
    public var requests: [Message]
    public var events: [Message]
    public var enums: [EnumDescription]
    public var line: Int
}

/// One `<request>` or `<event>`.
public struct Message: Equatable {
    public var name: String
    public var isDestructor: Bool
    public var since: UInt32
    public var summary: String?
    public var arguments: [Argument]
}

/// The wire type of an argument.
public enum ArgumentType: String, Equatable, CaseIterable {
    case int, uint, fixed, string, object
    case newID = "new_id"
    case array, fd
}

/// One `<arg>`.
public struct Argument: Equatable {
    public var name: String
    public var type: ArgumentType
    /// The interface of an object or new_id argument, nil when untyped.
    public var interface: String?
    public var allowNull: Bool
    /// `enum="name"` or `enum="interface.name"`.
    public var enumName: String?
    public var summary: String?
}

/// One `<enum>`.
public struct EnumDescription: Equatable {
    public var name: String
    public var isBitfield: Bool
    public var summary: String?
    public var entries: [Entry]

    public struct Entry: Equatable {
        public var name: String
        public var value: UInt32
        public var summary: String?
        public var since: UInt32
    }
}

/// An error in a protocol file, with where it was found.
public struct ProtocolError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: error: message`, the form compilers use so build logs link to the spot.
    public var description: String {
        if let line { return "\(file):\(line): error: \(message)" }
        return "\(file): error: \(message)"
    }
}

extension ProtocolDescription {
    /// Reads a protocol description from XML bytes; `file` names the source in errors.
    public init(xml: [UInt8], file: String) throws(ProtocolError) {
        let root: XMLElement
        do {
            root = try parseXML(xml)
        } catch {
            throw ProtocolError(file: file, line: error.line, message: "malformed XML: \(error.message)")
        }
        try self.init(root: root, file: file)
    }

    init(root: XMLElement, file: String) throws(ProtocolError) {
        let reader = ElementReader(file: file)
        guard root.name == "protocol" else { throw reader.fail(root, "the root element is <\(root.name)>, expected <protocol>") }
        self.name = try reader.identifier(root)
        self.file = file
        self.interfaces = []
        var seen: [String: Int] = [:]
        for element in root.children(named: "interface") {
            let interfaceName = try reader.identifier(element)
            if let first = seen[interfaceName] {
                throw reader.fail(element, "interface '\(interfaceName)' is defined twice (first on line \(first))")
            }
            seen[interfaceName] = element.line
            let version = try reader.number(element, "version", default: nil)
            guard version >= 1 else { throw reader.fail(element, "interface '\(interfaceName)' has version 0") }
            interfaces.append(Interface(
                name: interfaceName, version: version, summary: reader.summary(element),
                requests: try reader.messages("request", of: element, named: interfaceName, version: version),
                events: try reader.messages("event", of: element, named: interfaceName, version: version),
                enums: try reader.enums(of: element), line: element.line))
        }
    }
}

/// Reads and checks the parts of one protocol file's elements; every error names the file and line.
private struct ElementReader {
    let file: String

    func fail(_ element: XMLElement, _ message: String) -> ProtocolError {
        ProtocolError(file: file, line: element.line, message: message)
    }

    func required(_ element: XMLElement, _ key: String) throws(ProtocolError) -> String {
        guard let value = element.attributes[key], !value.isEmpty else {
            throw fail(element, "<\(element.name)> needs a '\(key)' attribute")
        }
        return value
    }

    func identifier(_ element: XMLElement) throws(ProtocolError) -> String {
        let name = try required(element, "name")
        guard name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39)
                || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }) else {
            throw fail(element, "'\(name)' is not a valid name (letters, digits and '_' only)")
        }
        return name
    }

    func number(_ element: XMLElement, _ key: String, default value: UInt32?) throws(ProtocolError) -> UInt32 {
        guard let text = element.attributes[key] else {
            if let value { return value }
            throw fail(element, "<\(element.name)> needs a '\(key)' attribute")
        }
        let parsed = text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16)
            : text.hasPrefix("-") ? Int32(text).map { UInt32(bitPattern: $0) } : UInt32(text)
        guard let parsed else { throw fail(element, "'\(text)' is not a number (\(key))") }
        return parsed
    }

    func summary(_ element: XMLElement) -> String? {
        if let s = element.attributes["summary"] { return s }
        return element.child(named: "description")?.attributes["summary"]
    }

    /// The `<request>`s or `<event>`s (`tag`) of one interface.
    func messages(_ tag: String, of element: XMLElement, named interfaceName: String,
                  version: UInt32) throws(ProtocolError) -> [Message] {
        var result: [Message] = []
        var names = Set<String>()
        for m in element.children(named: tag) {
            let name = try identifier(m)
            guard names.insert(name).inserted else { throw fail(m, "\(tag) '\(name)' is defined twice in '\(interfaceName)'") }
            let since = try number(m, "since", default: 1)
            guard since >= 1, since <= version else {
                throw fail(m, "\(tag) '\(name)' has since=\(since), outside 1...\(version)")
            }
            var arguments: [Argument] = []
            for a in m.children(named: "arg") { arguments.append(try argument(a)) }
            if tag == "event", arguments.contains(where: { $0.type == .newID && $0.interface == nil }) {
                throw fail(m, "event '\(name)' has an untyped new_id")
            }
            if arguments.filter({ $0.type == .newID }).count > 1, tag == "request" {
                throw fail(m, "request '\(name)' creates more than one object")
            }
            let type = m.attributes["type"]
            if let type, type != "destructor" { throw fail(m, "unknown message type '\(type)'") }
            result.append(Message(name: name, isDestructor: type == "destructor", since: since,
                                  summary: summary(m), arguments: arguments))
        }
        return result
    }

    func argument(_ a: XMLElement) throws(ProtocolError) -> Argument {
        let typeText = try required(a, "type")
        guard let type = ArgumentType(rawValue: typeText) else {
            throw fail(a, "unknown argument type '\(typeText)'")
        }
        let allowNull = a.attributes["allow-null"] == "true"
        if allowNull, ![.object, .newID, .string, .array].contains(type) {
            throw fail(a, "allow-null on a '\(typeText)' argument")
        }
        if a.attributes["interface"] != nil, type != .object, type != .newID {
            throw fail(a, "interface given on a '\(typeText)' argument")
        }
        return Argument(name: try identifier(a), type: type, interface: a.attributes["interface"], allowNull: allowNull,
                        enumName: a.attributes["enum"], summary: a.attributes["summary"])
    }

    func enums(of element: XMLElement) throws(ProtocolError) -> [EnumDescription] {
        var enums: [EnumDescription] = []
        for e in element.children(named: "enum") {
            var entries: [EnumDescription.Entry] = []
            for entry in e.children(named: "entry") {
                entries.append(.init(name: try required(entry, "name"), value: try number(entry, "value", default: nil),
                                     summary: summary(entry), since: try number(entry, "since", default: 1)))
            }
            enums.append(EnumDescription(name: try identifier(e), isBitfield: e.attributes["bitfield"] == "true",
                                         summary: summary(e), entries: entries))
        }
        return enums
    }
}

/// Checks a set of protocols together: no interface defined twice across files, and every
/// interface an argument names exists somewhere in the set.
public func validate(_ protocols: [ProtocolDescription]) throws(ProtocolError) {
    var definedIn: [String: (file: String, line: Int)] = [:]
    for p in protocols {
        for i in p.interfaces {
            if let first = definedIn[i.name] {
                throw ProtocolError(file: p.file, line: i.line,
                                    message: "interface '\(i.name)' is already defined in \(first.file):\(first.line)")
            }
            definedIn[i.name] = (p.file, i.line)
        }
    }
    for p in protocols {
        for i in p.interfaces {
            for m in i.requests + i.events {
                for a in m.arguments {
                    if let name = a.interface, definedIn[name] == nil {
                        throw ProtocolError(file: p.file, line: i.line,
                                            message: "'\(i.name).\(m.name)' refers to unknown interface '\(name)'")
                    }
                }
            }
        }
    }
}
