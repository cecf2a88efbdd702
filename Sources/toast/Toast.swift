#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ToastProtocol
import ToastVocabulary

/// `toast`: the command-line front door of toastd. `toast SUMMARY [BODY]` runs `send`.
@main
struct Toast: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "toast",
        abstract: "Show toasts, HUD bars and loading spinners through toastd.",
        discussion: """
            `toast SUMMARY [BODY]` shows a toast and takes notify-send's flags. To send a toast whose \
            summary is also a verb (say "list"), name the subcommand: `toast send list`. A lone word a typo \
            away from a verb (`toast lsit`) is refused with a suggestion rather than shown.

            Exit status: 0 done (with --wait: an action was invoked); 1 toastd answered with an error; \
            2 expired, 3 dismissed, 4 closed by request, 5 closed otherwise (--wait); 6 no sound server, \
            backlight, LED or player to ask (osd); 64 bad usage; \
            69 toastd is not running; 76 protocol failure.

            Socket: $TOASTD_SOCKET, else $XDG_RUNTIME_DIR/toastd.sock.
            Completions: toast --generate-completion-script bash|zsh|fish
            """,
        version: ServerIdentity.version,
        subcommands: [Send.self, Dismiss.self, List.self, History.self, Restore.self, InvokeAction.self,
                      Menu.self, Dnd.self, Mode.self, Status.self, Reload.self, Version.self, Hud.self, Osd.self, Loading.self,
                      Migrate.self, Setup.self, OpenCenter.self, AnswerReply.self, Alert.self, FocusToast.self],
        defaultSubcommand: Send.self,
        // -h is notify-send's --hint, so help is --help only.
        helpNames: [.long])

    /// Common command lines skip ArgumentParser (it costs ~2 ms of runtime type lookups at startup);
    /// everything else, including every error and help request, goes through it.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.count == 2, arguments[0] == "--generate-completion-script", let shell = CompletionShell(rawValue: arguments[1]) {
            print(CompletionScript.text(for: shell), terminator: "")
            Glibc.exit(Exit.ok)
        }
        if let refusal = CommandTypo.refusal(arguments) {
            Output.error(refusal)
            Glibc.exit(Exit.usage)
        }
        if let command = FastPath.parse(arguments) {
            do {
                try command.run()
            } catch {
                Glibc.exit(error.exit().rawValue)
            }
            Glibc.exit(Exit.ok)
        }
        main(Hud.negativeValueAfterTerminator(arguments))
    }
}

extension Urgency: ExpressibleByArgument {}
extension DndMode: ExpressibleByArgument {}

/// Turns a decoding result into a value or an ArgumentParser validation error (exit 64).
func argument<T>(_ result: Result<T, ProtocolError>) throws -> T {
    switch result {
    case .success(let v): return v
    case .failure(let e): throw ValidationError(e.message)
    }
}
