import Glibc

/// The blur of a drop shadow: repeated box blurs over a one-byte-a-pixel coverage mask, which
/// approach a Gaussian after three passes (each a running sum, so the cost does not grow with the
/// radius). Pure; `ShadowMask` draws the mask and blurs it once per box size, and is blended through
/// the shadow's colour.
enum ShadowBlur {
    /// Blurs the `width`×`height` mask in `data` (rows `stride` bytes apart) in place with `passes`
    /// box blurs of `radius` pixels across, then down. Coverage moves at most `passes × radius` pixels;
    /// what would move past the mask's edges is lost, so the caller leaves that much margin.
    static func blur(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Int,
                     passes: Int = 3) {
        guard radius > 0, width > 0, height > 0 else { return }
        // Scratch lines as raw memory: this runs over every pixel six times, and array bounds checks
        // and uniqueness checks would cost more than the arithmetic.
        let length = max(width, height)
        let line = UnsafeMutablePointer<Int32>.allocate(capacity: length)
        let previous = UnsafeMutablePointer<Int32>.allocate(capacity: length)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: length)
        defer { line.deallocate(); previous.deallocate(); out.deallocate() }
        let window = 2 * radius + 1
        for _ in 0..<passes {
            var scratch = Scratch(line: line, previous: previous, out: out)
            for y in 0..<height {
                blurLine(data + y * stride, count: width, step: 1, radius: radius, window: window, scratch: &scratch)
            }
            scratch = Scratch(line: line, previous: previous, out: out)
            for x in 0..<width {
                blurLine(data + x, count: height, step: stride, radius: radius, window: window, scratch: &scratch)
            }
        }
    }

    /// A line's values, the previous line's (to skip repeats: a box's shadow is the same all along its
    /// straight edges, so most lines equal the one before) and the blurred line.
    private struct Scratch {
        var line: UnsafeMutablePointer<Int32>
        var previous: UnsafeMutablePointer<Int32>
        var out: UnsafeMutablePointer<UInt8>
        var hasPrevious = false
    }

    /// One box blur along `count` values `step` bytes apart: each becomes the mean of the `window`
    /// values centred on it (zero beyond the ends), rounded.
    private static func blurLine(_ start: UnsafeMutablePointer<UInt8>, count: Int, step: Int, radius: Int, window: Int,
                                 scratch: inout Scratch) {
        let line = scratch.line, out = scratch.out
        for i in 0..<count { line[i] = Int32(start[i &* step]) }
        if scratch.hasPrevious, memcmp(line, scratch.previous, count * MemoryLayout<Int32>.stride) == 0 {
            for i in 0..<count { start[i &* step] = out[i] }  // the same line as before: the same result
            return
        }
        let window = Int32(window), half = window / 2
        var sum: Int32 = 0
        for i in 0..<min(radius, count) { sum &+= line[i] }
        for i in 0..<count {
            if i &+ radius < count { sum &+= line[i &+ radius] }
            if i &- radius &- 1 >= 0 { sum &-= line[i &- radius &- 1] }
            out[i] = UInt8(truncatingIfNeeded: (sum &+ half) / window)
        }
        for i in 0..<count { start[i &* step] = out[i] }
        swap(&scratch.line, &scratch.previous)
        scratch.hasPrevious = true
    }
}
