/// Turns decoded hints into `BusHints`. Pure: unit-tested without a bus.
public enum Hints {
    /// Hint keys whose values are decoded; all others are skipped unread.
    static let known: Set<String> = [
        "urgency", "category", "desktop-entry", "image-data", "image_data", "icon_data",
        "image-path", "image_path", "transient", "resident", "value",
        "x-canonical-private-synchronous", "x-dunst-stack-tag",
    ]

    public static func parse(_ hints: [String: BusValue]) -> BusHints {
        var out = BusHints()
        if let u = hints["urgency"]?.integer, (0...2).contains(u) {
            out.urgency = BusUrgency(rawValue: UInt8(u))
        }
        out.category = hints["category"]?.string
        out.desktopEntry = hints["desktop-entry"]?.string
        for key in ["image-data", "image_data", "icon_data"] {
            guard let v = hints[key] else { continue }
            switch ImageData.decode(v) {
            case .success(let image):
                out.image = image
                out.imageProblem = nil
            case .failure(let e):
                out.imageProblem = "\(key): \(e)"
            }
            if out.image != nil { break }
        }
        if let p = hints["image-path"]?.string ?? hints["image_path"]?.string, !p.isEmpty {
            out.imagePath = pathFromImagePath(p)
        }
        out.transient = hints["transient"]?.boolean
        out.resident = hints["resident"]?.boolean
        out.value = hints["value"]?.integer
        out.stackTag = nonEmpty(hints["x-dunst-stack-tag"]?.string)
            ?? nonEmpty(hints["x-canonical-private-synchronous"]?.string)
        return out
    }

    /// `file:///a%20b.png` → `/a b.png`; anything else (a path or an icon name) unchanged.
    public static func pathFromImagePath(_ s: String) -> String {
        guard s.hasPrefix("file://") else { return s }
        var rest = Substring(s.dropFirst("file://".count))
        // file://localhost/path: drop the host part up to the path.
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") { rest = rest[slash...] }
        return percentDecoded(rest)
    }

    static func percentDecoded(_ s: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = Array(s.utf8)[...]
        while let c = it.popFirst() {
            if c == UInt8(ascii: "%"), it.count >= 2,
               let hi = hexValue(it[it.startIndex]), let lo = hexValue(it[it.startIndex + 1]) {
                bytes.append(hi << 4 | lo)
                it = it.dropFirst(2)
            } else {
                bytes.append(c)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }

    /// Pairs a flat action list; an odd trailing element is ignored.
    public static func actions(_ flat: [String]) -> [BusAction] {
        stride(from: 0, to: flat.count - 1, by: 2).map { BusAction(key: flat[$0], label: flat[$0 + 1]) }
    }
}
