import ToastClient
import ToastProtocol

/// The CLI's connection to toastd: ToastClient's `ToastConnection` (one socket client for apps and
/// the CLI), with the session bus asked to start toastd when nobody answers, and failures turned into
/// the CLI's messages and exit statuses.
final class Connection {
    private let connection: ToastConnection

    var path: String { connection.path }

    /// Connects at once or fails at once; with `startService`, the bus is asked to start toastd first
    /// when nobody listens (see `ToastConnection.init`).
    init(environment lookup: (String) -> String? = Connection.getenvString,
         startService: (() -> ServiceStart.Outcome)? = ServiceStart.request) throws(ClientFailure) {
        let startDaemon = startService.map { start in
            { () -> ToastConnection.DaemonStart in
                switch start() {
                case .started: .started(service: ServiceStart.serviceName)
                case .alreadyRunning:
                    .notStarted("a toastd owns \(ServiceStart.serviceName) but listens on another socket (TOASTD_SOCKET?)")
                case .failed(let why): .notStarted(why)
                }
            }
        }
        do {
            connection = try ToastConnection(environment: lookup, startDaemon: startDaemon)
        } catch {
            throw ClientFailure(error)
        }
    }

    static func getenvString(_ name: String) -> String? { ToastConnection.environmentValue(name) }

    static func errorText(_ code: Int32) -> String { ToastConnection.errorText(code) }

    /// One line: why nothing answered, why the bus did not start it (`notStarted`), and how to start it.
    static func notRunningMessage(path: String, errno code: Int32, notStarted: String? = nil) -> String {
        ToastConnection.notRunningMessage(path: path, errno: code, notStarted: notStarted)
    }

    /// Writes one request line.
    func send(_ request: Request) throws(ClientFailure) {
        do { try connection.send(request) } catch { throw ClientFailure(error) }
    }

    /// Writes one request line with descriptor `passing` attached (SCM_RIGHTS).
    func send(_ request: Request, passing descriptor: Int32) throws(ClientFailure) {
        do { try connection.send(request, passing: descriptor) } catch { throw ClientFailure(error) }
    }

    /// Sends a request and returns its successful reply's payload; an error reply throws.
    func call(_ request: Request) throws(ClientFailure) -> ReplyPayload {
        do { return try connection.call(request) } catch { throw ClientFailure(error) }
    }

    /// Reads until the next reply, queueing events that come first.
    func reply() throws(ClientFailure) -> ReplyPayload {
        do { return try connection.reply() } catch { throw ClientFailure(error) }
    }

    /// The next event, waiting as long as it takes; nil when the daemon closes the connection.
    func nextEvent() throws(ClientFailure) -> Event? {
        do { return try connection.nextEvent() } catch { throw ClientFailure(error) }
    }

    /// Blocks until the daemon closes the connection (a spinner held by this process).
    func waitForHangUp() throws(ClientFailure) {
        do { try connection.waitForHangUp() } catch { throw ClientFailure(error) }
    }
}

extension ClientFailure {
    /// The library's failure as the CLI reports it: the same line, the exit status of its kind.
    init(_ error: ToastClientError) {
        let status = switch error.kind {
        case .notRunning, .noAnswer: Exit.unavailable
        case .daemon(let code): code == .unavailable ? Exit.deviceUnavailable : Exit.daemonError
        case .connection: Exit.protocolFailure
        }
        self.init(message: error.description, status: status)
    }
}
