#if canImport(Glibc)
import Glibc
#endif

/// Starting toastd when nobody answers on the socket: the CLI asks the session bus to start
/// `org.toastd.Daemon` (`StartServiceByName`), a name only toastd owns and only toastd's service file
/// offers. Activating org.freedesktop.Notifications instead would start whichever daemon's service
/// file the bus prefers: mako's or dunst's, while either is still installed. When the start fails
/// because another daemon owns org.freedesktop.Notifications, the message names it and how to stop it.
enum ServiceStart {
    /// What the bus answered.
    enum Outcome: Equatable {
        /// The bus started the service; it owns the name now (and toastd binds its socket before that).
        case started
        /// A toastd owns the name already: it listens on another socket than ours.
        case alreadyRunning
        /// No bus, no libsystemd, no activatable toastd, or another daemon in the way: why, for the error message.
        case failed(String)
    }

    /// The name toastd's own D-Bus service file offers (`NotificationsBus.daemonName`).
    static let serviceName = "org.toastd.Daemon"
    /// The name another notification daemon may hold, which toastd needs.
    static let notificationsName = "org.freedesktop.Notifications"
    /// How long the bus may take to start it: dbus-daemon itself gives up after 25 s, too long for a key.
    static let callTimeoutMicroseconds: UInt64 = 10_000_000

    /// Asks the session bus to start toastd and waits for its answer.
    static func request() -> Outcome {
        let bus: UserBus
        switch UserBus.open() {
        case .success(let opened): bus = opened
        case .failure(let failure): return .failed("\(failure.message) to start it")
        }
        switch bus.callBus("StartServiceByName", [.string(serviceName), .uint32(0)], answer: "u",
                           timeout: callTimeoutMicroseconds) {
        // DBUS_START_REPLY_SUCCESS = 1, DBUS_START_REPLY_ALREADY_RUNNING = 2.
        case .success(.uint32(2)): return .alreadyRunning
        case .success: return .started
        case .failure(let failure):
            // dbus-daemon refuses to start a name no service file offers even while it is owned.
            if owner(of: serviceName, on: bus) != nil { return .alreadyRunning }
            if let owner = owner(of: notificationsName, on: bus) {
                return owner.processName == "toastd" ? .alreadyRunning : .failed(owner.blockingMessage)
            }
            return .failed("D-Bus could not start \(serviceName): \(failure.message)")
        }
    }

    /// Who holds a name: its process id and name, as the bus and /proc tell.
    struct Owner: Equatable {
        var pid: UInt32?
        var processName: String?

        /// `mako (pid 1234)`.
        var who: String {
            let name = processName ?? "another daemon"
            return pid.map { "\(name) (pid \($0))" } ?? name
        }

        /// The commands that stop it: mako and dunst run as a systemd user unit of their process's
        /// name or straight from the compositor's config (as toastd's own message says).
        var stopAdvice: String {
            processName.map { "`systemctl --user stop \($0)` if systemd runs it, else `killall \($0)`" }
                ?? pid.map { "kill \($0)" } ?? "its own way"
        }

        /// Why toastd cannot start, and what to do: stop the owner, or make toastd the daemon D-Bus
        /// starts (`toast setup`).
        var blockingMessage: String {
            "\(notificationsName) is owned by \(who), so toastd cannot start; stop it (\(stopAdvice)), "
                + "then run toast again (`toast setup` makes D-Bus start toastd, not \(processName ?? "it"))"
        }
    }

    /// The owner of `name`, or nil when nobody owns it.
    static func owner(of name: String, on bus: UserBus) -> Owner? {
        guard case .success(.string(let unique)) = bus.callBus("GetNameOwner", [.string(name)], answer: "s") else {
            return nil
        }
        var owner = Owner()
        if case .success(.uint32(let pid)) = bus.callBus("GetConnectionUnixProcessID", [.string(unique)], answer: "u") {
            owner.pid = pid
            owner.processName = processName(of: pid)
        }
        return owner
    }

    /// `/proc/PID/comm`: the name `killall` and `systemctl --user stop` go by (mako, dunst).
    private static func processName(of pid: UInt32) -> String? {
        let fd = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let name = String(decoding: buffer[..<n], as: UTF8.self).filter { $0 != "\n" }
        return name.isEmpty ? nil : name
    }
}
