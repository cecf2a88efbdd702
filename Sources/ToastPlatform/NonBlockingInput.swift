import Glibc

/// A descriptor a client passed (`hud_stream`), read so that no read can block the loop, without
/// touching the flags of the client's own open file (it may be the user's terminal, shared with their
/// shell, which O_NONBLOCK would break).
///
/// epoll saying "readable" is not enough: a Unix socket whose owner set SO_RCVLOWAT to 1 MiB is
/// readable with one byte queued, and a plain `read` then waits for the megabyte. So a socket is read
/// with `recv(MSG_DONTWAIT)`, and a pipe, FIFO or terminal is opened again through `/proc/self/fd`,
/// which gives a file description of our own, made non-blocking. Anything else is refused.
package struct NonBlockingInput {
    package let fd: Int32
    private let isSocket: Bool

    /// Takes ownership of `passed`; nil (and `passed` closed) when it cannot be read this way.
    package init?(taking passed: Int32) {
        var info = stat()
        guard fstat(passed, &info) == 0 else {
            Glibc.close(passed)
            return nil
        }
        switch info.st_mode & S_IFMT {
        case S_IFSOCK:
            fd = passed
            isSocket = true
        case S_IFIFO, S_IFCHR:
            let own = open("/proc/self/fd/\(passed)", O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            Glibc.close(passed)
            guard own >= 0 else { return nil }
            fd = own
            isSocket = false
        default:
            Glibc.close(passed)
            return nil
        }
    }

    /// Reads what is there now: the count, 0 at the end of input, -1 with errno (EAGAIN: nothing yet).
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        isSocket ? recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                 : Glibc.read(fd, buffer.baseAddress, buffer.count)
    }

    package func close() {
        Glibc.close(fd)
    }
}
