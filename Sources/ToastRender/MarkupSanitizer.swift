internal import CCairo

/// Turns a Desktop Notifications body (a loose HTML-ish subset) into markup Pango always accepts.
///
/// The spec allows `<b> <i> <u> <a href="..."> <img src="..." alt="...">`. Senders get it wrong often
/// (stray `&`, `<` in plain text, unknown or unbalanced tags), and a Pango markup error would lose the
/// whole body, so:
/// - `<b> <i> <u>` are kept (case-insensitive, attributes dropped) and balanced: a close tag closes the
///   tags opened inside it, a close tag with no open match is dropped, open tags are closed at the end;
/// - `<a href>` becomes an underlined, coloured span (Pango 1.50 has no link element);
/// - `<img>` becomes its alt text, escaped, or nothing;
/// - any other tag is shown as text (escaped);
/// - `&` and `<` of plain text are escaped; the entities `&amp; &lt; &gt; &quot; &apos; &#NN; &#xHH;` are
///   kept when they name a character XML allows, otherwise escaped;
/// - characters XML forbids (most C0 controls) are removed.
/// If Pango still rejects the result, the body is returned as fully escaped plain text.
public enum MarkupSanitizer {
    /// Safe Pango markup for `body`. `linkColor` colours `<a>` text.
    public static func sanitize(_ body: String, linkColor: Color = ToastStyle().linkColor) -> String {
        let markup = convert(Array(body.unicodeScalars), linkColor: linkColor)
        if isValidPangoMarkup(markup) { return markup }
        return escape(body)
    }

