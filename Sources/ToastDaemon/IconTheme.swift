import Glibc
import ToastConfig
import ToastPlatform
import ToastRender

/// Finds the file for an icon name (`app_icon` "firefox", `-i dialog-information`,
/// `audio-volume-high-symbolic`) as the freedesktop icon theme specification lays them out: the
/// `icon-path` directories first, then the user's theme and the themes it inherits from (each
/// `index.theme`'s `Inherits`, depth first), then hicolor, then `pixmaps`. In each theme the directory
/// whose `Size`/`Scale`/`Type` fit the picture box at the output scale wins, else the closest one. PNG
/// and SVG files; a name found nowhere shows no picture.
///
/// Answers are cached, bounded in entries and bytes (names come from clients). A theme's directories
/// are looked at once, when the theme is first needed, and only those holding something are searched:
/// hicolor's index lists ~650 directories, most of them empty, and probing each for two names and two
/// extensions made a volume bar's first value at a new level wait ~5 ms. A new `IconTheme` is made at
/// each configuration reload, so SIGHUP drops both and sees newly installed icons.
struct IconTheme {
    /// Data directories, most important first (`$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`).
    let dataDirectories: [String]
    /// The user's theme (`icon-theme`, else GTK's setting, else hicolor).
    let themeName: String
    /// Searched before any theme (`icon-path`): icons directly inside, or laid out as a theme.
    let iconPaths: [String]
    /// Where theme directories are looked for, in order: `~/.icons`, then `DATA/icons`.
    let baseDirectories: [String]

    private var cache: [String: String?] = [:]
    private var cacheBytes = 0
    /// Parsed themes by name (nil: no index.theme anywhere): their parents and the directories that
    /// hold something, with the base directories in which they do.
    private var themes: [String: (inherits: [String], directories: [SearchedDirectory])?] = [:]
    /// Files looked for so far (each an `access` call): what the directory pruning saves.
    private(set) var fileProbes = 0
    private var chain: [String]?

    static let maxCacheEntries = 512
    static let maxCacheBytes = 128 << 10
    /// Themes followed through `Inherits` at most (a loop or a long chain stops here).
    static let maxThemes = 16
    static let extensions = ["png", "svg"]

    /// Directories assumed for a hicolor without an `index.theme` (a minimal system): the usual sizes.
    static let fallbackDirectories: [ThemeDirectory] = {
        let categories = ["apps", "status", "devices", "categories", "places", "mimetypes", "actions", "emblems"]
        var directories: [ThemeDirectory] = []
        for size in [16, 22, 24, 32, 48, 64, 96, 128, 256, 512] {
            for category in categories {
                directories.append(ThemeDirectory(path: "\(size)x\(size)/\(category)", size: size, type: .fixed))
            }
        }
        for category in categories {
            directories.append(ThemeDirectory(path: "scalable/\(category)", size: 48, type: .scalable,
                                              minSize: 1, maxSize: 512))
        }
        return directories
    }()

    init(dataDirectories: [String], themeName: String = "hicolor", iconPaths: [String] = [], home: String? = nil) {
        self.dataDirectories = dataDirectories
        self.themeName = ThemeIndex.isThemeName(themeName) ? themeName : "hicolor"
        self.iconPaths = iconPaths.filter { $0.hasPrefix("/") }
        baseDirectories = (home.map { [$0 + "/.icons"] } ?? []) + dataDirectories.map { $0 + "/icons" }
    }

