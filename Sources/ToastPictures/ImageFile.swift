internal import CCairo
import Glibc
import ToastRender
import ToastVocabulary

/// Pictures named by path (the `image-path` hint, an absolute `app_icon`): PNG files, decoded by cairo
/// (SVG files are `SVGFile`'s).
public enum ImageFile {
    /// The width and height a PNG file declares in its header (signature, then the IHDR chunk), read
    /// without decoding anything; nil when the file does not start like a PNG. Decoding allocates
    /// width × height × 4 bytes whatever the file's size, so this is checked first.
    public static func pngSize(path: String) -> (width: Int, height: Int)? {
        guard let header = FileBytes.head(path, count: 24), header.count == 24 else { return nil }
        return pngSize(header: header)
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

    /// Decodes the PNG at `path` (read whole, without blocking); see `loadPNG(data:fittingIn:)`.
    public static func loadPNG(path: String, fittingIn maxSide: Int = .max) -> RGBAImage? {
        FileBytes.whole(path, limit: 64 << 20).flatMap { loadPNG(data: $0, fittingIn: maxSide) }
    }

    /// Decodes a PNG file's bytes into straight RGBA, shrunk (box filter, aspect kept) so neither side
    /// exceeds `maxSide`; nil when they are not a readable PNG. The caller checks the declared
    /// dimensions first (`pngSize`). From memory, never by name: nothing here opens a file.
    public static func loadPNG(data: [UInt8], fittingIn maxSide: Int = .max) -> RGBAImage? {
        final class Reader {
            let data: [UInt8]
            var offset = 0
            init(_ data: [UInt8]) { self.data = data }
        }
        let reader = Reader(data)
        let surface = withExtendedLifetime(reader) { () -> OpaquePointer? in
            cairo_image_surface_create_from_png_stream({ closure, buffer, length in
                let reader = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
                let count = Int(length)
                guard let buffer, reader.offset + count <= reader.data.count else { return CAIRO_STATUS_READ_ERROR }
                reader.data.withUnsafeBufferPointer { (buffer + 0).update(from: $0.baseAddress! + reader.offset, count: count) }
                reader.offset += count
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { return nil }
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
        // cairo's pixels are native-endian premultiplied ARGB, as the box filter wants them.
        let raw = UnsafeRawPointer(data)
        var image = BoxFilter.shrink(width: width, height: height,
                                     to: BoxFilter.fitted(width: width, height: height, maxSide: maxSide)) { x, y in
            let argb = raw.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
            return (Int((argb >> 16) & 0xff), Int((argb >> 8) & 0xff), Int(argb & 0xff), opaque ? 255 : Int(argb >> 24))
        }
        if let tint {
            let colour = [tint.red, tint.green, tint.blue].map { UInt8(($0 * 255).rounded()) }
            for i in Swift.stride(from: 0, to: image.pixels.count, by: 4) {
                image.pixels.replaceSubrange(i..<i + 3, with: colour)
                image.pixels[i + 3] = UInt8((Double(image.pixels[i + 3]) * tint.alpha).rounded())
            }
        }
        return image
    }
}
