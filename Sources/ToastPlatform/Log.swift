import Glibc

/// The daemon's log: one line per event on stderr (fd 2), which journald or the terminal keeps.
package enum Log {
    package static func info(_ message: String) { write("toastd: \(message)\n") }
    package static func warning(_ message: String) { write("toastd: warning: \(message)\n") }
    package static func error(_ message: String) { write("toastd: error: \(message)\n") }

    private static func write(_ line: String) {
        var line = line
        line.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