    /// The search path of this environment (XDG Base Directory defaults when unset); `theme` is the
    /// `icon-theme` key, nil to take GTK's `gtk-icon-theme-name` from `$XDG_CONFIG_HOME/gtk-3.0/settings.ini`.
    static func fromEnvironment(theme: String? = nil, iconPaths: [String] = [], _ lookup: (String) -> String?) -> IconTheme {
        var directories: [String] = []
        let home = lookup("HOME").flatMap { $0.isEmpty ? nil : $0 }
        if let dataHome = lookup("XDG_DATA_HOME"), !dataHome.isEmpty {
            directories.append(dataHome)
        } else if let home {
            directories.append(home + "/.local/share")
        }
        let dataDirs = lookup("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        directories += dataDirs.split(separator: ":").map(String.init)
        var name = theme
        if name == nil {
            let configHome = lookup("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? home.map { $0 + "/.config" }
            if let configHome, let data = try? WholeFile.read(configHome + "/gtk-3.0/settings.ini", maxSize: 64 << 10).get() {
                name = ThemeIndex.gtkIconThemeName(settingsIni: String(decoding: data, as: UTF8.self))
            }
        }
        return IconTheme(dataDirectories: directories, themeName: name ?? "hicolor", iconPaths: iconPaths, home: home)
    }

    /// Whether `name` is an icon name and not a path or something that could climb out of the theme.
    static func isIconName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, name != ".", name != ".." else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x2B
        }
    }

    /// Reads the themes' indexes and finds which of their directories hold icons, as the first lookup
    /// would (a few ms for hicolor's ~650 directories): done at a login start, so that the first HUD or
    /// toast with an icon does not wait for it.
    mutating func loadThemes() {
        _ = themeChain()
    }

    /// The file for `name` drawn `size` logical pixels wide at output `scale`, or nil.
    mutating func path(forIconNamed name: String, size: Int = 48, scale: Int = 1) -> String? {
        guard Self.isIconName(name) else { return nil }
        let key = "\(name) \(size) \(scale)"
        if let known = cache[key] { return known }
        let found = search(name, size: size, scale: scale)
        remember(key, found)
        return found
    }

    /// The `Icon=` of desktop entry `name` (`NAME.desktop` in `DATA/applications`, the first found):
    /// an icon name or an absolute path; nil when there is no such entry or it names no icon.
    mutating func desktopEntryIcon(_ name: String) -> String? {
        let entry = name.hasSuffix(".desktop") ? String(name.dropLast(8)) : name
        guard Self.isIconName(entry) else { return nil }
        let key = "desktop \(entry)"
        if let known = cache[key] { return known }
        var icon: String?
        for directory in dataDirectories {
            guard let data = try? WholeFile.read("\(directory)/applications/\(entry).desktop", maxSize: 256 << 10).get() else { continue }
            icon = Self.iconKey(desktopEntry: String(decoding: data, as: UTF8.self))
            break
        }
        remember(key, icon)
        return icon
    }

