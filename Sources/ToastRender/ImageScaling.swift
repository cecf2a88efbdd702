import ToastVocabulary

/// The box filter both shrinkers use (`RGBAImage.downscaled` and the PNG decoder): each output pixel
/// averages the block of source pixels it covers, in premultiplied terms so transparent pixels do not
/// darken the edges.
package enum BoxFilter {
    /// `width`×`height` shrunk, aspect kept, so neither side exceeds `maxSide`; unchanged if it fits.
    package static func fitted(width: Int, height: Int, maxSide: Int) -> (width: Int, height: Int) {
        let factor = max(1, Double(max(width, height)) / Double(maxSide))
        return (max(1, Int((Double(width) / factor).rounded(.down))), max(1, Int((Double(height) / factor).rounded(.down))))
    }

    /// Shrinks a `width`×`height` picture to `size`. `sample(x, y)` gives a source pixel as
    /// premultiplied red, green, blue and alpha (0...255 each); the result is straight RGBA.
    package static func shrink(width: Int, height: Int, to size: (width: Int, height: Int),
                       sample: (Int, Int) -> (r: Int, g: Int, b: Int, a: Int)) -> RGBAImage {
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for y in 0..<size.height {
            let y0 = y * height / size.height, y1 = max(y0 + 1, (y + 1) * height / size.height)
            for x in 0..<size.width {
                let x0 = x * width / size.width, x1 = max(x0 + 1, (x + 1) * width / size.width)
                var r = 0, g = 0, b = 0, a = 0
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let pixel = sample(sx, sy)
                        r += pixel.r; g += pixel.g; b += pixel.b; a += pixel.a
                    }
                }
                let target = (y * size.width + x) * 4
                if a > 0 {
                    out[target] = UInt8(min(255, r * 255 / a))
                    out[target + 1] = UInt8(min(255, g * 255 / a))
                    out[target + 2] = UInt8(min(255, b * 255 / a))
                }
                out[target + 3] = UInt8(a / ((y1 - y0) * (x1 - x0)))
            }
        }
        return RGBAImage(width: size.width, height: size.height, pixels: out)
    }
}

extension RGBAImage {
    /// This image shrunk (box filter, aspect kept) so neither side exceeds `maxSide`; itself if it
    /// already fits. A toast shows images at icon size, so the daemon keeps no multi-megabyte picture
    /// around for a notification that may stay on screen for hours.
    public func downscaled(toFit maxSide: Int) -> RGBAImage {
        guard maxSide > 0, width > maxSide || height > maxSide, pixels.count >= width * height * 4 else { return self }
        return pixels.withUnsafeBufferPointer { source in
            BoxFilter.shrink(width: width, height: height, to: BoxFilter.fitted(width: width, height: height, maxSide: maxSide)) { x, y in
                let index = (y * width + x) * 4
                let alpha = Int(source[index + 3])
                return (Int(source[index]) * alpha / 255, Int(source[index + 1]) * alpha / 255,
                        Int(source[index + 2]) * alpha / 255, alpha)
            }
        }
    }
}

extension ReceivedImage {
    /// The picture unpacked (RGB or RGBA, any rowstride) and shrunk to fit `maxSide` in one pass over
    /// the bytes where they arrived: no full-size copy is ever made. Safe on any thread while the
    /// caller keeps this object alive.
    public func shrunk(toFit maxSide: Int) -> RGBAImage {
        let size = BoxFilter.fitted(width: width, height: height, maxSide: max(1, maxSide))
        let (rowstride, channels, bytes) = (rowstride, channels, bytes)
        return BoxFilter.shrink(width: width, height: height, to: size) { x, y in
            let index = y * rowstride + x * channels
            let alpha = channels == 4 ? Int(bytes[index + 3]) : 255
            return (Int(bytes[index]) * alpha / 255, Int(bytes[index + 1]) * alpha / 255,
                    Int(bytes[index + 2]) * alpha / 255, alpha)
        }
    }
}
