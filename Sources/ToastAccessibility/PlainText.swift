/// A notification body as a screen reader should say it: the markup the spec allows (`<b>`, `<i>`,
/// `<u>`, `<a href>`, `<img>`) removed and its five entities decoded. An `<img alt="...">` says its alt
/// text; a `<` that opens no tag is kept.
package enum PlainText {
    package static func fromMarkup(_ markup: String) -> String {
        var out = ""
        var rest = Substring(markup)
        while let open = rest.firstIndex(of: "<") {
            out += decode(rest[..<open])
            guard let close = rest[open...].firstIndex(of: ">") else {
                out += decode(rest[open...])
                return out
            }
            let tag = rest[rest.index(after: open)..<close]
            if tag.lowercased().hasPrefix("img"), let alt = attribute("alt", in: tag) { out += decode(alt) }
            rest = rest[rest.index(after: close)...]
        }
        return out + decode(rest)
    }

    private static func attribute(_ name: String, in tag: Substring) -> Substring? {
        let opening = name + "=\""
        guard let start = tag.indices.first(where: { tag[$0...].hasPrefix(opening) }) else { return nil }
        let value = tag[tag.index(start, offsetBy: opening.count)...]
        return value[..<(value.firstIndex(of: "\"") ?? value.endIndex)]
    }

    private static let entities = ["&lt;": "<", "&gt;": ">", "&quot;": "\"", "&apos;": "'", "&amp;": "&"]

    /// One pass, so `&amp;lt;` stays `&lt;`.
    private static func decode(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let tail = rest[amp...]
            if let (entity, character) = entities.first(where: { tail.hasPrefix($0.key) }) {
                out += character
                rest = tail.dropFirst(entity.count)
            } else {
                out += "&"
                rest = tail.dropFirst()
            }
        }
        return out + rest
    }
}
