internal import CCairo
import Glibc
internal import CRsvg
import ToastRender
import ToastVocabulary

/// SVG pictures (most icon themes, and an `image-path` naming an .svg), rendered by librsvg straight
/// into a cairo surface of the pixel size the toast shows them at: sharp at any output scale, and never
/// larger than that whatever the file declares.
///
/// What bounds the work: the file is at most `maxBytes` and read from memory (no base file, so no
/// `<image>` or external reference loads anything else); a declared size over `maxDeclaredSide` a
/// side is refused; the surface is `side` pixels at most. librsvg's own limits apply, as the handle is
/// made without `RSVG_HANDLE_FLAG_UNLIMITED`: libxml2 refuses elements nested deeper than 256 levels
/// and text nodes over 10 MB, and librsvg stops loading after 1,000,000 elements and stops a render
/// after 500,000 elements referenced through `<use>` and other URL references (the SVG "billion
/// laughs"), failing with an error instead. Rendering up to that bound takes seconds, so files with
/// more than `maxUseElements` `<use>` elements are refused here: however they nest, 32 references
/// expand to at most ~65,000 shapes (2^16), a fraction of a second. Anything but a small plain file is
/// still rendered on the picture worker (`isSimple`).
public enum SVGFile {
    /// Larger files are refused: a colour app icon is a few dozen kilobytes, a symbolic one one or two.
    public static let maxBytes = 1 << 20
    /// A declared width or height over this is refused, as for PNG files.
    public static let maxDeclaredSide = 16_384.0
    /// Files up to this size with none of `expensiveElements` are rendered on the loop.
    public static let simpleBytes = 16 << 10
    /// Elements whose cost is not bounded by the file's size: references (`use`, patterns, markers),
    /// filters (a blur costs per pixel per element), embedded pictures.
    static let expensiveElements = ["<use", "<pattern", "<marker", "<filter", "<image", "<mask", "<!ENTITY"]

    /// More `<use>` elements than this are refused (icons use a handful, most none).
    public static let maxUseElements = 32

    /// Why an SVG shows no picture, for the log.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case tooLargeAFile(bytes: Int)
        case unreadable(String)
        case noSize
        case tooLarge(width: Double, height: Double)
        case tooManyReferences(Int)

