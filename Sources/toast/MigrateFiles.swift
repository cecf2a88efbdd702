#if canImport(Glibc)
import Glibc
#endif
import ToastMigrate

/// The file I/O of `toast migrate`: finding the dunstrc, reading it without hanging on a FIFO or a
/// device, and writing the result without clobbering a file unless asked.
enum MigrateFiles {
    /// A larger file is refused rather than read whole (the converter's own bound).
    static let maxInputSize = DunstMigration.maxInputBytes

    struct Failure: Error {
        var message: String
    }

    /// Where dunst looks, first found wins: `$XDG_CONFIG_HOME/dunst/dunstrc` (else
    /// `~/.config/dunst/dunstrc`), then `dunst/dunstrc` in each of `$XDG_CONFIG_DIRS` (else `/etc/xdg`).
    static func defaultCandidates(_ environment: (String) -> String?) -> [String] {
        var candidates: [String] = []
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            candidates.append(config + "/dunst/dunstrc")
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            candidates.append(home + "/.config/dunst/dunstrc")
        }
        let directories = environment("XDG_CONFIG_DIRS").map { $0.split(separator: ":").map(String.init) } ?? []
        for directory in directories.isEmpty ? ["/etc/xdg"] : directories where directory.hasPrefix("/") {
            candidates.append(directory + "/dunst/dunstrc")
        }
        return candidates
    }

    /// The bytes of a regular file of at most `maxInputSize` bytes, and its device and inode (so that
    /// the output is never the input). Opened non-blocking: a FIFO named by mistake is refused, not
    /// waited on.
    static func read(_ path: String) throws(Failure) -> (bytes: [UInt8], identity: (dev_t, ino_t)) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw Failure(message: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(message: "\(path): \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(message: "\(path): not a regular file") }
        guard info.st_size <= maxInputSize else {
            throw Failure(message: "\(path): \(info.st_size) bytes, larger than a dunstrc (at most \(maxInputSize)); not read")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "\(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return (bytes, (info.st_dev, info.st_ino)) }
            bytes += chunk[..<count]
            // It grew while being read.
            if bytes.count > maxInputSize { throw Failure(message: "\(path): larger than a dunstrc (at most \(maxInputSize)); not read") }
        }
    }

    /// Writes `text` to `path`: a new file, or with `force` one that replaces the file there (written
    /// beside it and renamed, so a failure leaves the old one whole). Missing parent directories are
    /// made (`~/.config/toastd`). Never the file `input` names.
    static func write(_ text: String, to path: String, force: Bool, input: (dev_t, ino_t)) throws(Failure) {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_dev == input.0 && info.st_ino == input.1 {
                throw Failure(message: "\(path) is the dunstrc being converted; not overwritten")
            }
            guard force else { throw Failure(message: "\(path) exists; not overwritten (--force replaces it)") }
            guard info.st_mode & S_IFMT == S_IFREG else { throw Failure(message: "\(path) is not a regular file; not replaced") }
        }
        try makeParents(of: path)
        let temporary = force ? "\(path).toast-migrate-\(getpid())" : path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw Failure(message: "\(path): \(String(cString: strerror(errno)))") }
        let written = Array(text.utf8).withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        let error = errno
        guard close(fd) == 0, written else {
            unlink(temporary)
            throw Failure(message: "\(path): \(String(cString: strerror(written ? errno : error)))")
        }
        if temporary != path, rename(temporary, path) != 0 {
            let error = errno
            unlink(temporary)
            throw Failure(message: "\(path): \(String(cString: strerror(error)))")
        }
    }

    /// Makes the missing directories above `path`, as `mkdir -p` does.
    private static func makeParents(of path: String) throws(Failure) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        var directory = ""
        for (index, component) in components.enumerated() {
            directory += (index == 0 ? "" : "/") + component
            guard !component.isEmpty, component != ".", component != ".." else { continue }
            if mkdir(directory, 0o755) != 0 && errno != EEXIST {
                throw Failure(message: "\(directory): \(String(cString: strerror(errno)))")
            }
        }
    }
}
