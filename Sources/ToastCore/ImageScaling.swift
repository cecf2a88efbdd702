import ToastVocabulary

extension RGBAImage {
    /// This image shrunk (box filter, aspect kept) so neither side exceeds `maxSide`; itself if it
    /// already fits. A toast shows images at icon size, so the daemon keeps no multi-megabyte picture
    /// around for a notification that may stay on screen for hours.
    public func downscaled(toFit maxSide: Int) -> RGBAImage {
        guard maxSide > 0, width > maxSide || height > maxSide, pixels.count >= width * height * 4 else { return self }
        let factor = Double(max(width, height)) / Double(maxSide)
        let newWidth = max(1, Int((Double(width) / factor).rounded(.down)))
        let newHeight = max(1, Int((Double(height) / factor).rounded(.down)))
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        pixels.withUnsafeBufferPointer { source in
            for y in 0..<newHeight {
                let y0 = y * height / newHeight, y1 = max(y0 + 1, (y + 1) * height / newHeight)
                for x in 0..<newWidth {
                    let x0 = x * width / newWidth, x1 = max(x0 + 1, (x + 1) * width / newWidth)
                    // Average in premultiplied terms so transparent pixels do not darken the edges.
                    var r = 0, g = 0, b = 0, a = 0
                    for sy in y0..<y1 {
                        var index = (sy * width + x0) * 4
                        for _ in x0..<x1 {
                            let alpha = Int(source[index + 3])
                            r += Int(source[index]) * alpha
                            g += Int(source[index + 1]) * alpha
                            b += Int(source[index + 2]) * alpha
                            a += alpha
                            index += 4
                        }
                    }
                    let count = (y1 - y0) * (x1 - x0)
                    let target = (y * newWidth + x) * 4
                    if a > 0 {
                        out[target] = UInt8(r / a)
                        out[target + 1] = UInt8(g / a)
                        out[target + 2] = UInt8(b / a)
                    }
                    out[target + 3] = UInt8(a / count)
                }
            }
        }
        return RGBAImage(width: newWidth, height: newHeight, pixels: out)
    }
}
