import ArgumentParser
import ToastProtocol
import ToastVocabulary

/// The exit statuses of `toast` (documented in docs/protocol.md, "The toast CLI").
enum Exit {
    /// Done; with `--wait`: an action was invoked (its key is printed).
    static let ok: Int32 = 0
    /// The daemon answered with an error (printed as `toast: CODE: message`).
    static let daemonError: Int32 = 1
    /// `--wait`: the toast expired.
    static let expired: Int32 = 2
    /// `--wait`: the user dismissed the toast.
    static let dismissed: Int32 = 3
    /// `--wait`: a request closed the toast (`toast dismiss`, CloseNotification).
    static let closed: Int32 = 4
    /// `--wait`: closed for another reason.
    static let closedOtherwise: Int32 = 5
    /// `osd`: toastd has no sound server, backlight, LED or media player to ask (it answered `unavailable`).
    static let deviceUnavailable: Int32 = 6
    /// Bad command line (ArgumentParser's validation failure, EX_USAGE).
    static let usage: Int32 = 64
    /// The daemon is not running or its socket cannot be reached (EX_UNAVAILABLE).
    static let unavailable: Int32 = 69
    /// The daemon sent something this client does not understand, or hung up (EX_PROTOCOL).
    static let protocolFailure: Int32 = 76

    /// The `--wait` exit status for a close reason.
    static func status(for reason: CloseReason) -> Int32 {
        switch reason {
        case .expired: expired
        case .dismissed: dismissed
        case .closedByCall: closed
        case .undefined: closedOtherwise
        }
    }
}

/// A failure talking to the daemon: printed as one line on stderr, then the process exits with `status`.
struct ClientFailure: Error {
    var message: String
    var status: Int32
    /// Set when the outcome was already printed on stdout and only the exit status remains.
    var silent = false

    /// Ends with `status` and no message (a `--wait` outcome).
    static func outcome(_ status: Int32) -> ClientFailure {
        ClientFailure(message: "", status: status, silent: true)
    }

    static func daemon(_ error: ProtocolError) -> ClientFailure {
        ClientFailure(message: "\(error.code.rawValue): \(error.message)",
                      status: error.code == .unavailable ? Exit.deviceUnavailable : Exit.daemonError)
    }

    static func protocolViolation(_ what: String) -> ClientFailure {
        ClientFailure(message: what, status: Exit.protocolFailure)
    }

    /// Prints the message and turns into ArgumentParser's exit.
    func exit() -> ExitCode {
        if !silent { Output.error(message) }
        return ExitCode(status)
    }
}

/// Runs a command body, turning `ClientFailure` into a one-line message and its exit status.
func reportingFailures(_ body: () throws(ClientFailure) -> Void) throws(ExitCode) {
    do {
        try body()
    } catch {
        throw error.exit()
    }
}
