import Foundation

/// A compositor for live tests: the display named by TOASTD_STAGE_ENV (a file of KEY=VALUE lines)
/// or WAYLAND_DISPLAY if set, else a headless sway started here (as an unprivileged user when we
/// are root, since sway refuses to run as root) and stopped by `stop()`.
/// (Small on purpose; the shared stage replaces it later.)
final class HeadlessSway {
    /// Absolute socket path or display name to pass to `WaylandDisplay(name:)`.
    let display: String
    private let process: Process?
    private let runtimeDirectory: String?

    struct Unavailable: Error, CustomStringConvertible { let description: String }

    private init(display: String, process: Process?, runtimeDirectory: String?) {
        self.display = display
        self.process = process
        self.runtimeDirectory = runtimeDirectory
    }

    static func start() throws -> HeadlessSway {
        let environment = ProcessInfo.processInfo.environment
        if let file = environment["TOASTD_STAGE_ENV"], let text = try? String(contentsOfFile: file, encoding: .utf8) {
            var values: [String: String] = [:]
            for line in text.split(separator: "\n") {
                var line = line.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("export ") { line.removeFirst(7) }
                guard let eq = line.firstIndex(of: "=") else { continue }
                values[String(line[..<eq])] = String(line[line.index(after: eq)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
            if let name = values["WAYLAND_DISPLAY"] {
                let path = name.hasPrefix("/") ? name : (values["XDG_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"] ?? "") + "/" + name
                return HeadlessSway(display: path, process: nil, runtimeDirectory: nil)
            }
        }
        if let name = environment["WAYLAND_DISPLAY"], !name.isEmpty {
            return HeadlessSway(display: name, process: nil, runtimeDirectory: nil)
        }
        guard let sway = ["/usr/bin/sway", "/usr/local/bin/sway"].first(where: FileManager.default.isExecutableFile) else {
            throw Unavailable(description: "no WAYLAND_DISPLAY and no sway installed")
        }
        let fm = FileManager.default
        let directory = "/tmp/toastd-wayland-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try fm.createDirectory(atPath: directory, withIntermediateDirectories: false,
                               attributes: [.posixPermissions: 0o700])
        let config = directory + "/sway.config"
        try "output HEADLESS-1 resolution 1280x720\n".write(toFile: config, atomically: false, encoding: .utf8)
        var command = ["env", "XDG_RUNTIME_DIR=\(directory)", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman",
                       "WLR_LIBINPUT_NO_DEVICES=1", sway, "-c", config]
        if getuid() == 0 {
            let user = "toastd-stage"
            if getpwnam(user) == nil { try run(["/usr/sbin/useradd", "-r", "-m", user]) }
            guard let entry = getpwnam(user) else { throw Unavailable(description: "cannot create user \(user)") }
            let (uid, gid) = (entry.pointee.pw_uid, entry.pointee.pw_gid)
            chown(directory, uid, gid)
            chown(config, uid, gid)
            command = ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--init-groups"] + command
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        let log = directory + "/sway.log"
        _ = fm.createFile(atPath: log, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        let compositor = HeadlessSway(display: directory + "/wayland-1", process: process, runtimeDirectory: directory)

        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let socket = (try? fm.contentsOfDirectory(atPath: directory))?
                .first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
                return HeadlessSway(display: directory + "/" + socket, process: process, runtimeDirectory: directory)
            }
            if !process.isRunning { break }
            usleep(10_000)
        }
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        compositor.stop()
        throw Unavailable(description: "sway did not create its socket; log:\n\(output)")
    }

    /// Stops the sway we started (if any) and removes its runtime directory.
    func stop() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if let runtimeDirectory { try? FileManager.default.removeItem(atPath: runtimeDirectory) }
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        try process.run()
        process.waitUntilExit()
    }
}
