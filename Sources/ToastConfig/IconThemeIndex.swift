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
        var index = ThemeIndex()
        var listed: [String] = []
        var sections: [String: [String: String]] = [:]
        var section = ""
        // Split on the bytes, not on Characters: hicolor's index is ~3,000 lines, and finding grapheme
        // boundaries through all of it made the first icon of the day wait several ms.
        for rawLine in text.utf8.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
            let line = Substring(rawLine).trimmingBlanks()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingBlanks(), value = line[line.index(after: equals)...].trimmingBlanks()
            if section == "Icon Theme" {
                switch key {
                case "Inherits": index.inherits = list(value)
                case "Directories", "ScaledDirectories": listed += list(value)
                default: break
                }
            } else if sections[section, default: [:]].count < 16 {
                sections[section, default: [:]][String(key)] = String(value)
            }
        }
        var seen = Set<String>()
        for name in listed where seen.insert(name).inserted && index.directories.count < maxDirectories {
            guard let keys = sections[name], let size = keys["Size"].flatMap({ Int($0) }), size > 0 else { continue }
            var directory = ThemeDirectory(path: name, size: size)
            if let scale = keys["Scale"].flatMap({ Int($0) }), scale > 0 { directory.scale = scale }
            switch keys["Type"] {
            case "Fixed": directory.type = .fixed
            case "Scalable": directory.type = .scalable
            default: directory.type = .threshold
            }
            if let min = keys["MinSize"].flatMap({ Int($0) }) { directory.minSize = min }
            if let max = keys["MaxSize"].flatMap({ Int($0) }) { directory.maxSize = max }
            if let threshold = keys["Threshold"].flatMap({ Int($0) }) { directory.threshold = threshold }
            index.directories.append(directory)
        }
        return index
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
