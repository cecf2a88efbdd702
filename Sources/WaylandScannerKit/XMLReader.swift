// A small stdlib-only XML reader: enough for Wayland protocol files (elements, attributes, text,
// comments, CDATA, processing instructions, the five named entities and numeric references).
// It builds a tree; every element remembers the line it starts on so errors can point at it.

/// One XML element with its attributes, child elements and concatenated text content.
public final class XMLElement {
    public let name: String
    public let attributes: [String: String]
    public let line: Int
    public internal(set) var children: [XMLElement] = []
    public internal(set) var text: String = ""

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The child elements with the given name, in document order.
    public func children(named name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The first child element with the given name.
    public func child(named name: String) -> XMLElement? { children.first { $0.name == name } }
}

/// A syntax error with the 1-based line where it was found.
public struct XMLSyntaxError: Error, Equatable {
    public let line: Int
    public let message: String
}

/// Parses a whole document and returns its root element.
public func parseXML(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLElement {
    var reader = XMLReader(bytes: bytes)
    return try reader.parseDocument()
}

/// Parses a whole document given as a string.
public func parseXML(_ text: String) throws(XMLSyntaxError) -> XMLElement {
    try parseXML(Array(text.utf8))
}

struct XMLReader {
    let bytes: [UInt8]
    var index = 0
    var line = 1

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(XMLSyntaxError) -> XMLElement {
        var root: XMLElement?
        var stack: [XMLElement] = []
        var text: [UInt8] = []
        while index < bytes.count {
            let c = bytes[index]
            if c != UInt8(ascii: "<") {
                if c == UInt8(ascii: "&") {
                    text.append(contentsOf: try readEntity())
                } else {
                    advance()
                    text.append(c)
                }
                continue
            }
            if starts(with: "<!--") {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<![CDATA[") {
                index += 9
                let start = index
                try skip(past: "]]>", what: "CDATA section")
                text.append(contentsOf: bytes[start..<(index - 3)])
            } else if starts(with: "<?") || starts(with: "<!") {
                try skip(past: ">", what: "declaration")
            } else if starts(with: "</") {
                let closeLine = line
                index += 2
                let name = try readName()
                skipSpace()
                try expect(">")
                guard let open = stack.popLast() else {
                    throw XMLSyntaxError(line: closeLine, message: "closing tag </\(name)> without an opening tag")
                }
                guard open.name == name else {
                    throw XMLSyntaxError(line: closeLine,
                                         message: "closing tag </\(name)> does not match <\(open.name)> opened on line \(open.line)")
                }
                open.text += String(decoding: text, as: UTF8.self)
                text.removeAll(keepingCapacity: true)
            } else {
                let openLine = line
                index += 1
                let name = try readName()
                var attributes: [String: String] = [:]
                var selfClosing = false
                while true {
                    skipSpace()
                    guard index < bytes.count else {
                        throw XMLSyntaxError(line: openLine, message: "unterminated tag <\(name)>")
                    }
                    if bytes[index] == UInt8(ascii: ">") { advance(); break }
                    if starts(with: "/>") { index += 2; selfClosing = true; break }
                    let attributeLine = line
                    let key = try readName()
                    skipSpace()
                    try expect("=")
                    skipSpace()
                    let value = try readQuoted()
                    if attributes[key] != nil {
                        throw XMLSyntaxError(line: attributeLine, message: "attribute '\(key)' repeated in <\(name)>")
                    }
                    attributes[key] = value
                }
                if let parent = stack.last {
                    parent.text += String(decoding: text, as: UTF8.self)
                } else if root != nil {
                    throw XMLSyntaxError(line: openLine, message: "more than one root element")
                }
                text.removeAll(keepingCapacity: true)
                let element = XMLElement(name: name, attributes: attributes, line: openLine)
                if let parent = stack.last { parent.children.append(element) } else { root = element }
                if !selfClosing { stack.append(element) }
            }
        }
        if let open = stack.last {
            throw XMLSyntaxError(line: line, message: "end of file inside <\(open.name)> opened on line \(open.line)")
        }
        guard let root else { throw XMLSyntaxError(line: line, message: "no root element") }
        return root
    }

    // MARK: Lexing

    mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") { line += 1 }
        index += 1
    }

    func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { buffer in
            for i in 0..<count where bytes[index + i] != buffer[i] { return false }
            return true
        }
    }

    mutating func skip(past terminator: StaticString, what: String) throws(XMLSyntaxError) {
        let startLine = line
        while index < bytes.count {
            if starts(with: terminator) { index += terminator.utf8CodeUnitCount; return }
            advance()
        }
        throw XMLSyntaxError(line: startLine, message: "unterminated \(what)")
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { advance() }
    }

    mutating func expect(_ character: Character) throws(XMLSyntaxError) {
        guard index < bytes.count, bytes[index] == character.asciiValue! else {
            throw XMLSyntaxError(line: line, message: "expected '\(character)'")
        }
        advance()
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
             UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    mutating func readName() throws(XMLSyntaxError) -> String {
        let start = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        guard index > start else { throw XMLSyntaxError(line: line, message: "expected a name") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func readQuoted() throws(XMLSyntaxError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw XMLSyntaxError(line: line, message: "expected a quoted attribute value")
        }
        let quote = bytes[index]
        let startLine = line
        advance()
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != quote {
            if bytes[index] == UInt8(ascii: "<") {
                throw XMLSyntaxError(line: line, message: "'<' inside an attribute value")
            }
            if bytes[index] == UInt8(ascii: "&") {
                value.append(contentsOf: try readEntity())
            } else {
                value.append(bytes[index])
                advance()
            }
        }
        guard index < bytes.count else { throw XMLSyntaxError(line: startLine, message: "unterminated attribute value") }
        advance()
        return String(decoding: value, as: UTF8.self)
    }

    /// Reads `&name;` or `&#N;` / `&#xN;` at the cursor and returns its UTF-8 bytes.
    mutating func readEntity() throws(XMLSyntaxError) -> [UInt8] {
        let startLine = line
        var end = index + 1
        while end < bytes.count, end - index < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw XMLSyntaxError(line: startLine, message: "'&' not followed by an entity reference")
        }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var scalarValue: UInt32?
            if name.hasPrefix("#x") { scalarValue = UInt32(name.dropFirst(2), radix: 16) }
            else if name.hasPrefix("#") { scalarValue = UInt32(name.dropFirst(1)) }
            guard let scalarValue, let scalar = Unicode.Scalar(scalarValue) else {
                throw XMLSyntaxError(line: startLine, message: "unknown entity '&\(name);'")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }
}
