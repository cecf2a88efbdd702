import CLinux
import Glibc

/// A failed system call: its name and errno, captured where it failed. The one place errno becomes text.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public let call: String
    public let code: Int32

    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// strerror's text for `code` ("No such file or directory").
    public static func text(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "errno \(code)"
    }

    /// strerror's text for this error's code, without the call's name.
    public var reason: String { Self.text(code) }

    public var description: String { "\(call): \(reason)" }
}

/// Calls `body` until it is not interrupted by a signal: the one place EINTR is retried. `body` returns
/// a system call's result, negative with errno set on failure.
@inlinable
package func retryingInterrupted<Result: SignedInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// An open file descriptor, as the kernel numbers it: thin, typed calls over the ones the daemon and its
/// CLI make, each retrying EINTR and throwing `SystemError` (after swift-system's `FileDescriptor`).
/// Not owned: whoever opened it closes it.
package struct FileDescriptor: Hashable, Sendable {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` with `flags` (O_CLOEXEC is always added).
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemError) -> FileDescriptor {
        let fd = retryingInterrupted { Glibc.open(path, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw SystemError("open") }
        return FileDescriptor(rawValue: fd)
    }

    package func close() { _ = Glibc.close(rawValue) }

    /// Reads at most `buffer.count` bytes; 0 at the end of the file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        let n = retryingInterrupted { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
        guard n >= 0 else { throw SystemError("read") }
        return n
    }

    /// Sends all of `bytes` on a blocking socket.
    package func sendAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = retryingInterrupted {
                bytes.withUnsafeBytes { Glibc.send(rawValue, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            guard n > 0 else { throw SystemError("send", code: n < 0 ? errno : EIO) }
            offset += n
        }
    }

    /// Writes all of `bytes` (a blocking fd: a pipe, a terminal, a file).
    package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = retryingInterrupted { bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + offset, $0.count - offset) } }
            guard n > 0 else { throw SystemError("write", code: n < 0 ? errno : EIO) }
            offset += n
        }
    }

    /// Receives at most `buffer.count` bytes from a socket; 0 when the peer hung up.
    package func receive(into buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0) throws(SystemError) -> Int {
        let n = retryingInterrupted { recv(rawValue, buffer.baseAddress, buffer.count, flags) }
        guard n >= 0 else { throw SystemError("recv") }
        return n
    }

    /// Waits until the fd has `events` (POLLIN...) or `timeoutMilliseconds` pass (-1: forever); the events
    /// that came, empty on timeout. A signal restarts the wait with the whole timeout.
    package func poll(_ events: Int16, timeoutMilliseconds: Int32) throws(SystemError) -> Int16 {
        var entry = pollfd(fd: rawValue, events: events, revents: 0)
        let ready = retryingInterrupted { Glibc.poll(&entry, 1, timeoutMilliseconds) }
        guard ready >= 0 else { throw SystemError("poll") }
        return ready == 0 ? 0 : entry.revents
    }

    /// The file's status (`fstat`).
    package func status() throws(SystemError) -> stat {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw SystemError("fstat") }
        return info
    }
}

/// A whole small file read at once: opened without blocking (a FIFO or device at the path cannot hold
/// the loop), refused unless it is a regular file within a size bound. The one reader of whole files.
package enum WholeFile {
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case missing
        case notRegular
        case tooLarge(size: Int, limit: Int)
        case system(SystemError)

        package var description: String {
            switch self {
            case .missing: "no such file"
            case .notRegular: "not a regular file"
            case .tooLarge(let size, let limit): "too large (\(size) bytes, at most \(limit))"
            case .system(let error): error.reason
            }
        }
    }

    /// The bytes of `path`, at most `maxSize` of them. `followLinks` false refuses a symlink at the
    /// path itself (O_NOFOLLOW).
    package static func read(_ path: String, maxSize: Int, followLinks: Bool = true) -> Result<[UInt8], Failure> {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW))
        } catch {
            return .failure(error.code == ENOENT ? .missing : .system(error))
        }
        defer { fd.close() }
        return read(fd, maxSize: maxSize)
    }

    /// The bytes of an open file, read from its start position to its end.
    package static func read(_ fd: FileDescriptor, maxSize: Int) -> Result<[UInt8], Failure> {
        let info: stat
        do { info = try fd.status() } catch { return .failure(.system(error)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular) }
        guard Int(info.st_size) <= maxSize else { return .failure(.tooLarge(size: Int(info.st_size), limit: maxSize)) }
        // The size may change while reading (a file being written): read to the end, within the bound.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= maxSize else { return .failure(.tooLarge(size: count, limit: maxSize)) }
                bytes += [UInt8](repeating: 0, count: min(max(count, 4096), maxSize + 1 - count))
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])) }
            }
            guard case .success(let n) = read else {
                if case .failure(let error) = read { return .failure(.system(error)) }
                break
            }
            if n == 0 { break }
            count += n
        }
        guard count <= maxSize else { return .failure(.tooLarge(size: count, limit: maxSize)) }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }
}
