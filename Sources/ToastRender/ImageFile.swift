internal import CCairo

/// Pictures named by path (the `image-path` hint, an absolute `app_icon`): PNG files, decoded by cairo.
public enum ImageFile {
    /// Decodes the PNG at `path` into straight RGBA; nil when it is not a readable PNG. The caller
    /// checks first that it is a regular file of sane size: this reads it whole.
    public static func loadPNG(path: String) -> RGBAImage? {
        guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
                || cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24,
              let data = cairo_image_surface_get_data(surface) else { return nil }
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let opaque = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        guard width > 0, height > 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let raw = UnsafeRawPointer(data)
        for y in 0..<height {
            for x in 0..<width {
                // Native-endian premultiplied ARGB → straight RGBA.
                let argb = raw.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
                let a = opaque ? 255 : Int(argb >> 24)
                let i = (y * width + x) * 4
                if a > 0 {
                    pixels[i] = UInt8(min(255, Int((argb >> 16) & 0xff) * 255 / a))
                    pixels[i + 1] = UInt8(min(255, Int((argb >> 8) & 0xff) * 255 / a))
                    pixels[i + 2] = UInt8(min(255, Int(argb & 0xff) * 255 / a))
                }
                pixels[i + 3] = UInt8(a)
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
