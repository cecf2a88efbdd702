internal import CCairo
#if canImport(Glibc)
import Glibc
import ToastVocabulary
#endif

/// Pictures named by path (the `image-path` hint, an absolute `app_icon`): PNG files, decoded by cairo
/// (SVG files are `SVGFile`'s).
public enum ImageFile {
    /// The width and height a PNG file declares in its header (signature, then the IHDR chunk), read
    /// without decoding anything; nil when the file does not start like a PNG. Decoding allocates
    /// width × height × 4 bytes whatever the file's size, so this is checked first.
    public static func pngSize(path: String) -> (width: Int, height: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 24)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 24) }
        return count == 24 ? pngSize(header: header) : nil
    }

    /// `pngSize(path:)` of a file's first 24 bytes.
    public static func pngSize(header: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard header.count >= 24, Array(header[0..<8]) == signature,
              Array(header[12..<16]) == Array("IHDR".utf8) else { return nil }
        func bigEndian(_ at: Int) -> Int { header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = bigEndian(16), height = bigEndian(20)
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// Decodes the PNG at `path` into straight RGBA, shrunk (box filter, aspect kept) so neither side
    /// exceeds `maxSide`; nil when it is not a readable PNG. The caller checks first that it is a
    /// regular file of sane size and dimensions (`pngSize`): this reads it whole.
    public static func loadPNG(path: String, fittingIn maxSide: Int = .max) -> RGBAImage? {
        guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        return image(of: surface, fittingIn: maxSide)
    }

    /// The pixels of a cairo image surface (ARGB32 or RGB24) as straight RGBA, shrunk (box filter,
    /// aspect kept) so neither side exceeds `maxSide`. With `tint`, every pixel takes that colour and
    /// keeps only its coverage (alpha × the tint's alpha): how a symbolic icon takes the text colour.
    static func image(of surface: OpaquePointer, fittingIn maxSide: Int, tint: Color? = nil) -> RGBAImage? {
        cairo_surface_flush(surface)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
                || cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24,
              let data = cairo_image_surface_get_data(surface) else { return nil }
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let opaque = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        guard width > 0, height > 0, maxSide > 0 else { return nil }
        // Shrinking while converting: a large picture is never copied at full size a second time.
        let factor = max(1, Double(max(width, height)) / Double(maxSide))
        let newWidth = max(1, Int((Double(width) / factor).rounded(.down)))
        let newHeight = max(1, Int((Double(height) / factor).rounded(.down)))
        var pixels = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        let raw = UnsafeRawPointer(data)
        for y in 0..<newHeight {
            let y0 = y * height / newHeight, y1 = max(y0 + 1, (y + 1) * height / newHeight)
            for x in 0..<newWidth {
                let x0 = x * width / newWidth, x1 = max(x0 + 1, (x + 1) * width / newWidth)
                // Native-endian premultiplied ARGB, summed: the average stays premultiplied, so
                // transparent pixels do not darken the edges; then back to straight RGBA.
                var r = 0, g = 0, b = 0, a = 0
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let argb = raw.load(fromByteOffset: sy * stride + sx * 4, as: UInt32.self)
                        r += Int((argb >> 16) & 0xff)
                        g += Int((argb >> 8) & 0xff)
                        b += Int(argb & 0xff)
                        a += opaque ? 255 : Int(argb >> 24)
                    }
                }
                let i = (y * newWidth + x) * 4
                let alpha = a / ((y1 - y0) * (x1 - x0))
                if let tint {
                    pixels[i] = UInt8((tint.red * 255).rounded())
                    pixels[i + 1] = UInt8((tint.green * 255).rounded())
                    pixels[i + 2] = UInt8((tint.blue * 255).rounded())
                    pixels[i + 3] = UInt8((Double(alpha) * tint.alpha).rounded())
                    continue
                }
                if a > 0 {
                    pixels[i] = UInt8(min(255, r * 255 / a))
                    pixels[i + 1] = UInt8(min(255, g * 255 / a))
                    pixels[i + 2] = UInt8(min(255, b * 255 / a))
                }
                pixels[i + 3] = UInt8(alpha)
            }
        }
        return RGBAImage(width: newWidth, height: newHeight, pixels: pixels)
    }
}
