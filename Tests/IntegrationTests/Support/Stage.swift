import Foundation

enum StageError: Error, CustomStringConvertible {
    case startFailed(String)
    case badEnvFile(String)
    case missingBinary(String)

    var description: String {
        switch self {
        case .startFailed(let why): return "the test stage did not start: \(why)"
        case .badEnvFile(let why): return "bad stage env file: \(why)"
        case .missingBinary(let path): return "\(path) not built (run `swift build --build-tests`)"
        }
    }
}

/// The real compositor environment integration tests run in: a headless sway (output HEADLESS-1,
/// 1280x720, solid background) and a private session bus, started by `scripts/stage`.
///
/// One stage per test process: `Stage.shared()` starts it on first use, or reuses the one named by
/// `TOASTD_STAGE_ENV` (the env file `scripts/stage start` printed; `scripts/test` sets it).
/// A stage this process started stops by itself when the process exits (`--owner-pid`).
///
/// Tests share the stage: leave it as you found it (terminate what you spawn). sway 1.7 cannot
/// unplug or disable a headless output, so a test that adds outputs or changes their scale uses
/// a stage of its own: `Stage.makePrivate()`, stopped when the object goes away.
final class Stage: Sendable {
    /// The stage's variables: WAYLAND_DISPLAY, SWAYSOCK, DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR,
    /// STAGE_OUTPUT, STAGE_WIDTH, STAGE_HEIGHT, STAGE_BACKGROUND, STAGE_DIR.
    let variables: [String: String]
    /// The repository root (holds scripts/ and stage/).
    let repository: String
    /// Where this package's built executables are (toastd, toast, toastd-stage).
    let binDirectory: String
    /// How long `scripts/stage start` took, when this process started the stage.
    let startupMilliseconds: Int?
    /// A private stage is stopped when this object goes away.
    private let stopsOnDeinit: Bool

    private static let instance = Result<Stage, any Error> { try Stage.startOrReuse() }

    /// The stage of this test process; starts it on the first call.
    static func shared() throws -> Stage { try instance.get() }

    private init(variables: [String: String], repository: String, binDirectory: String, startupMilliseconds: Int?,
                 stopsOnDeinit: Bool = false) {
        self.variables = variables
        self.repository = repository
        self.binDirectory = binDirectory
        self.startupMilliseconds = startupMilliseconds
        self.stopsOnDeinit = stopsOnDeinit
    }

    deinit {
        guard stopsOnDeinit else { return }
        var env = ProcessInfo.processInfo.environment
        env["STAGE_DIR"] = directory
        _ = try? IntegrationTests.run(["\(repository)/scripts/stage", "stop"], environment: env, timeout: 30)
    }

    /// A stage of the caller's own (for tests that change outputs); stopped when released.
    static func makePrivate() throws -> Stage {
        try start(directory: "/tmp/toastd-stage-\(getuid())-test-\(getpid())-\(UUID().uuidString.prefix(6))",
                  stopsOnDeinit: true)
    }

    // MARK: - What tests use

    var directory: String { variables["STAGE_DIR"]! }
    /// The first output's name (HEADLESS-1).
    var output: String { variables["STAGE_OUTPUT"] ?? "HEADLESS-1" }
    var width: Int { Int(variables["STAGE_WIDTH"] ?? "") ?? 1280 }
    var height: Int { Int(variables["STAGE_HEIGHT"] ?? "") ?? 720 }
    /// The solid colour sway paints behind everything (stage/sway.config).
    var background: RGB { RGB(hex: variables["STAGE_BACKGROUND"] ?? "") ?? RGB(r: 0x20, g: 0x30, b: 0x40) }
    /// Our clients' runtime dir (toastd puts toastd.sock here).
    var runtimeDirectory: String { variables["XDG_RUNTIME_DIR"]! }

    /// The environment for a client of the stage: this process's, with the stage's display,
    /// bus and runtime dir, the built binaries first on PATH, plus `extra`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in variables { env[key] = value }
        env["PATH"] = binDirectory + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DEBUG")
        env.removeValue(forKey: "TOASTD_SOCKET")
        // A state directory per process started: each toastd keeps its history file apart (and out of
        // the home directory), unless a test hands two of them the same one.
        env["XDG_STATE_HOME"] = "\(directory)/state-\(UUID().uuidString.prefix(8))"
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// The path of a built executable of this package; throws if it is not built.
    func binary(_ name: String) throws -> String {
        let path = binDirectory + "/" + name
        guard access(path, X_OK) == 0 else { throw StageError.missingBinary(path) }
        return path
    }

    /// Runs a command in the stage's environment.
    func run(_ argv: [String], environment extra: [String: String] = [:], input: Data? = nil,
             timeout: Double = 30) throws -> CommandResult {
        try IntegrationTests.run(argv, environment: environment(extra), input: input, timeout: timeout)
    }

