/// What the daemon still has to write to one control-socket client: whole lines (replies, events), in
/// order, the first of them perhaps partly written. Pure: the server writes and reports what was taken.
///
/// The bound a slow reader is held to (`backlog`) counts the lines queued behind the one being written,
/// not that line itself: a `list` or `history` reply may be far larger than any socket buffer (up to
/// `ProtocolLimits.maxReplyLength`), and it must reach a client that reads it however long it is,
/// whatever other clients' toasts made it. A client that lets more than the bound pile up behind a
/// reply (it asks again without reading, or ignores its events) is the one that gets dropped.
package struct OutgoingLines {
    /// Lines not yet fully written; `lines[first]` is being written, from `written`.
    private var lines: [[UInt8]] = []
    private var first = 0
    private var written = 0
    /// Bytes of the lines behind the first one.
    package private(set) var backlog = 0

    package init() {}

    package var isEmpty: Bool { first == lines.count }

    /// Bytes not yet written, in all.
    package var unwritten: Int {
        isEmpty ? 0 : lines[first].count - written + backlog
    }

    /// Queues `line` (it may be empty: nothing is queued then).
    package mutating func append(_ line: [UInt8]) {
        guard !line.isEmpty else { return }
        if !isEmpty { backlog += line.count }
        lines.append(line)
    }

    /// Hands the unwritten bytes of the first line to `write`, which returns how many it took (0 or
    /// less: none). Returns what `write` returned.
    package mutating func writeFirst(_ write: (UnsafeRawBufferPointer) -> Int) -> Int {
        guard !isEmpty else { return 0 }
        let taken = lines[first].withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[written...])) }
        if taken > 0 { consume(taken) }
        return taken
    }

    /// `count` bytes of the first line were written.
    private mutating func consume(_ count: Int) {
        written += count
        guard written >= lines[first].count else { return }
        lines[first] = []  // the memory goes now, not when the queue empties
        first += 1
        written = 0
        if isEmpty {
            lines.removeAll(keepingCapacity: true)
            first = 0
            backlog = 0
        } else {
            backlog -= lines[first].count
        }
        // The array of spent slots is trimmed now and then, not on every line (that would be quadratic).
        if first > 64 && first * 2 > lines.count {
            lines.removeFirst(first)
            first = 0
        }
    }
}