    /// `text` with `& < > " '` escaped and XML-forbidden characters removed: valid markup showing `text` literally.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for s in text.unicodeScalars { appendEscaped(s, to: &out) }
        return out
    }

    /// Whether Pango parses `markup` without error.
    public static func isValidPangoMarkup(_ markup: String) -> Bool {
        var error: UnsafeMutablePointer<GError>? = nil
        let ok = pango_parse_markup(markup, -1, 0, nil, nil, nil, &error) != 0
        if let error { g_error_free(error) }
        return ok
    }

    // MARK: - Conversion

    private enum Tag: String {
        case b, i, u, a, img
    }

    private static func convert(_ s: [Unicode.Scalar], linkColor: Color) -> String {
        var out = ""
        var open: [Tag] = []
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "<", let end = tagEnd(s, from: i) {
                handleTag(Array(s[(i + 1)..<end]), raw: s[i...end], open: &open, out: &out, linkColor: linkColor)
                i = end + 1
            } else if c == "&" {
                if let end = entityEnd(s, from: i) {
                    out.unicodeScalars.append(contentsOf: s[i...end])
                    i = end + 1
                } else {
                    out += "&amp;"
                    i += 1
                }
            } else {
                appendEscaped(c, to: &out)
                i += 1
            }
        }
        for tag in open.reversed() { out += closeMarkup(tag) }
        return out
    }

    /// Index of the `>` closing the tag that starts at `start`, honouring quoted attribute values;
    /// nil when there is none before the next `<` or the end (then the `<` is text).
    private static func tagEnd(_ s: [Unicode.Scalar], from start: Int) -> Int? {
        var quote: Unicode.Scalar? = nil
        var j = start + 1
        while j < s.count {
            let c = s[j]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                return j
            } else if c == "<" {
                return nil
            }
            j += 1
        }
        return nil
    }

    private static func handleTag(_ inner: [Unicode.Scalar], raw: ArraySlice<Unicode.Scalar>,
                                  open: inout [Tag], out: inout String, linkColor: Color) {
        var k = 0
        let closing = inner.first == "/"
        if closing { k = 1 }
        var name = ""
        while k < inner.count, isNameChar(inner[k]) {
            name.unicodeScalars.append(inner[k]); k += 1
        }
        // A name must follow `<` or `</` directly and end at whitespace, `/` or the end.
        let tag = Tag(rawValue: name.lowercased())
        let nameEndsWell = k == inner.count || inner[k] == "/" || isSpace(inner[k])
        guard let tag, nameEndsWell else {
            for c in raw { appendEscaped(c, to: &out) }
            return
        }
        let rest = Array(inner[k...])
        let selfClosing = rest.last == "/"
        if closing {
            guard tag != .img, let index = open.lastIndex(of: tag) else { return }
            for t in open[index...].reversed() { out += closeMarkup(t) }
            open.removeSubrange(index...)
            return
        }
        switch tag {
        case .img:
            if let alt = attribute("alt", in: rest), !alt.isEmpty { out += escape(decodeEntities(alt)) }
        case .b, .i, .u, .a:
            if !selfClosing {
                out += openMarkup(tag, linkColor: linkColor)
                open.append(tag)
            }
        }
    }

    private static func openMarkup(_ tag: Tag, linkColor: Color) -> String {
        switch tag {
        case .a: "<span foreground=\"\(linkColor.hexRGB)\" underline=\"single\">"
        case .img: ""
        default: "<\(tag.rawValue)>"
        }
    }

    private static func closeMarkup(_ tag: Tag) -> String {
        switch tag {
        case .a: "</span>"
        case .img: ""
        default: "</\(tag.rawValue)>"
        }
    }

    /// The value of attribute `name` (case-insensitive) in a tag's attribute text; quoted or bare.
    private static func attribute(_ name: String, in s: [Unicode.Scalar]) -> String? {
        var k = 0
        while k < s.count {
            while k < s.count, isSpace(s[k]) || s[k] == "/" { k += 1 }
            var attrName = ""
            while k < s.count, isNameChar(s[k]) || s[k] == "-" || s[k] == ":" {
                attrName.unicodeScalars.append(s[k]); k += 1
            }
            if attrName.isEmpty { k += 1; continue }
            while k < s.count, isSpace(s[k]) { k += 1 }
            var value = ""
            if k < s.count, s[k] == "=" {
                k += 1
                while k < s.count, isSpace(s[k]) { k += 1 }
                if k < s.count, s[k] == "\"" || s[k] == "'" {
                    let q = s[k]; k += 1
                    while k < s.count, s[k] != q { value.unicodeScalars.append(s[k]); k += 1 }
                    k += 1
                } else {
                    while k < s.count, !isSpace(s[k]), s[k] != "/" || k + 1 < s.count {
                        value.unicodeScalars.append(s[k]); k += 1
                    }
                }
            }
            if attrName.lowercased() == name { return value }
        }
        return nil
    }

    /// Index of the `;` ending a valid entity starting at `start` (which holds `&`), else nil.
    private static func entityEnd(_ s: [Unicode.Scalar], from start: Int) -> Int? {
        var j = start + 1
        var body = ""
        while j < s.count, j - start <= 12, s[j] != ";" {
            body.unicodeScalars.append(s[j]); j += 1
        }
        guard j < s.count, s[j] == ";", let scalar = entityValue(body), isXMLChar(scalar) else { return nil }
        return j
    }

    /// The character an entity body (between `&` and `;`) names, if it is one Pango knows.
    private static func entityValue(_ body: String) -> Unicode.Scalar? {
        switch body {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        guard body.hasPrefix("#") else { return nil }
        let digits = body.dropFirst()
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            let hex = digits.dropFirst()
            value = hex.isEmpty || !hex.allSatisfy(\.isHexDigit) ? nil : UInt32(hex, radix: 16)
        } else {
            value = digits.isEmpty || !digits.allSatisfy(\.isASCII) ? nil : UInt32(digits, radix: 10)
        }
        return value.flatMap(Unicode.Scalar.init)
    }

    /// Replaces valid entities by their characters (for attribute values about to be re-escaped).
    private static func decodeEntities(_ text: String) -> String {
        let s = Array(text.unicodeScalars)
        var out = ""
        var i = 0
        while i < s.count {
            if s[i] == "&", let end = entityEnd(s, from: i),
               let v = entityValue(String(String.UnicodeScalarView(s[(i + 1)..<end]))) {
                out.unicodeScalars.append(v)
                i = end + 1
            } else {
                out.unicodeScalars.append(s[i]); i += 1
            }
        }
        return out
    }

    private static func appendEscaped(_ c: Unicode.Scalar, to out: inout String) {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default: if isXMLChar(c) { out.unicodeScalars.append(c) }
        }
    }

    /// XML 1.0 `Char`: what GMarkup (under Pango) accepts, as text or through an entity.
    private static func isXMLChar(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func isNameChar(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9")
    }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" }
}
