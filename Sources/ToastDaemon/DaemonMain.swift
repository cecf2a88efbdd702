import Glibc
import ToastConfig
import ToastPlatform
import ToastVocabulary

extension Daemon {
    /// The `toastd` command: parses `arguments` (without the program name), runs, returns the exit status.
    public static func main(arguments: [String]) -> Int32 {
        switch DaemonOptions.parse(arguments) {
        case .failure(let error):
            Log.error(error.message)
            return 2
        case .success(.help):
            print(DaemonOptions.usage)
            return 0
        case .success(.version):
            print("toastd \(ServerIdentity.version)")
            return 0
        case .success(.checkConfig(let path)):
            return checkConfig(path)
        case .success(.run(let options)):
            MemoryRelease.warnIfSlicesAreKept()
            do {
                return try Daemon(options: options).run()
            } catch {
                Log.error(error.description)
                return error.exitStatus
            }
        }
    }

    /// `toastd --check-config [PATH]`: reads the file the daemon would (`path`, else the default one)
    /// the same way, prints each problem to stdout as `path:line: message`, and returns 0 when there is
    /// none. A missing default file is fine (the daemon runs on its defaults); a missing named one is not.
    static func checkConfig(_ path: String?) -> Int32 {
        guard let file = path ?? ConfigFile.defaultPath(Environment.variable) else {
            print("toastd: no configuration file: neither XDG_CONFIG_HOME nor HOME is set")
            return 1
        }
        switch ConfigFile.read(file, privateToUser: true) {
        case .missing:
            if path == nil { return 0 }
            print("\(file): no such file")
            return 1
        case .unusable(let reason):
            print("\(file): cannot be read (\(reason))")
            return 1
        case .bytes(let bytes):
            let parsed = ConfigParser.parse(bytes, path: file)
            for diagnostic in parsed.diagnostics { print(diagnostic.description) }
            if parsed.unlistedCount > 0 { print("\(file): \(parsed.unlistedCount) more problems not listed") }
            return parsed.warningCount == 0 ? 0 : 1
        }
    }
}
