// Fuzz target: LineSplitter (frames the control socket's byte stream into lines).
// The first byte picks the line limit (1...64), the next bytes how the rest is cut into reads; the
// items must match a plain split of the whole input on "\n", whatever the cuts.
import ToastProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLines(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 2 else { return 0 }
    let limit = Int(input[0] % 64) + 1
    let cuts = input[1]  // bit k set: cut after the k-th byte of each 8
    let stream = Array(input[2...])

    var splitter = LineSplitter(limit: limit)
    var items: [LineSplitter.Item] = []
    var chunk: [UInt8] = []
    func drain() {
        while let item = splitter.next() { items.append(item) }
        precondition(splitter.pendingCount <= limit, "holds \(splitter.pendingCount) bytes, limit \(limit)")
    }
    for (i, byte) in stream.enumerated() {
        chunk.append(byte)
        if cuts & (1 << UInt8(i % 8)) != 0 {
            splitter.append(chunk); chunk = []; drain()
        }
    }
    splitter.append(chunk)
    drain()
    let tail = splitter.finish()

    // The model: every "\n"-terminated piece is a line or one too-long report; so is the unterminated
    // rest, which is a line only at finish().
    var pieces = stream.split(separator: 0x0A, omittingEmptySubsequences: false)
    let rest = pieces.removeLast()
    var k = 0
    for piece in pieces {
        precondition(k < items.count, "missing item for a piece of \(piece.count) bytes")
        if piece.count <= limit {
            precondition(items[k] == .line(Array(piece)), "wrong line \(k)")
        } else {
            guard case .tooLong(let n) = items[k] else { preconditionFailure("item \(k) should be too long") }
            precondition(n > limit && n <= piece.count, "discardedBytes \(n) for a piece of \(piece.count)")
        }
        k += 1
    }
    if rest.count > limit {
        precondition(k == items.count - 1, "the long unterminated rest is not reported once")
        guard case .tooLong = items[k] else { preconditionFailure("the rest should be too long") }
        precondition(tail == nil, "finish() returned an over-long rest")
    } else {
        precondition(k == items.count, "\(items.count - k) extra items")
        precondition(tail == (rest.isEmpty ? nil : Array(rest)), "finish() lost the rest")
    }
    precondition(splitter.pendingCount == 0, "finish() did not reset")
    return 0
}
