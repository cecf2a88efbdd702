import CLinux
import Dispatch
import Glibc
import ToastPictures

/// One running picture helper: its pid and the daemon's end of the socket pair (SOCK_SEQPACKET,
/// non-blocking, close-on-exec, so no other child inherits it). The helper is this same binary
/// (`/proc/self/exe`; tests name the built `toastd`) started with `PictureHelper.argument`, the other end as descriptor 3, standard
/// error shared with the daemon (its log), nothing else.
///
/// Built with `-D TOASTD_PICTURES_IN_PROCESS` (the benchmark's comparison only), the helper is a
/// thread of the daemon instead, unconfined: the same requests, the same decoders, no process.
struct PictureHelperProcess: Sendable {
    /// nil for the in-process build.
    let pid: pid_t?
    let socket: Int32
    /// Whether its exit status was already taken (its pid is then no longer its own).
    var reaped = false

    struct StartError: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    static func start(executable: String) -> Result<PictureHelperProcess, StartError> {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return .failure(StartError(description: "socketpair: \(String(cString: strerror(errno)))"))
        }
        let flags = fcntl(ends[0], F_GETFL)
        _ = fcntl(ends[0], F_SETFL, flags | O_NONBLOCK)
        #if TOASTD_PICTURES_IN_PROCESS
        let helperEnd = ends[1]
        DispatchQueue.global().async {
            PictureHelper.warmUp()
            PictureHelper.serve(socket: helperEnd)
            close(helperEnd)
        }
        return .success(PictureHelperProcess(pid: nil, socket: ends[0]))
        #else
        defer { close(ends[1]) }
        switch spawn(executable, helperEnd: ends[1]) {
        case .success(let pid): return .success(PictureHelperProcess(pid: pid, socket: ends[0]))
        case .failure(let error):
            close(ends[0])
            return .failure(error)
        }
        #endif
    }

    /// posix_spawn (never fork: the daemon is one thread over C libraries) of the helper, with the
    /// signal state a fresh program expects and `helperEnd` as its descriptor 3.
    private static func spawn(_ executable: String, helperEnd: Int32) -> Result<pid_t, StartError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        // dup2 clears close-on-exec on the copy, but a dup2 onto itself copies nothing: an end that
        // already is descriptor 3 is moved out of the way first.
        let source = helperEnd == PictureHelper.socketFD ? fcntl(helperEnd, F_DUPFD_CLOEXEC, 10) : helperEnd
        defer { if source != helperEnd { close(source) } }
        posix_spawn_file_actions_adddup2(&actions, source, PictureHelper.socketFD)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Its own process group: a terminal's Ctrl-C goes to the daemon, which then closes the socket.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("toastd-picture"), strdup(PictureHelper.argument), nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { return .failure(StartError(description: "cannot start \(executable): \(String(cString: strerror(status)))")) }
        return .success(pid)
    }
}