        public var description: String {
            switch self {
            case .tooLargeAFile(let bytes): "\(bytes) bytes, over the \(SVGFile.maxBytes >> 10) KiB limit for SVG files"
            case .unreadable(let message): "not a usable SVG file (\(message))"
            case .noSize: "the SVG declares neither a size nor a viewBox"
            case .tooLarge(let width, let height):
                "the SVG declares \(Int(width))×\(Int(height)), over the limit (\(Int(SVGFile.maxDeclaredSide)) px a side); refused"
            case .tooManyReferences(let count):
                "the SVG has \(count) <use> elements, over the limit (\(SVGFile.maxUseElements)); refused"
            }
        }
    }

    /// Whether `data` starts like an SVG (or any XML) file: how a file named without .svg is told apart.
    public static func looksLikeSVG(_ data: [UInt8]) -> Bool {
        let head = data.prefix(512).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        return head.starts(with: Array("<?xml".utf8)) || head.starts(with: Array("<svg".utf8))
            || head.starts(with: Array("<!--".utf8)) || head.starts(with: Array("<!DOCTYPE".utf8))
    }

    /// Whether `data` is small and plain enough to render on the loop (well under a millisecond).
    public static func isSimple(_ data: [UInt8]) -> Bool {
        guard data.count <= simpleBytes else { return false }
        let text = String(decoding: data, as: UTF8.self)
        return !expensiveElements.contains { text.contains($0) }
    }

    /// `data` rendered to fit a `side` × `side` square (aspect kept), as straight RGBA; with `tint`,
    /// recoloured to it keeping only the coverage (a symbolic icon in the text colour).
    public static func render(_ data: [UInt8], side: Int, tint: Color? = nil) -> Result<RGBAImage, Problem> {
        guard data.count <= maxBytes else { return .failure(.tooLargeAFile(bytes: data.count)) }
        guard side > 0, side <= 4096 else { return .failure(.unreadable("bad target size \(side)")) }
        let uses = useElements(data)
        guard uses <= maxUseElements else { return .failure(.tooManyReferences(uses)) }
        guard let rsvg = Librsvg.shared else { return .failure(.unreadable("librsvg is not installed")) }
        var error: UnsafeMutablePointer<GError>?
        let handle = data.withUnsafeBufferPointer { rsvg.newFromData($0.baseAddress, gsize($0.count), &error) }
        guard let handle else { return .failure(.unreadable(take(error))) }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }

        // The aspect ratio and the declared size: from width and height in pixels when absolute,
        // otherwise from the viewBox.
        var width = 0.0, height = 0.0
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var lengthW = RsvgLength(), lengthH = RsvgLength(), viewBox = RsvgRectangle()
        rsvg.intrinsicDimensions(handle, &hasWidth, &lengthW, &hasHeight, &lengthH, &hasViewBox, &viewBox)
        if rsvg.intrinsicSizeInPixels(handle, &width, &height) == 0 || width <= 0 || height <= 0 {
            guard hasViewBox != 0 else { return .failure(.noSize) }
            width = viewBox.width
            height = viewBox.height
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return .failure(.noSize) }
        if width > maxDeclaredSide || height > maxDeclaredSide
            || (hasViewBox != 0 && (viewBox.width > maxDeclaredSide * 16 || viewBox.height > maxDeclaredSide * 16)) {
            return .failure(.tooLarge(width: max(width, viewBox.width), height: max(height, viewBox.height)))
        }
        let fit = Double(side) / max(width, height)
        let pixelsWide = max(1, Int((width * fit).rounded())), pixelsHigh = max(1, Int((height * fit).rounded()))

        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelsWide), Int32(pixelsHigh)) else {
            return .failure(.unreadable("no memory"))
        }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return .failure(.unreadable("no memory")) }
        defer { cairo_destroy(cr) }
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(pixelsWide), height: Double(pixelsHigh))
        guard rsvg.renderDocument(handle, cr, &viewport, &error) != 0 else {
            return .failure(.unreadable(take(error)))
        }
        guard let image = ImageFile.image(of: surface, fittingIn: side, tint: tint) else {
            return .failure(.unreadable("rendering failed"))
        }
        return .success(image)
    }

    /// How many `<use` (any namespace prefix: `<svg:use`) the file holds.
    static func useElements(_ data: [UInt8]) -> Int {
        var count = 0, index = 0
        let u = UInt8(ascii: "u"), s = UInt8(ascii: "s"), e = UInt8(ascii: "e")
        while index + 4 < data.count {
            if data[index + 1] == u, data[index + 2] == s, data[index + 3] == e,
               data[index] == UInt8(ascii: "<") || data[index] == UInt8(ascii: ":"),
               [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">")].contains(data[index + 4]) {
                count += 1
            }
            index += 1
        }
        return count
    }

    /// A GError's message, freed.
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// librsvg, loaded at the first SVG rather than at start: it and what it pulls in (gio, gdk-pixbuf,
/// libxml2) add ~4 MB of resident pages to a daemon that may never see an SVG. Loaded once, never
/// unloaded; nil when the library is not installed (SVGs then show no picture).
struct Librsvg: Sendable {
    typealias NewFromData = @convention(c) (UnsafePointer<guint8>?, gsize,
                                            UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> UnsafeMutablePointer<RsvgHandle>?
    typealias IntrinsicDimensions = @convention(c) (UnsafeMutablePointer<RsvgHandle>?, UnsafeMutablePointer<gboolean>?,
                                                    UnsafeMutablePointer<RsvgLength>?, UnsafeMutablePointer<gboolean>?,
                                                    UnsafeMutablePointer<RsvgLength>?, UnsafeMutablePointer<gboolean>?,
                                                    UnsafeMutablePointer<RsvgRectangle>?) -> Void
    typealias IntrinsicSizeInPixels = @convention(c) (UnsafeMutablePointer<RsvgHandle>?, UnsafeMutablePointer<gdouble>?,
                                                      UnsafeMutablePointer<gdouble>?) -> gboolean
    typealias RenderDocument = @convention(c) (UnsafeMutablePointer<RsvgHandle>?, OpaquePointer?, UnsafePointer<RsvgRectangle>?,
                                               UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> gboolean

    let newFromData: NewFromData
    let intrinsicDimensions: IntrinsicDimensions
    let intrinsicSizeInPixels: IntrinsicSizeInPixels
    let renderDocument: RenderDocument

    /// Loaded on first use (a lazily initialised constant: thread-safe, never changed after).
    static let shared: Librsvg? = load()

    private static func load() -> Librsvg? {
        guard let library = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, _: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let newFromData = symbol("rsvg_handle_new_from_data", NewFromData.self),
              let intrinsicDimensions = symbol("rsvg_handle_get_intrinsic_dimensions", IntrinsicDimensions.self),
              let intrinsicSizeInPixels = symbol("rsvg_handle_get_intrinsic_size_in_pixels", IntrinsicSizeInPixels.self),
              let renderDocument = symbol("rsvg_handle_render_document", RenderDocument.self) else { return nil }
        return Librsvg(newFromData: newFromData, intrinsicDimensions: intrinsicDimensions,
                       intrinsicSizeInPixels: intrinsicSizeInPixels, renderDocument: renderDocument)
    }
}
