#if canImport(Glibc)
import Glibc
import ToastPlatform
#endif
import ArgumentParser
import ToastProtocol
import ToastVocabulary

/// `toast menu [CMD…]`: the newest toast's actions go to a picker, one label a line; the label it prints
/// back is invoked (as `makoctl menu` and `dunstctl context` do).
struct Menu: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "menu",
        abstract: "Choose one of the newest toast's actions with a picker and invoke it.",
        discussion: """
            The actions' labels go to CMD's standard input, one a line; the line CMD prints is the action \
            invoked. Without CMD, the first found of `wofi -d`, `fuzzel -d`, `tofi`, `bemenu`, and `dmenu` only with an X \
            display (it cannot open a Wayland one). Exits 1 when \
            no toast shows, it has no actions, no picker is found, or nothing is chosen.
            """)

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The picker and its arguments.", valueName: "CMD"))
    var picker: [String] = []

    /// The pickers tried without CMD, in order: each reads choices on stdin and prints the chosen one.
    static let waylandPickers = [["wofi", "-d"], ["fuzzel", "-d"], ["tofi"], ["bemenu"]]
    /// dmenu draws on X11 only: tried only with an X display (XWayland's `DISPLAY`).
    static let x11Picker = ["dmenu"]

    /// What `toast menu` says when no picker is found: which to install.
    static var noPicker: String {
        let names = waylandPickers.map { $0[0] }
        return "no picker found: install a Wayland one (\(names.dropLast().joined(separator: ", ")) or \(names.last!); "
            + "\(x11Picker[0]) needs X11), or name one: toast menu CMD…"
    }

    /// The first known picker whose program is an executable file in one of `path`'s directories.
    static func defaultPicker(path: String, hasX11: Bool = true, isExecutable: (String) -> Bool) -> [String]? {
        let directories = path.split(separator: ":").map { $0.isEmpty ? "." : String($0) }
        let pickers = waylandPickers + (hasX11 ? [x11Picker] : [])
        return pickers.first { picker in directories.contains { isExecutable("\($0)/\(picker[0])") } }
    }

    /// The newest toast showing in a `list` reply (oldest first; a toast hidden by do-not-disturb has no
    /// age): the one `toast action` and `toast dismiss` act on without an id.
    static func newest(in toasts: [ToastInfo]) -> ToastInfo? {
        toasts.last { $0.ageMs != nil }
    }

    /// What the picker shows for each action: its label on one line, or its key if the label is blank.
    static func labels(of actions: [NotificationAction]) -> [String] {
        actions.map { action in
            let label = ToastTable.oneLine(action.label).trimmingBlanks()
            return label.isEmpty ? action.key : label
        }
    }

    /// The key of the action the picker printed (its first line), or nil when it printed none of them.
    static func key(chosen output: String, among actions: [NotificationAction]) -> String? {
        // `isNewline` also ends a line at "\r\n", which Swift reads as one character.
        let choice = output.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard let index = labels(of: actions).firstIndex(of: choice) else { return nil }
        return actions[index].key
    }

    func run() throws {
        let picker = picker
        try reportingFailures { () throws(ClientFailure) in
            guard case .toasts(let toasts) = try Connection().call(.list) else {
                throw ClientFailure.protocolViolation("toastd's list reply carries no toasts")
            }
            guard let toast = Self.newest(in: toasts) else { throw Self.failure("no toast is showing") }
            guard !toast.actions.isEmpty else { throw Self.failure("toast \(toast.id) has no actions") }
            let command = picker.isEmpty
                ? Self.defaultPicker(path: Connection.getenvString("PATH") ?? "/usr/bin:/bin",
                                     hasX11: !(Connection.getenvString("DISPLAY") ?? "").isEmpty) { access($0, X_OK) == 0 }
                : picker
            guard let command else {
                throw Self.failure(Self.noPicker)
            }
            let input = Self.labels(of: toast.actions).map { $0 + "\n" }.joined()
            let output = try PickerProcess.run(command, input: input)
            guard let key = Self.key(chosen: output, among: toast.actions) else {
                throw Self.failure("nothing chosen")
            }
            // A new connection: the picker may have been open for a long time.
            _ = try Connection().call(.action(id: toast.id, key: key, activationToken: launcherActivationToken()))
        }
    }

    static func failure(_ message: String) -> ClientFailure {
        ClientFailure(message: message, status: Exit.daemonError)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingBlanks() -> String {
        let isBlank = { (c: Character) in c == " " || c == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }), let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[start...end])
    }
}

/// Runs a picker with `input` on its stdin and returns what it printed; its stderr stays ours (a picker
/// may have something to say), and a picker that fails or is killed counts as nothing chosen.
enum PickerProcess {
    static func run(_ command: [String], input: String) throws(ClientFailure) -> String {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw error("pipe") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw error("pipe")
        }
        // Only the ends dup'd onto the picker's stdin and stdout reach it (dup2 clears the flag there).
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        let argv = command.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard spawned == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw ClientFailure(message: "cannot run \(command[0]): \(Connection.errorText(spawned))",
                                status: Exit.daemonError)
        }
        // A picker that exits without reading all its input must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // A picker that quits before reading all its choices still answers: what it printed counts.
        try? FileDescriptor(rawValue: toChild[1]).writeAll(Array(input.utf8))
        close(toChild[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let fromPicker = FileDescriptor(rawValue: fromChild[0])
        while let n = try? buffer.withUnsafeMutableBytes({ try fromPicker.read(into: $0) }), n > 0 {
            output += buffer[0..<n]
        }
        close(fromChild[0])
        var status: Int32 = 0
        _ = retryingInterrupted { waitpid(pid, &status, 0) }
        // Exited normally with status 0 (WIFEXITED && WEXITSTATUS == 0): anything else chose nothing.
        guard status & 0x7f == 0 && (status >> 8) & 0xff == 0 else { return "" }
        return String(decoding: output, as: UTF8.self)
    }

    private static func error(_ what: String) -> ClientFailure {
        ClientFailure(message: "\(what): \(Connection.errorText(errno))", status: Exit.daemonError)
    }
}