    /// The `Icon` key of a desktop entry's `[Desktop Entry]` group.
    static func iconKey(desktopEntry text: String) -> String? {
        var group = ""
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmingBlanks()
            if line.hasPrefix("[") && line.hasSuffix("]") {
                group = String(line.dropFirst().dropLast())
                continue
            }
            guard group == "Desktop Entry", let equals = line.firstIndex(of: "="),
                  line[..<equals].trimmingBlanks() == "Icon" else { continue }
            let value = String(line[line.index(after: equals)...].trimmingBlanks())
            return value.isEmpty ? nil : value
        }
        return nil
    }

    private mutating func remember(_ key: String, _ found: String?) {
        let bytes = key.utf8.count + (found?.utf8.count ?? 0) + 64
        if cache.count >= Self.maxCacheEntries || cacheBytes + bytes > Self.maxCacheBytes {
            cache.removeAll()
            cacheBytes = 0
        }
        cache[key] = found
        cacheBytes += bytes
    }

    /// Entries and bytes the cache holds now.
    var cacheSize: (entries: Int, bytes: Int) { (cache.count, cacheBytes) }

    private mutating func search(_ name: String, size: Int, scale: Int) -> String? {
        for directory in iconPaths {
            for ext in Self.extensions where readable("\(directory)/\(name).\(ext)") {
                return "\(directory)/\(name).\(ext)"
            }
            if let index = Self.loadIndex(directory + "/index.theme"),
               let found = lookup(name, size: size, scale: scale,
                                  in: Self.searched(index.directories, roots: [directory])) {
                return found
            }
        }
        for theme in themeChain() {
            guard let loaded = loadTheme(theme) else { continue }
            if let found = lookup(name, size: size, scale: scale, in: loaded.directories) {
                return found
            }
        }
        for directory in dataDirectories {
            for ext in Self.extensions where readable("\(directory)/pixmaps/\(name).\(ext)") {
                return "\(directory)/pixmaps/\(name).\(ext)"
            }
        }
        return nil
    }

    /// The user's theme, its parents depth first, then hicolor: each once, at most `maxThemes`.
    private mutating func themeChain() -> [String] {
        if let chain { return chain }
        var order: [String] = []
        func visit(_ theme: String) {
            guard order.count < Self.maxThemes, !order.contains(theme), ThemeIndex.isThemeName(theme) else { return }
            order.append(theme)
            for parent in loadTheme(theme)?.inherits ?? [] { visit(parent) }
        }
        visit(themeName)
        if !order.contains("hicolor") { order.append("hicolor") }
        chain = order
        return order
    }

    /// The theme's parents and searched directories, from the index of the first base directory
    /// that has one, over every base directory holding the theme. hicolor without an index gets the
    /// usual directories.
    private mutating func loadTheme(_ theme: String) -> (inherits: [String], directories: [SearchedDirectory])? {
        if let known = themes[theme] { return known }
        let roots = baseDirectories.map { "\($0)/\(theme)" }.filter(Self.isDirectory)
        // A loop, not `roots.lazy.compactMap(...).first`, which reads and parses the first index twice.
        var index: ThemeIndex?
        for root in roots {
            index = Self.loadIndex(root + "/index.theme")
            if index != nil { break }
        }
        if index == nil, theme == "hicolor", !roots.isEmpty { index = ThemeIndex(directories: Self.fallbackDirectories) }
        let loaded = index.map { ($0.inherits, Self.searched($0.directories, roots: roots)) }
        themes[theme] = loaded
        return loaded
    }

    /// A theme directory and the roots in which it holds anything, in the roots' order.
    struct SearchedDirectory {
        var directory: ThemeDirectory
        var roots: [String]
    }

    /// `directories` (in their order) with the roots in which each holds at least one entry; those
    /// empty or missing everywhere are left out.
    static func searched(_ directories: [ThemeDirectory], roots: [String]) -> [SearchedDirectory] {
        directories.compactMap { directory in
            let holding = roots.filter { holdsEntries("\($0)/\(directory.path)") }
            return holding.isEmpty ? nil : SearchedDirectory(directory: directory, roots: holding)
        }
    }

    /// The specification's LookupIcon: a directory meant for this size first, else the closest.
    private mutating func lookup(_ name: String, size: Int, scale: Int, in directories: [SearchedDirectory]) -> String? {
        for searched in directories where searched.directory.matches(size: size, scale: scale) {
            for root in searched.roots {
                let stem = "\(root)/\(searched.directory.path)/\(name)"
                for ext in Self.extensions where readable("\(stem).\(ext)") {
                    return "\(stem).\(ext)"
                }
            }
        }
        var closest: (path: String, distance: Int)?
        for searched in directories {
            let distance = searched.directory.distance(size: size, scale: scale)
            if let closest, closest.distance <= distance { continue }
            for root in searched.roots {
                let stem = "\(root)/\(searched.directory.path)/\(name)"
                if let ext = Self.extensions.first(where: { readable("\(stem).\($0)") }) {
                    closest = ("\(stem).\(ext)", distance)
                    break
                }
            }
        }
        return closest?.path
    }

    static func loadIndex(_ path: String) -> ThemeIndex? {
        guard let data = try? WholeFile.read(path, maxSize: ThemeIndex.maxBytes).get() else { return nil }
        return ThemeIndex.parse(utf8: data)
    }

    private mutating func readable(_ path: String) -> Bool {
        fileProbes += 1
        return access(path, R_OK) == 0
    }

    /// Whether `path` is a directory with at least one entry besides `.` and `..`.
    static func holdsEntries(_ path: String) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let isDotOrDotDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
            }
            if !isDotOrDotDot { return true }
        }
        return false
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
