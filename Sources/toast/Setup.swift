#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

/// `toast setup [--undo]`: makes toastd the notification daemon D-Bus starts for this user. Two
/// user-level service files: dbus-daemon prefers `$XDG_DATA_HOME/dbus-1/services` over the system's
/// directories, where mako's and dunst's files stay, so activation picks toastd while both are installed.
struct Setup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Make D-Bus start toastd for notifications (user-level service files); --undo removes them.")

    @Flag(help: "Remove the service files an earlier `toast setup` wrote.")
    var undo = false

    /// The first line of every file written: `--undo` removes only files that carry it.
    static let marker = "# Written by `toast setup`"

    func run() throws {
        let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
        try reportingFailures { () throws(ClientFailure) in
            guard let directory = Self.serviceDirectory(environment) else {
                throw ClientFailure(message: "neither XDG_DATA_HOME nor HOME is set: no user directory for D-Bus service files",
                                    status: Exit.usage)
            }
            if undo { try Self.remove(from: directory) } else { try Self.write(into: directory, environment: environment) }
            // dbus-daemon rereads its service directories on ReloadConfig (it also watches them).
            if case .success(let bus) = UserBus.open() { _ = bus.callBus("ReloadConfig", []) }
        }
    }

    /// `$XDG_DATA_HOME/dbus-1/services`, else `~/.local/share/dbus-1/services`.
    static func serviceDirectory(_ environment: (String) -> String?) -> String? {
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") { return data + "/dbus-1/services" }
        guard let home = environment("HOME"), !home.isEmpty else { return nil }
        return home + "/.local/share/dbus-1/services"
    }

    /// The names D-Bus should start toastd for: the notifications, and toastd's own (what `toast` starts).
    static let names = [ServiceStart.notificationsName, ServiceStart.serviceName]

    static func contents(name: String, toastd: String) -> String {
        """
        \(marker): D-Bus starts toastd for \(name); this user-level file wins over
        # the system's (mako's, dunst's). Undo: toast setup --undo
        [D-BUS Service]
        Name=\(name)
        Exec=\(toastd)

        """
    }

    private static func write(into directory: String, environment: (String) -> String?) throws(ClientFailure) {
        guard let toastd = toastdPath(environment) else {
            throw ClientFailure(message: "no toastd next to toast or on PATH: install it first", status: Exit.unavailable)
        }
        for name in names {
            let path = "\(directory)/\(name).service"
            if let existing = readFile(path), !existing.hasPrefix(marker) {
                throw ClientFailure(message: "\(path) exists and was not written by `toast setup`: move it away first",
                                    status: Exit.daemonError)
            }
        }
        try makeDirectories(directory)
        for name in names {
            let path = "\(directory)/\(name).service"
            try writeFile(path, contents(name: name, toastd: toastd))
            Output.line("wrote \(path): D-Bus starts \(toastd) for \(name)")
        }
        Output.line("undo: toast setup --undo")
        if case .success(let bus) = UserBus.open(),
           let owner = ServiceStart.owner(of: ServiceStart.notificationsName, on: bus),
           owner.processName != "toastd" {
            Output.line("\(ServiceStart.notificationsName) is owned by \(owner.who) now: stop it (\(owner.stopAdvice))")
        }
    }

    private static func remove(from directory: String) throws(ClientFailure) {
        var removed = 0
        for name in names {
            let path = "\(directory)/\(name).service"
            guard let existing = readFile(path) else { continue }
            guard existing.hasPrefix(marker) else {
                Output.error("left \(path): not written by `toast setup`")
                continue
            }
            guard unlink(path) == 0 else {
                throw ClientFailure(message: "cannot remove \(path): \(String(cString: strerror(errno)))", status: Exit.daemonError)
            }
            Output.line("removed \(path)")
            removed += 1
        }
        if removed == 0 { Output.line("nothing to undo: no service file of `toast setup` in \(directory)") }
    }

    /// toastd beside this toast (an install keeps them together), else the first on PATH.
    static func toastdPath(_ environment: (String) -> String?) -> String? {
        var candidates: [String] = []
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            let exe = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = exe.lastIndex(of: "/") { candidates.append(exe[..<slash] + "/toastd") }
        }
        for directory in (environment("PATH") ?? "").split(separator: ":") where directory.hasPrefix("/") {
            candidates.append("\(directory)/toastd")
        }
        return candidates.first { access($0, X_OK) == 0 }
    }

    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 16 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func writeFile(_ path: String, _ text: String) throws(ClientFailure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ClientFailure(message: "cannot write \(path): \(String(cString: strerror(errno)))", status: Exit.daemonError)
        }
        defer { close(fd) }
        Output.write(fd: fd, text)
    }

    /// `mkdir -p`.
    private static func makeDirectories(_ path: String) throws(ClientFailure) {
        var built = ""
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw ClientFailure(message: "cannot create \(built): \(String(cString: strerror(errno)))", status: Exit.daemonError)
            }
        }
    }
}
