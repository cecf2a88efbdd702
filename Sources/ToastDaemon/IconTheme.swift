import Glibc

/// Finds the PNG for an icon name (`app_icon` "firefox", `image-path` "dialog-information") the way a
/// freedesktop icon theme lays them out: `hicolor/SIZE/apps`, then `pixmaps`, under each data directory.
/// Only PNGs (the renderer decodes PNG); a name found nowhere shows no picture. Answers are cached, so a
/// chatty app costs the file system one look per name.
struct IconTheme {
    /// Data directories, most important first (`$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`).
    let dataDirectories: [String]
    private var cache: [String: String?] = [:]

    /// Sizes tried, nearest to how toasts draw pictures (48 px, ×2 on HiDPI) first.
    static let sizes = [48, 64, 96, 128, 32, 256, 24, 22, 16]
    static let categories = ["apps", "status", "devices", "categories", "places", "mimetypes", "actions"]

    init(dataDirectories: [String]) {
        self.dataDirectories = dataDirectories
    }

    /// The search path of this environment (XDG Base Directory defaults when unset).
    static func fromEnvironment(_ lookup: (String) -> String?) -> IconTheme {
        var directories: [String] = []
        if let dataHome = lookup("XDG_DATA_HOME"), !dataHome.isEmpty {
            directories.append(dataHome)
        } else if let home = lookup("HOME"), !home.isEmpty {
            directories.append(home + "/.local/share")
        }
        let dataDirs = lookup("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        directories += dataDirs.split(separator: ":").map(String.init)
        return IconTheme(dataDirectories: directories)
    }

    /// Whether `name` is an icon name and not a path or something that could climb out of the theme.
    static func isIconName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, name != ".", name != ".." else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x2B
        }
    }

    /// The PNG file for `name`, or nil.
    mutating func path(forIconNamed name: String) -> String? {
        guard Self.isIconName(name) else { return nil }
        if let known = cache[name] { return known }
        let found = search(name)
        if cache.count >= 512 { cache.removeAll() }  // bounded: names come from clients
        cache[name] = found
        return found
    }

    private func search(_ name: String) -> String? {
        for directory in dataDirectories {
            for size in Self.sizes {
                for category in Self.categories {
                    let path = "\(directory)/icons/hicolor/\(size)x\(size)/\(category)/\(name).png"
                    if access(path, R_OK) == 0 { return path }
                }
            }
            let pixmap = "\(directory)/pixmaps/\(name).png"
            if access(pixmap, R_OK) == 0 { return pixmap }
        }
        return nil
    }
}
