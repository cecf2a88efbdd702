import ToastVocabulary

/// Splits a byte stream into `\n`-terminated lines while holding at most `limit` bytes of an unfinished
/// line, so a reader on a non-blocking socket stays bounded whatever the peer sends.
///
/// Feed it whatever `read` returned with `append`, then drain with `next()` until it returns nil.
/// A line longer than `limit` (newline excluded) yields `.tooLong` once, as soon as the limit is
/// passed; its remaining bytes up to the next newline are discarded, and splitting resumes after it.
///
/// ```swift
/// var splitter = LineSplitter()
/// splitter.append(buffer)
/// while let item = splitter.next() {
///     switch item {
///     case .line(let bytes): handle(Request.decode(line: bytes))
///     case .tooLong(let n): reply(.error(ProtocolError(.lineTooLong, "…")))
///     }
/// }
/// ```
public struct LineSplitter: Sendable {
    /// One result of splitting.
    public enum Item: Equatable, Sendable {
        /// A complete line, without its `\n`.
        case line([UInt8])
        /// A line passed the limit; `discardedBytes` counts what was dropped so far (at least limit + 1).
        case tooLong(discardedBytes: Int)
    }

    /// The longest line accepted, excluding the newline.
    public let limit: Int
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` already consumed by `next()`.
    private var start = 0
    /// Where to resume looking for a newline (everything from `start` to here has none).
    private var scanned = 0
    /// True while dropping the rest of an over-long line.
    private var discarding = false
    private var discarded = 0

    public init(limit: Int = ProtocolLimits.maxLineLength) {
        precondition(limit > 0)
        self.limit = limit
    }

    /// Bytes held for an unfinished line (always at most `limit` after `next()` returned nil).
    public var pendingCount: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: [UInt8]) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line or too-long report, or nil when more bytes are needed.
    public mutating func next() -> Item? {
        while true {
            let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n"))
            if discarding {
                guard let nl = newline else {
                    discarded += buffer.count - start
                    start = buffer.count
                    scanned = start
                    return nil
                }
                discarded += nl - start
                discarding = false
                start = nl + 1
                scanned = start
                continue  // the over-long line was already reported
            }
            guard let nl = newline else {
                scanned = buffer.count
                if buffer.count - start > limit {
                    discarding = true
                    discarded = buffer.count - start
                    start = buffer.count
                    scanned = start
                    return .tooLong(discardedBytes: discarded)
                }
                return nil
            }
            let length = nl - start
            if length > limit {
                start = nl + 1
                scanned = start
                return .tooLong(discardedBytes: length)
            }
            let line = Array(buffer[start..<nl])
            start = nl + 1
            scanned = start
            return .line(line)
        }
    }

    /// At end of stream: the unterminated last line, if any (nil if nothing is pending or the pending
    /// bytes belong to an over-long line already reported). Resets the splitter.
    public mutating func finish() -> [UInt8]? {
        defer {
            buffer = []
            start = 0
            scanned = 0
            discarding = false
        }
        guard !discarding, start < buffer.count, buffer.count - start <= limit else { return nil }
        return Array(buffer[start...])
    }

    /// Drops consumed bytes so the buffer never holds more than one unfinished line plus new input.
    private mutating func compact() {
        guard start > 0 else { return }
        buffer.removeFirst(start)
        scanned -= start
        start = 0
    }
}
