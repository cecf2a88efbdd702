import Glibc
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
        case .success(.run(let options)):
            do {
                return try Daemon(options: options).run()
            } catch {
                Log.error(error.description)
                return 1
            }
        }
    }
}
