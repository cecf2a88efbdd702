/// dunst's `format` as toastd's: the same `%a %s %b %%` and `\n`; what toastd has no field for
/// (`%i %I` the icon, `%p %n` the progress value) is left out and named; any other `%x` dunst prints as
/// it is, so toastd gets `%%x`.
struct FormatTranslation: Equatable {
    var format: String
    /// The specifiers left out, in order of first use (`%p`, `%i`...).
    var dropped: [String]
}

enum DunstFormat {
    static func translate(_ format: String) -> FormatTranslation {
        var out = ""
        var dropped: [String] = []
        var characters = format.makeIterator()
        while let character = characters.next() {
            guard character == "%" else {
                out.append(character)
                continue
            }
            guard let specifier = characters.next() else {
                out += "%%"  // a trailing % is printed by dunst
                break
            }
            switch specifier {
            case "a", "s", "b", "%": out += "%" + String(specifier)
            case "i", "I", "p", "n":
                if !dropped.contains("%\(specifier)") { dropped.append("%\(specifier)") }
            default: out += "%%" + String(specifier)
            }
        }
        return FormatTranslation(format: out, dropped: dropped)
    }
}

/// A conservative check that a format's own markup is what Pango's parser accepts (toastd refuses a
/// format whose markup does not hold together): elements of Pango's markup without attributes, `span`
/// with colour attributes, the five XML entities and character references. Anything else is reported
/// rather than written, so the output never holds a format toastd would refuse.
enum MarkupCheck {
    static let plainTags: Set<String> = ["b", "big", "i", "s", "sub", "sup", "small", "tt", "u"]
    static let colourAttributes: Set<String> = ["foreground", "background", "fgcolor", "bgcolor", "color"]

    /// Nil when `format` (after `\n` became a newline) holds together; else why not.
    static func problem(_ format: String) -> String? {
        var open: [String] = []
        var scalars = Array(format.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "<":
                guard let close = scalars.firstIndex(of: ">") else { return "a '<' that opens no tag (write &lt;)" }
                let tag = String(String.UnicodeScalarView(scalars[scalars.startIndex..<close]))
                scalars = scalars[(close + 1)...]
                if tag.hasPrefix("/") {
                    let name = String(tag.dropFirst())
                    guard open.last == name else { return "'</\(Text.printable(name))>' closes no open tag" }
                    open.removeLast()
                } else if let problem = opening(tag, open: &open) {
                    return problem
                }
            case "&":
                guard let end = scalars.prefix(12).firstIndex(of: ";") else { return "a '&' that starts no entity (write &amp;)" }
                let entity = String(String.UnicodeScalarView(scalars[scalars.startIndex..<end]))
                scalars = scalars[(end + 1)...]
                guard isEntity(entity) else { return "'&\(Text.printable(entity));' is not an entity Pango knows" }
            case ">":
                continue  // a bare '>' is text to Pango
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r":
                return "a control character, which XML does not allow"
            default:
                continue
            }
        }
        if let tag = open.last { return "'<\(tag)>' is not closed" }
        return nil
    }

    private static func opening(_ tag: String, open: inout [String]) -> String? {
        // XML allows no blank between '<' and the name.
        guard let first = tag.unicodeScalars.first, ("a"..."z").contains(first) else {
            return "'<\(Text.printable(tag))>' is not a tag Pango reads"
        }
        let words = tag.split(separator: " ", omittingEmptySubsequences: true)
        guard let name = words.first.map(String.init) else { return "an empty tag '<>'" }
        if tag.hasSuffix("/") { return "the self-closed tag '<\(Text.printable(tag))>'" }
        if plainTags.contains(name) {
            guard words.count == 1 else { return "'<\(name)>' with attributes" }
            open.append(name)
            return nil
        }
        guard name == "span" else { return "the tag '<\(Text.printable(name))>', which Pango does not know" }
        for attribute in words.dropFirst() {
            let parts = attribute.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, colourAttributes.contains(String(parts[0])) else {
                return "the span attribute '\(Text.printable(String(attribute)))' (only colours are carried over)"
            }
            var value = parts[1]
            guard value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote else {
                return "the span attribute '\(Text.printable(String(attribute)))' is not quoted"
            }
            value = value.dropFirst().dropLast()
            let hex = value.dropFirst()
            guard value.first == "#", [3, 6].contains(hex.count), hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
                return "the colour '\(Text.printable(String(value)))' (only #rgb and #rrggbb are carried over)"
            }
        }
        open.append(name)
        return nil
    }

    private static func isEntity(_ entity: String) -> Bool {
        if ["amp", "lt", "gt", "quot", "apos"].contains(entity) { return true }
        guard entity.hasPrefix("#") else { return false }
        let number = entity.dropFirst()
        let value: UInt32?
        if number.hasPrefix("x") {
            value = UInt32(number.dropFirst(), radix: 16)
        } else {
            value = number.allSatisfy({ $0.isASCII && $0.isNumber }) ? UInt32(number) : nil
        }
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return false }
        // XML allows tab, newline, carriage return and the printable range only.
        return scalar.value >= 0x20 || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }
}
