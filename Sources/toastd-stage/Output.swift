import Glibc

/// Writes one line to stdout at once, unbuffered: tests read the probe's lines as they come.
func emit(_ line: String) {
    var text = line
    text.append("\n")
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if n <= 0 { return }
            offset += n
        }
    }
}

/// Writes a message to stderr.
func complain(_ message: String) {
    var text = "toastd-stage: " + message + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Says why on stderr and exits with status 1.
func fail(_ message: String) -> Never {
    complain(message)
    exit(1)
}

/// A coordinate as the probe prints it: whole pixels (surface coordinates are 24.8 fixed point).
func whole(_ value: Double) -> Int { Int(value.rounded(.down)) }
