import CLinux
import Glibc
import ToastPictures
import ToastPlatform

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
        SerialWorker().async {
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

    /// The helper started with `helperEnd` as its descriptor 3 (`ChildProcess`: posix_spawn with the
    /// signal state a fresh program expects), in a process group of its own: a terminal's Ctrl-C goes to
    /// the daemon, which then closes the socket.
    private static func spawn(_ executable: String, helperEnd: Int32) -> Result<pid_t, StartError> {
        switch ChildProcess.spawn(["toastd-picture", PictureHelper.argument], output: .discarded, ownProcessGroup: true,
                                  passing: helperEnd, executable: executable) {
        case .success(let pid): return .success(pid)
        case .failure(let error): return .failure(StartError(description: "cannot start \(executable): \(error)"))
        }
    }
}
