import Foundation

/// A compositor for live tests: the display named by TOASTD_STAGE_ENV (the env file `scripts/stage`
/// writes, which `scripts/test` shares with every test process), else WAYLAND_DISPLAY, else a private
/// stage started here with `scripts/stage` and stopped by `stop()`.
final class HeadlessSway {
    /// Absolute socket path or display name to pass to `WaylandDisplay(name:)`.
    let display: String
    /// STAGE_DIR of the stage started here, nil when reusing one.
    private let ownStage: String?

    struct Unavailable: Error, CustomStringConvertible { let description: String }

    private init(display: String, ownStage: String?) {
        self.display = display
        self.ownStage = ownStage
    }

    private static let stageScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/stage").path

    static func start() throws -> HeadlessSway {
        let environment = ProcessInfo.processInfo.environment
        if let file = environment["TOASTD_STAGE_ENV"], let display = try displayFromEnvFile(file) {
            return HeadlessSway(display: display, ownStage: nil)
        }
        if let name = environment["WAYLAND_DISPLAY"], !name.isEmpty {
            return HeadlessSway(display: name, ownStage: nil)
        }
        let stageDir = "/tmp/toastd-wayland-tests-\(getpid())"
        let (status, output) = try runStage(["start", "--owner-pid", "\(getpid())"], stageDir: stageDir)
        let envFile = output.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, let display = try displayFromEnvFile(envFile) else {
            throw Unavailable(description: "scripts/stage start failed (\(status)): \(output)")
        }
        return HeadlessSway(display: display, ownStage: stageDir)
    }

    /// Stops the stage started here (if any).
    func stop() {
        if let ownStage { _ = try? Self.runStage(["stop"], stageDir: ownStage) }
    }

    private static func displayFromEnvFile(_ path: String) throws -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("WAYLAND_DISPLAY=") {
            return String(line.dropFirst("WAYLAND_DISPLAY=".count))
        }
        return nil
    }

    private static func runStage(_ arguments: [String], stageDir: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: stageScript)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["STAGE_DIR"] = stageDir
        process.environment = environment
        // A file, not a pipe: the stage's --owner-pid watcher keeps its stdout open after `start` exits.
        let outputPath = "\(stageDir).out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return (process.terminationStatus, output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