    /// Starts a background process in the stage's environment; its stderr goes to a log in the stage dir.
    func spawn(_ argv: [String], environment extra: [String: String] = [:]) throws -> BackgroundProcess {
        let name = (argv.first.map { ($0 as NSString).lastPathComponent } ?? "process")
        let log = "\(directory)/\(name)-\(UUID().uuidString.prefix(8)).stderr.log"
        return try BackgroundProcess(argv, environment: environment(extra), stderrLog: log)
    }

    /// `swaymsg ARGS...` against the stage's sway; returns stdout, throws if swaymsg fails.
    @discardableResult
    func swaymsg(_ arguments: String...) throws -> String {
        try swaymsg(arguments)
    }

    @discardableResult
    func swaymsg(_ arguments: [String]) throws -> String {
        let argv = ["swaymsg", "-s", variables["SWAYSOCK"]!] + arguments
        let result = try run(argv, timeout: 10)
        guard result.succeeded else {
            throw SubprocessError.failed(argv: argv, status: result.status, stderr: result.stderrText + result.stdoutText)
        }
        return result.stdoutText
    }

    /// `swaymsg -t TYPE`, decoded from JSON (e.g. "get_outputs" gives an array of dictionaries).
    func swaymsgJSON(type: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(swaymsg("-r", "-t", type).utf8))
    }

    /// Adds a headless output (`swaymsg create_output`) and returns its name. It stays for the
    /// stage's life (sway 1.7 cannot remove it): use a private stage.
    func createOutput() throws -> String {
        let before = Set(try outputNames())
        try swaymsg("create_output")
        guard let added = Set(try outputNames()).subtracting(before).first else {
            throw StageError.startFailed("swaymsg create_output added no output")
        }
        return added
    }

    /// The names of the stage's current outputs.
    func outputNames() throws -> [String] {
        let outputs = try swaymsgJSON(type: "get_outputs") as? [[String: Any]] ?? []
        return outputs.compactMap { $0["name"] as? String }
    }

    /// A screenshot of one output (`grim -t ppm -o OUTPUT -`), in that output's buffer pixels.
    func screenshot(output: String? = nil) throws -> Image {
        let result = try run(["grim", "-t", "ppm", "-o", output ?? self.output, "-"], timeout: 20)
        guard result.succeeded else {
            throw SubprocessError.failed(argv: ["grim"], status: result.status, stderr: result.stderrText)
        }
        return try Image(ppm: result.stdout)
    }

    /// Keeps a screenshot next to the stage's logs (for failure messages); returns its path.
    @discardableResult
    func keep(_ image: Image, name: String) -> String {
        let path = "\(directory)/\(name).ppm"
        try? image.write(ppmTo: path)
        return path
    }

    // MARK: - Starting

    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    private static let binDirectory = ProcessInfo.processInfo.environment["TOASTD_BIN_DIR"]
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path

    private static func startOrReuse() throws -> Stage {
        if let envFile = ProcessInfo.processInfo.environment["TOASTD_STAGE_ENV"], !envFile.isEmpty {
            return Stage(variables: try parse(envFile: envFile), repository: repository,
                         binDirectory: binDirectory, startupMilliseconds: nil)
        }
        // Our own stage, in a directory of our own: other test runs on this machine keep theirs.
        return try start(directory: "/tmp/toastd-stage-\(getuid())-test-\(getpid())", stopsOnDeinit: false)
    }

    /// Starts a stage in `directory`; it also stops by itself when this process exits.
    private static func start(directory: String, stopsOnDeinit: Bool) throws -> Stage {
        var childEnv = ProcessInfo.processInfo.environment
        childEnv["STAGE_DIR"] = directory
        let started = ContinuousClock.now
        let result = try IntegrationTests.run(
            ["\(repository)/scripts/stage", "start", "--owner-pid", "\(getpid())"],
            environment: childEnv, timeout: 60)
        let elapsed = ContinuousClock.now - started
        guard result.succeeded else { throw StageError.startFailed(result.stderrText) }
        let envFile = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        FileHandle.standardError.write(Data("Stage: \(result.stderrText.trimmingCharacters(in: .whitespacesAndNewlines)) [\(ms) ms from the test]\n".utf8))
        return Stage(variables: try parse(envFile: envFile), repository: repository,
                     binDirectory: binDirectory, startupMilliseconds: ms, stopsOnDeinit: stopsOnDeinit)
    }

    private static func parse(envFile: String) throws -> [String: String] {
        guard let text = try? String(contentsOfFile: envFile, encoding: .utf8) else {
            throw StageError.badEnvFile("cannot read \(envFile)")
        }
        var variables: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            variables[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        for key in ["STAGE_DIR", "WAYLAND_DISPLAY", "SWAYSOCK", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"]
        where variables[key] == nil {
            throw StageError.badEnvFile("\(envFile) has no \(key)")
        }
        return variables
    }
}
