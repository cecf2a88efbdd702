/// A line made as it is written: a reply too large to encode in one go without holding the loop
/// (`list`, `history`: up to ~170 MB), encoded a piece at a time as the client reads.
package protocol LinePieces: AnyObject {
    /// The next bytes of the line (the last piece ends with its newline); nil once it is all given.
    func nextPiece() -> [UInt8]?
}

/// What the daemon still has to write to one control-socket client: whole lines (replies, events), in
/// order, the first of them perhaps partly written. Pure: the server writes and reports what was taken.
///
/// The bound a slow reader is held to (`backlog`) counts the lines queued behind the one being written,
/// not that line itself: a `list` or `history` reply may be far larger than any socket buffer, and it
/// must reach a client that reads it however long it is, whatever other clients' toasts made it. A
/// client that lets more than the bound pile up behind a reply (it asks again and again without
/// reading, or ignores its events) is the one that gets dropped.
package struct OutgoingLines {
    private enum Line {
        case bytes([UInt8])
        case pieces(LinePieces)
    }

    /// What a line made in pieces counts for in `backlog` while it waits behind another: its size is
    /// not known before it is encoded, and a few of them waiting is already a client that does not read.
    package static let waitingPiecesWeight = 256 * 1024

    /// Lines not yet fully written; `lines[first]` is being written.
    private var lines: [Line] = []
    private var first = 0
    /// The bytes of the first line being written now (all of it, or its current piece), from `written`.
    private var current: [UInt8] = []
    private var written = 0
    /// The weight of the lines behind the first one.
    package private(set) var backlog = 0

    package init() {}

    package var isEmpty: Bool { first == lines.count }

    /// Bytes known and not yet written (a line in pieces counts what is encoded of it so far).
    package var unwritten: Int {
        isEmpty ? 0 : current.count - written + backlog
    }

    /// Queues `line` (an empty one is not queued).
    package mutating func append(_ line: [UInt8]) {
        guard !line.isEmpty else { return }
        enqueue(.bytes(line), weight: line.count)
    }

    /// Queues a line that is encoded as it is written.
    package mutating func append(_ pieces: LinePieces) {
        enqueue(.pieces(pieces), weight: Self.waitingPiecesWeight)
    }

    private mutating func enqueue(_ line: Line, weight: Int) {
        let wasEmpty = isEmpty
        lines.append(line)
        if wasEmpty { loadFirst() } else { backlog += weight }
    }

    /// Hands unwritten bytes of the first line to `write`, which returns how many it took (0 or less:
    /// none). Returns what `write` returned (0 when the queue ran empty).
    package mutating func writeFirst(_ write: (UnsafeRawBufferPointer) -> Int) -> Int {
        guard !isEmpty else { return 0 }
        let taken = current.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[written...])) }
        if taken > 0 {
            written += taken
            if written >= current.count { currentWritten() }
        }
        return taken
    }

    /// The first line's current bytes are all written: its next piece, else the next line.
    private mutating func currentWritten() {
        if case .pieces(let pieces) = lines[first], let piece = Self.nonEmptyPiece(of: pieces) {
            current = piece
            written = 0
            return
        }
        dropFirst()
    }

    /// The first line is done: the next one (if any) becomes the one being written.
    private mutating func dropFirst() {
        lines[first] = .bytes([])  // its memory goes now, not when the queue empties
        first += 1
        current = []
        written = 0
        if isEmpty {
            lines.removeAll(keepingCapacity: true)
            first = 0
            backlog = 0
            return
        }
        // The array of spent slots is trimmed now and then, not on every line (that would be quadratic).
        if first > 64 && first * 2 > lines.count {
            lines.removeFirst(first)
            first = 0
        }
        switch lines[first] {
        case .bytes(let bytes): backlog -= bytes.count
        case .pieces: backlog -= Self.waitingPiecesWeight
        }
        loadFirst()
    }

    /// Makes `lines[first]` the line being written (one in pieces that gives nothing is skipped).
    private mutating func loadFirst() {
        written = 0
        switch lines[first] {
        case .bytes(let bytes): current = bytes
        case .pieces(let pieces):
            guard let piece = Self.nonEmptyPiece(of: pieces) else { return dropFirst() }
            current = piece
        }
    }

    private static func nonEmptyPiece(of pieces: LinePieces) -> [UInt8]? {
        while let piece = pieces.nextPiece() {
            if !piece.isEmpty { return piece }
        }
        return nil
    }
}
