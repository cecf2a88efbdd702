/// The blur of a drop shadow: repeated box blurs over a one-byte-a-pixel coverage mask, which
/// approach a Gaussian after three passes (each a running sum, so the cost does not grow with the
/// radius). Pure; the renderer draws the mask and colours the result once per box size.
enum ShadowBlur {
    /// Blurs the `width`×`height` mask in `data` (rows `stride` bytes apart) in place with `passes`
    /// box blurs of `radius` pixels across, then down. Coverage moves at most `passes × radius` pixels;
    /// what would move past the mask's edges is lost, so the caller leaves that much margin.
    static func blur(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Int,
                     passes: Int = 3) {
        guard radius > 0, width > 0, height > 0 else { return }
        var line = [Int](repeating: 0, count: max(width, height))
        var out = [UInt8](repeating: 0, count: max(width, height))
        let window = 2 * radius + 1
        for _ in 0..<passes {
            for y in 0..<height {
                blurLine(data + y * stride, count: width, step: 1, radius: radius, window: window, line: &line, out: &out)
            }
            for x in 0..<width {
                blurLine(data + x, count: height, step: stride, radius: radius, window: window, line: &line, out: &out)
            }
        }
    }

    /// One box blur along `count` values `step` bytes apart: each becomes the mean of the `window`
    /// values centred on it (zero beyond the ends), rounded.
    private static func blurLine(_ start: UnsafeMutablePointer<UInt8>, count: Int, step: Int, radius: Int, window: Int,
                                 line: inout [Int], out: inout [UInt8]) {
        for i in 0..<count { line[i] = Int(start[i * step]) }
        var sum = 0
        for i in 0..<min(radius, count) { sum += line[i] }
        for i in 0..<count {
            if i + radius < count { sum += line[i + radius] }
            if i - radius - 1 >= 0 { sum -= line[i - radius - 1] }
            out[i] = UInt8((sum + window / 2) / window)
        }
        for i in 0..<count { start[i * step] = out[i] }
    }
}
