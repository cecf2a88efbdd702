#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ToastPlatform

/// Unbuffered output on fds 1 and 2 (no Foundation, and `stdout` is off limits in Swift 6 mode), so
/// `-p` ids and `--wait` outcomes reach a pipe the moment they are known.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) { write(fd: 1, text + "\n") }

    /// Writes `toast: text` and a newline to standard error.
    static func error(_ text: String) { write(fd: 2, "toast: " + text + "\n") }

    /// A closed or full output loses the text: there is nowhere left to say so.
    static func write(fd: Int32, _ text: String) {
        try? FileDescriptor(rawValue: fd).writeAll(Array(text.utf8))
    }
}
