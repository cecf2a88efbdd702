import Glibc
import ToastConfig
import ToastPlatform

/// Where the configuration file is and reading it: the I/O half of the configuration, around the pure
/// `ConfigParser`.
enum ConfigFile {
    /// Bigger files are refused whole: a configuration is a few hundred bytes.
    static let maxSize = 1 << 20

    /// `$XDG_CONFIG_HOME/toastd/config`, else `$HOME/.config/toastd/config`; nil without either.
    static func defaultPath(_ environment: (String) -> String?) -> String? {
        if let base = environment("XDG_CONFIG_HOME"), base.hasPrefix("/") {
            return base + "/toastd/config"
        }
        if let home = environment("HOME"), home.hasPrefix("/") {
            return home + "/.config/toastd/config"
        }
        return nil
    }

    /// What reading the file gave.
    enum Contents {
        case bytes([UInt8])
        /// No such file: the defaults apply, silently for the default path.
        case missing
        /// Unreadable or too big: one warning.
        case unusable(String)
    }

    /// Reads a whole regular file of at most `maxSize` bytes without blocking on what is at the path
    /// (a FIFO there cannot hang start or `toast reload`); the history file uses it too. The file is
    /// opened once and checked by its descriptor. With `privateToUser`, a file others could have
    /// written is refused (`privacyProblem`).
    static func read(_ path: String, maxSize: Int = ConfigFile.maxSize, privateToUser: Bool = false) -> Contents {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        } catch {
            return error.code == ENOENT ? .missing : .unusable(error.reason)
        }
        defer { fd.close() }
        if privateToUser, let info = try? fd.status(), info.st_mode & S_IFMT == S_IFREG,
           let problem = privacyProblem(mode: info.st_mode, owner: info.st_uid, user: getuid()) {
            return .unusable(problem)
        }
        switch WholeFile.read(fd, maxSize: maxSize) {
        case .success(let bytes): return .bytes(bytes)
        case .failure(.missing): return .missing
        case .failure(.tooLarge): return .unusable("larger than \(maxSize) bytes")
        case .failure(let failure): return .unusable(failure.description)
        }
    }

    /// Why a configuration file with `mode`, owned by `owner`, must not be run for `user` (nil: it may).
    /// Its `exec` lines run as the user, so, as ssh does with its files, one that another user or group
    /// could have written is refused, unless toastd runs with `--allow-writable-config`.
    static func privacyProblem(mode: mode_t, owner: uid_t, user: uid_t) -> String? {
        if owner != user && owner != 0 {
            return "owned by uid \(owner), not by you (uid \(user)); its exec lines would run as you"
        }
        guard mode & 0o022 != 0 else { return nil }
        return "writable by others than its owner (mode \(String(mode & 0o777, radix: 8))); its exec lines would run "
            + "as you: chmod go-w it, or start toastd with --allow-writable-config"
    }

    /// What `load` made of a file: the configuration to apply (nil: keep the one in use) and every
    /// problem, as the log and `toast reload` show it.
    struct Loaded {
        /// Nil when the file is unusable (unreadable, too big, binary).
        var parsed: ParsedConfig?
        /// Whether there was a file (a missing one means the defaults).
        var found: Bool
        /// One line per problem: `path:line: message`, or `path: message` for the whole file.
        var warnings: [String]
    }

    /// Reads and parses `path`, logging each diagnostic. A missing file gives the defaults (with a
    /// warning when the user named it, `explicit`); an unusable file (unreadable, too big, binary) gives
    /// no configuration (one warning) and whatever configuration is in use stays. A file others could
    /// write is unusable unless `allowWritable`.
    static func load(_ path: String, explicit: Bool, allowWritable: Bool = false) -> Loaded {
        var loaded = Loaded(parsed: nil, found: true, warnings: [])
        switch read(path, privateToUser: !allowWritable) {
        case .missing:
            if explicit { loaded.warnings.append("\(path): no such file; using the defaults") }
            loaded.parsed = ParsedConfig(config: DaemonConfig(), diagnostics: [])
            loaded.found = false
        case .unusable(let reason):
            loaded.warnings.append("\(path): cannot be read (\(reason)); ignored")
        case .bytes(let bytes):
            let parsed = ConfigParser.parse(bytes, path: path)
            loaded.warnings = parsed.diagnostics.map(\.description)
            if parsed.unlistedCount > 0 { loaded.warnings.append("\(path): \(parsed.unlistedCount) more problems not listed") }
            loaded.parsed = parsed.fileRejected ? nil : parsed
        }
        for warning in loaded.warnings { Log.warning(warning) }
        return loaded
    }
}
