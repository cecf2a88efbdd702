/// The parts of the freedesktop icon theme specification that are pure: an `index.theme` read into its
/// parent themes and directories, the rule of which directory's size fits best, and the GTK settings
/// file naming the user's theme. No file system here; `IconTheme` does the looking.
package struct ThemeIndex: Equatable {
    /// Parent themes, in order (`Inherits`); hicolor is searched last whatever they say.
    package var inherits: [String] = []
    /// Subdirectories holding icons, in the order listed (`Directories`, then `ScaledDirectories`).
    package var directories: [ThemeDirectory] = []

    /// Files larger than this are not read; a big theme's index (Adwaita, Papirus) is tens of kilobytes.
    package static let maxBytes = 1 << 20
    /// Directories beyond this many are ignored: every one costs a file lookup per icon name.
    package static let maxDirectories = 1024

    /// `text` as an `index.theme`: `[Icon Theme]` then one section per directory. Directories listed
    /// without a section, or without a `Size`, are skipped (the specification requires it).
    package static func parse(_ text: String) -> ThemeIndex {
        parse(utf8: Array(text.utf8))
    }

    /// What a directory's section says, of the keys the lookup uses (any other key is skipped).
    private struct SectionKeys {
        var size, scale, minSize, maxSize, threshold: Int?
        var type: ThemeDirectory.Kind?

        /// `later` over these: a key given again (or in a repeated section) takes its last value.
        mutating func take(_ later: SectionKeys) {
            size = later.size ?? size
            scale = later.scale ?? scale
            minSize = later.minSize ?? minSize
            maxSize = later.maxSize ?? maxSize
            threshold = later.threshold ?? threshold
            type = later.type ?? type
        }
    }

    /// The bytes of an `index.theme`, parsed as `parse(_:)` says. Read as bytes, line by line, making
    /// strings only of section names and the values kept: hicolor's index is ~3,000 lines, read when the
    /// first themed icon is looked up (the first HUD after start waits for it).
    package static func parse(utf8 bytes: [UInt8]) -> ThemeIndex {
        var index = ThemeIndex()
        var listed: [String] = []
        var sections: [String: SectionKeys] = [:]
        var section: String?, keys = SectionKeys()
        bytes.withUnsafeBufferPointer { text in
            var next = 0
            while next < text.count {
                var end = next
                while end < text.count, text[end] != UInt8(ascii: "\n"), text[end] != UInt8(ascii: "\r") { end += 1 }
                let line = trimmed(text, next..<end)
                next = end + 1
                guard let first = line.first, text[first] != UInt8(ascii: "#") else { continue }
                if text[first] == UInt8(ascii: "["), text[line.last!] == UInt8(ascii: "]") {
                    if let section { sections[section, default: SectionKeys()].take(keys) }
                    section = String(decoding: text[line.dropFirst().dropLast()], as: UTF8.self)
                    keys = SectionKeys()
                    continue
                }
                guard let section, let equals = line.first(where: { text[$0] == UInt8(ascii: "=") }) else { continue }
                let key = text[trimmed(text, line.lowerBound..<equals)]
                let value = text[trimmed(text, equals + 1..<line.upperBound)]
                func number() -> Int? { Int(String(decoding: value, as: UTF8.self)) }
                if section == "Icon Theme" {
                    if key.elementsEqual("Inherits".utf8) {
                        index.inherits = list(value)
                    } else if key.elementsEqual("Directories".utf8) || key.elementsEqual("ScaledDirectories".utf8) {
                        listed += list(value)
                    }
                } else if key.elementsEqual("Size".utf8) {
                    keys.size = number()
                } else if key.elementsEqual("Scale".utf8) {
                    keys.scale = number()
                } else if key.elementsEqual("MinSize".utf8) {
                    keys.minSize = number()
                } else if key.elementsEqual("MaxSize".utf8) {
                    keys.maxSize = number()
                } else if key.elementsEqual("Threshold".utf8) {
                    keys.threshold = number()
                } else if key.elementsEqual("Type".utf8) {
                    keys.type = value.elementsEqual("Fixed".utf8) ? .fixed
                        : value.elementsEqual("Scalable".utf8) ? .scalable : .threshold
                }
            }
        }
        if let section { sections[section, default: SectionKeys()].take(keys) }
        var seen = Set<String>()
        for name in listed where seen.insert(name).inserted && index.directories.count < maxDirectories {
            guard let keys = sections[name], let size = keys.size, size > 0 else { continue }
            var directory = ThemeDirectory(path: name, size: size)
            if let scale = keys.scale, scale > 0 { directory.scale = scale }
            directory.type = keys.type ?? .threshold
            directory.minSize = keys.minSize
            directory.maxSize = keys.maxSize
            if let threshold = keys.threshold { directory.threshold = threshold }
            index.directories.append(directory)
        }
        return index
    }

    /// `range` of `text` without the blanks (spaces, tabs) at either end.
    private static func trimmed(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var (lower, upper) = (range.lowerBound, range.upperBound)
        func blank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while lower < upper, blank(text[lower]) { lower += 1 }
        while upper > lower, blank(text[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// A comma-separated list of bytes, blanks trimmed, empty items dropped.
    private static func list(_ value: Slice<UnsafeBufferPointer<UInt8>>) -> [String] {
        list(String(decoding: value, as: UTF8.self)[...])
    }

    /// A comma-separated list, blanks trimmed, empty items dropped.
    private static func list(_ value: Substring) -> [String] {
        value.split(separator: ",").map { String($0.trimmingBlanks()) }.filter { !$0.isEmpty }
    }

    /// The `gtk-icon-theme-name` of a GTK 3 `settings.ini` (`[Settings]` section), or nil.
    package static func gtkIconThemeName(settingsIni text: String) -> String? {
        var section = ""
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingBlanks()
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard section == "Settings", let equals = line.firstIndex(of: "="),
                  line[..<equals].trimmingBlanks() == "gtk-icon-theme-name" else { continue }
            var value = line[line.index(after: equals)...].trimmingBlanks()
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
            return isThemeName(String(value)) ? String(value) : nil
        }
        return nil
    }

    /// Whether `name` can name a theme directory: one path component, nothing that climbs out.
    package static func isThemeName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && name != "." && name != ".." && !name.contains("/")
            && !name.utf8.contains(0)
    }

    package init(inherits: [String] = [], directories: [ThemeDirectory] = []) {
        self.inherits = inherits
        self.directories = directories
    }
}

/// One directory of a theme (`48x48/apps`, `scalable/status`) and the sizes its icons fit.
package struct ThemeDirectory: Equatable {
    package enum Kind: Equatable {
        case fixed, scalable, threshold
    }

    package var path: String
    package var size: Int
    package var scale = 1
    package var type = Kind.threshold
    package var minSize: Int?
    package var maxSize: Int?
    package var threshold = 2

    /// The specification's DirectoryMatchesSize: icons here are meant for `size` at `scale`.
    package func matches(size wanted: Int, scale wantedScale: Int) -> Bool {
        guard scale == wantedScale else { return false }
        switch type {
        case .fixed: return size == wanted
        case .scalable: return (minSize ?? size) <= wanted && wanted <= (maxSize ?? size)
        case .threshold: return size - threshold <= wanted && wanted <= size + threshold
        }
    }

    /// The specification's DirectorySizeDistance, in device pixels: how far icons here are from
    /// `size` at `scale` (0 when they fit).
    package func distance(size wanted: Int, scale wantedScale: Int) -> Int {
        let target = wanted * wantedScale
        let low: Int, high: Int
        switch type {
        case .fixed: return abs(size * scale - target)
        case .scalable: (low, high) = ((minSize ?? size) * scale, (maxSize ?? size) * scale)
        case .threshold: (low, high) = ((size - threshold) * scale, (size + threshold) * scale)
        }
        if target < low { return low - target }
        if target > high { return target - high }
        return 0
    }

    package init(path: String, size: Int, scale: Int = 1, type: Kind = .threshold, minSize: Int? = nil, maxSize: Int? = nil,
                 threshold: Int = 2) {
        self.path = path
        self.size = size
        self.scale = scale
        self.type = type
        self.minSize = minSize
        self.maxSize = maxSize
        self.threshold = threshold
    }
}

extension Substring {
    package func trimmingBlanks() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}
