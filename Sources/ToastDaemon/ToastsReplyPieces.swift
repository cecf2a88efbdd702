import ToastPlatform
import ToastProtocol

/// A `list` or `history` reply encoded as the client reads it: a thousand toasts with 16 KiB bodies
/// of control characters (each escaped to six bytes) make a line of ~100 MB, which encoded in one go
/// would hold the loop for as long as that takes and the memory for as long as the client reads.
/// Here each piece is a few dozen KiB of whole toasts, encoded when the socket has room for it; the
/// bytes are exactly `Reply.ok(.toasts(toasts)).encodedLine()`'s.
final class ToastsReplyPieces: LinePieces {
    /// A piece is cut after the toast that makes it at least this long.
    static let pieceBytes = 64 * 1024

    private let toasts: [ToastInfo]
    private var next = 0
    private var started = false
    private var finished = false

    init(_ toasts: [ToastInfo]) {
        self.toasts = toasts
    }

    /// The empty reply's line, `{"v":1,"ok":true,"toasts":[]}\n`, split around where the toasts go.
    private static let frame: (head: [UInt8], tail: [UInt8]) = {
        let empty = Reply.ok(.toasts([])).encodedLine()
        let tail = Array("]}\n".utf8)
        precondition(empty.suffix(tail.count).elementsEqual(tail), "a toasts reply no longer ends with its array")
        return (Array(empty.dropLast(tail.count)), tail)
    }()

    func nextPiece() -> [UInt8]? {
        guard !finished else { return nil }
        var piece: [UInt8] = []
        if !started {
            started = true
            piece = Self.frame.head
        }
        while next < toasts.count && piece.count < Self.pieceBytes {
            if next > 0 { piece.append(UInt8(ascii: ",")) }
            toasts[next].json.write(to: &piece)
            next += 1
        }
        if next == toasts.count {
            piece += Self.frame.tail
            finished = true
        }
        return piece
    }
}
