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
/// argument. `posix_spawn` returns as soon as the player runs, so the loop never waits for a sound;
/// the players are reaped when SIGCHLD arrives (the daemon's signalfd). At most one sound plays per
/// app at a time: a sound asked for while that app's last one still plays is skipped.
final class SoundPlayer {
    /// The players tried, in order, when `sound-command` is not set.
    static let defaultPlayers: [[String]] = [["pw-play"], ["paplay"], ["canberra-gtk-play", "-f"]]

    /// The command and its leading arguments; nil: no player, no sounds.
    let command: [String]?
    let theme: SoundTheme
    /// Running players: pid → the app whose sound it plays.
    private var playing: [pid_t: String] = [:]

    /// `configured` is `DaemonConfig.soundCommand`: nil looks for a default player on PATH, empty
    /// means none.
    init(configured: [String]?, environment: (String) -> String?) {
        theme = SoundTheme.fromEnvironment(environment)
        if let configured {
            command = configured.isEmpty ? nil : configured
        } else {
            let path = environment("PATH") ?? "/usr/bin:/bin"
            command = Self.defaultPlayers.first { Self.findExecutable($0[0], path: path) != nil }
        }
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
            guard path.hasPrefix("/"), access(path, R_OK) == 0 else {
                Log.warning("sound file \(path) of \(app) cannot be read; not played")
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
        switch ChildProcess.spawn(command + [file], output: .discarded) {
        case .success(let pid): playing[pid] = app
        case .failure(let error): Log.warning("cannot run \(command[0]): \(error)")
        }
    }

    /// Collects the players that have exited (on SIGCHLD).
    func reap() {
        for pid in playing.keys {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { playing[pid] = nil }
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
