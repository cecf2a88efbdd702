import Glibc
import ToastConfig
import ToastCore
import ToastPlatform

/// Where a sound name is found: the XDG sound theme `freedesktop` (the sound theme specification's
/// fallback theme, which every distribution's sound-theme-freedesktop package fills), under
/// `$XDG_DATA_HOME/sounds` and each `$XDG_DATA_DIRS/sounds`. Pure but for `exists`.
struct SoundTheme {
    /// The `sounds` directories, searched in order.
    var directories: [String]
    var theme = "freedesktop"
    /// The spec's formats, in its order of preference.
    static let extensions = ["oga", "ogg", "wav"]

    static func fromEnvironment(_ environment: (String) -> String?) -> SoundTheme {
        var bases: [String] = []
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            bases.append(data)
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            bases.append(home + "/.local/share")
        }
        let dirs = environment("XDG_DATA_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        bases += dirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return SoundTheme(directories: bases.map { $0 + "/sounds" })
    }

    /// The file for `name`: `message-new-instant`, else `message-new`, else `message` (the spec's
    /// fallback by dropping the last dash part), each in `stereo/` then the theme's own directory.
    func file(named name: String, exists: (String) -> Bool) -> String? {
        guard !name.isEmpty, !name.contains("/"), name != "..", name != "." else { return nil }
        var candidate = Substring(name)
        while true {
            for directory in directories {
                for subdirectory in ["/stereo", ""] {
                    for ext in Self.extensions {
                        let path = "\(directory)/\(theme)\(subdirectory)/\(candidate).\(ext)"
                        if exists(path) { return path }
                    }
                }
            }
            guard let dash = candidate.lastIndex(of: "-") else { return nil }
            candidate = candidate[..<dash]
        }
    }
}

/// Plays notification sounds by starting a player (`sound-command`) with the file as its last
/// argument: `/dev/fd/3`, the file toastd opened itself (non-blocking, so a FIFO cannot hold the loop)
/// and found to be a regular file, never the path a sender named (a device or FIFO would keep the
/// player, and its slot, forever). `posix_spawn` returns as soon as the player runs, so the loop
/// never waits for a sound; the players are reaped when SIGCHLD arrives (the daemon's signalfd). At
/// most one sound plays per app at a time (a sound asked for while that app's last one still plays is
/// skipped), and no more players run than `budget` leaves room for: the app name is the sender's to
/// choose, so only the shared bound holds against a flood.
final class SoundPlayer {
    /// The players tried, in order, when `sound-command` is not set.
    static let defaultPlayers: [[String]] = [["pw-play"], ["paplay"], ["canberra-gtk-play", "-f"]]

    /// The command and its leading arguments; nil: no player, no sounds.
    private(set) var command: [String]?
    private(set) var theme: SoundTheme
    let budget: ChildBudget
    /// Running players: pid → the app whose sound it plays.
    private var playing: [pid_t: String] = [:]

    /// `configured` is `DaemonConfig.soundCommand`: nil looks for a default player on PATH, empty
    /// means none.
    init(configured: [String]?, environment: (String) -> String?, budget: ChildBudget = ChildBudget()) {
        self.budget = budget
        theme = SoundTheme.fromEnvironment(environment)
        command = Self.command(configured: configured, environment: environment)
    }

    /// A new `sound-command` (a reload): the players still running stay this player's to reap.
    func reconfigure(configured: [String]?, environment: (String) -> String?) {
        theme = SoundTheme.fromEnvironment(environment)
        command = Self.command(configured: configured, environment: environment)
    }

    private static func command(configured: [String]?, environment: (String) -> String?) -> [String]? {
        if let configured { return configured.isEmpty ? nil : configured }
        let path = environment("PATH") ?? "/usr/bin:/bin"
        return defaultPlayers.first { findExecutable($0[0], path: path) != nil }
    }

    var isAvailable: Bool { command != nil }

    /// Plays `sound` for `app` unless one of its sounds still plays. A name not found in the theme,
    /// or a file that cannot be read, is skipped with a warning.
    func play(_ sound: NotificationSound, app: String) {
        guard let command else { return }
        reap()
        guard !playing.values.contains(app) else { return }
        let file: String
        switch sound {
        case .file(let path):
            guard path.hasPrefix("/") else {
                Log.warning("sound file \(path) of \(app) is not an absolute path; not played")
                return
            }
            file = path
        case .name(let name):
            guard let found = theme.file(named: name, exists: { access($0, R_OK) == 0 }) else {
                Log.warning("no sound named \(name) in the \(theme.theme) sound theme; not played")
                return
            }
            file = found
        }
        let fd: Int32
        switch Self.openRegularFile(file) {
        case .file(let opened): fd = opened
        case .refused(let reason):
            Log.warning("sound file \(file) of \(app) cannot be played (\(reason)); not played")
            return
        }
        defer { close(fd) }
        guard budget.take() else {
            budget.drop("sound", "the sound of \(app)")
            return
        }
        switch ChildProcess.spawn(command + ["/dev/fd/\(ChildProcess.passedFD)"], output: .discarded, passing: fd) {
        case .success(let pid): playing[pid] = app
        case .failure(let error):
            budget.release()
            Log.warning("cannot run \(command[0]): \(error)")
        }
    }

    /// What opening a sound file gave.
    enum Opened {
        case file(Int32)
        case refused(String)
    }

    /// Opens `path` once, without blocking (O_NONBLOCK: a FIFO does not wait for a writer) and without
    /// taking a terminal; only a regular file is kept. The descriptor is the caller's to close.
    static func openRegularFile(_ path: String) -> Opened {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return .refused(String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .refused("not a regular file")
        }
        return .file(fd)
    }

    /// Collects the players that have exited (on SIGCHLD).
    func reap() {
        for pid in playing.keys {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) {
                playing[pid] = nil
                budget.release()
            }
        }
    }

    private static func findExecutable(_ name: String, path: String) -> String? {
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
