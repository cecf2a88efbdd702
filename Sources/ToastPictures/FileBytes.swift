import Glibc

/// Reading picture, theme and desktop files before anything is decoded: a file is opened without
/// blocking (a FIFO named as a picture must not hang the loop) and read only up to a known bound.
public enum FileBytes {
    /// A file's first `count` bytes (fewer if it is shorter); nil when it cannot be read or is empty.
    public static func head(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: count)
        let done = readFully(fd, into: &head)
        return done > 0 ? Array(head.prefix(done)) : nil
    }

    /// A regular file's bytes, if it holds at most `limit` of them (checked before reading).
    public static func whole(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return whole(fd: fd, limit: limit)
    }

    /// The bytes of the regular file open as `fd`, from its start, if it holds at most `limit`.
    public static func whole(fd: Int32, limit: Int) -> [UInt8]? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0, info.st_size <= limit else {
            return nil
        }
        var data = [UInt8](repeating: 0, count: Int(info.st_size))
        guard lseek(fd, 0, SEEK_SET) == 0 else { return nil }
        return readFully(fd, into: &data) == data.count ? data : nil
    }

    /// Reads until `buffer` is full or the file ends; returns the bytes read.
    private static func readFully(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        var done = 0
        while done < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            done += count
        }
        return done
    }
}
