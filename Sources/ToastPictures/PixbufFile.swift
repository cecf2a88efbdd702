import Glibc
internal import CRsvg
import ToastRender
import ToastVocabulary

/// Pictures in the formats neither cairo nor librsvg reads: JPEG, GIF (its first frame), WebP when
/// its gdk-pixbuf loader is installed, XPM, BMP and PNM, decoded by gdk-pixbuf (which
/// librsvg already depends on), loaded with dlopen at the first such picture. Meant for the picture
/// worker thread: decoding a photo takes milliseconds to tens of them.
///
/// What bounds the work: only the formats `sniff` recognises by their first bytes are handed to
/// gdk-pixbuf (never an SVG, which is `SVGFile`'s, with its limits), and the dimensions the header
/// declares are read first (`declaredSize`: JPEG's SOF segment, GIF's screen, WebP's VP8 headers,
/// gdk-pixbuf's own header probe for the rest) and checked against the caller's limits before
/// anything is decoded. Larger pictures are decoded straight to `maxSide` (JPEG decodes at a
/// reduced scale then), never at full size.
public enum PixbufFile {
    /// The formats handed to gdk-pixbuf.
    public enum Format: String, Sendable {
        case jpeg, gif, webp, xpm, bmp, pnm
    }

    /// Why a picture shows no pixels, for the log.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case unknownFormat
        case noSize(Format)
        case tooManyPixels(Format, width: Int, height: Int)
        case unreadable(String)
        case noLibrary

        public var description: String {
            switch self {
            case .unknownFormat: "not a PNG, SVG, JPEG, GIF, WebP, XPM, BMP or PNM file"
            case .noSize(let format): "a \(format.rawValue.uppercased()) file whose header declares no size"
            case .tooManyPixels(let format, let width, let height):
                "a \(format.rawValue.uppercased()) file declaring \(width)×\(height), over the limit; refused before decoding"
            case .unreadable(let message): "not a readable picture (\(message))"
            case .noLibrary: "gdk-pixbuf is not installed"
            }
        }
    }

    /// How many of a file's first bytes `declaredSize` looks at: a JPEG's EXIF segment (before its SOF)
    /// is at most 64 KiB, a few of them fit.
    public static let headerBytes = 256 << 10

    /// The format a file's first bytes say it is, among those handed to gdk-pixbuf.
    public static func sniff(_ head: [UInt8]) -> Format? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("/* XPM */".utf8)) { return .xpm }
        if starts(Array("BM".utf8)), head.count >= 26 { return .bmp }
        if head.count >= 3, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(head[1]),
           [0x20, 0x09, 0x0A, 0x0D].contains(head[2]) { return .pnm }
        return nil
    }

    /// The width and height a file's header declares, read without decoding; nil when it declares none.
    public static func declaredSize(_ head: [UInt8], format: Format) -> (width: Int, height: Int)? {
        func le16(_ at: Int) -> Int { Int(head[at]) | Int(head[at + 1]) << 8 }
        func le24(_ at: Int) -> Int { le16(at) | Int(head[at + 2]) << 16 }
        func be16(_ at: Int) -> Int { Int(head[at]) << 8 | Int(head[at + 1]) }
        var size: (Int, Int)?
        switch format {
        case .jpeg:
            // Segments after SOI: FF, a marker, a big-endian length that counts itself. The first
            // start-of-frame (C0–CF but C4 DHT, C8 JPG, CC DAC) holds precision, height, width.
            var at = 2
            while at + 9 < head.count {
                guard head[at] == 0xFF else { return nil }
                let marker = head[at + 1]
                if marker == 0xFF { at += 1; continue }  // fill bytes
                if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }  // no length
                if marker == 0xD9 || marker == 0xDA { return nil }  // end, or scan data before any frame
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    size = (be16(at + 7), be16(at + 5))
                    break
                }
                at += 2 + be16(at + 2)
            }
        case .gif:
            if head.count >= 10 { size = (le16(6), le16(8)) }
        case .webp:
            guard head.count >= 30 else { return nil }
            switch String(decoding: head[12..<16], as: UTF8.self) {
            case "VP8 ": size = (le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            case "VP8L":
                let bits = UInt32(head[21]) | UInt32(head[22]) << 8 | UInt32(head[23]) << 16 | UInt32(head[24]) << 24
                size = (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
            case "VP8X": size = (le24(24) + 1, le24(27) + 1)
            default: return nil
            }
        case .bmp:
            guard head.count >= 26 else { return nil }
            func le32(_ at: Int) -> Int32 { Int32(bitPattern: UInt32(le16(at)) | UInt32(le16(at + 2)) << 16) }
            size = (Int(le32(18).magnitude), Int(le32(22).magnitude))  // a negative height is top-down
        case .xpm, .pnm:
            // XPM: the first C string holds "width height colours chars-per-pixel"; PNM: "P6 width height".
            let text = String(decoding: head.prefix(4096), as: UTF8.self)
            var numbers: [Int] = []
            if format == .xpm {
                guard let open = text.firstIndex(of: "{"), let quote = text[open...].firstIndex(of: "\"") else { return nil }
                let values = text[text.index(after: quote)...].prefix { $0 != "\"" }
                numbers = values.split(separator: " ").prefix(2).compactMap { Int($0) }
            } else {
                // Comments (#...) may sit between the fields.
                let fields = text.split(separator: "\n").map { $0.prefix { $0 != "#" } }.joined(separator: " ")
                numbers = fields.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).dropFirst().prefix(2)
                    .compactMap { Int($0) }
            }
            guard numbers.count == 2 else { return nil }
            size = (numbers[0], numbers[1])
        }
        guard let size, size.0 > 0, size.1 > 0 else { return nil }
        return size
    }

    /// The picture at `path` as straight RGBA no larger than `maxSide` a side (aspect kept), when its
    /// header declares at most `maxPixels` pixels and `maxDeclaredSide` a side. Reads the file's head,
    /// checks, then decodes: for the picture worker, not the loop.
    public static func load(path: String, fittingIn maxSide: Int, maxPixels: Int, maxDeclaredSide: Int)
        -> Result<RGBAImage, Problem>
    {
        guard let head = FileBytes.head(path, count: headerBytes) else { return .failure(.unreadable("cannot read the file")) }
        guard let format = sniff(head) else { return .failure(.unknownFormat) }
        guard let size = declaredSize(head, format: format) else { return .failure(.noSize(format)) }
        guard size.width <= maxDeclaredSide, size.height <= maxDeclaredSide, size.width * size.height <= maxPixels else {
            return .failure(.tooManyPixels(format, width: size.width, height: size.height))
        }
        guard let data = FileBytes.whole(path, limit: 64 << 20) else { return .failure(.unreadable("cannot read the file")) }
        return load(data: data, format: format, size: size, fittingIn: maxSide)
    }

    /// A file's bytes as straight RGBA, as `load(path:...)` checks them: sniffed, the declared size
    /// checked against the limits, then decoded. From memory: nothing here opens a file.
    public static func load(data: [UInt8], fittingIn maxSide: Int, maxPixels: Int, maxDeclaredSide: Int)
        -> Result<RGBAImage, Problem>
    {
        let head = Array(data.prefix(headerBytes))
        guard let format = sniff(head) else { return .failure(.unknownFormat) }
        guard let size = declaredSize(head, format: format) else { return .failure(.noSize(format)) }
        guard size.width <= maxDeclaredSide, size.height <= maxDeclaredSide, size.width * size.height <= maxPixels else {
            return .failure(.tooManyPixels(format, width: size.width, height: size.height))
        }
        return load(data: data, format: format, size: size, fittingIn: maxSide)
    }

    /// Loads gdk-pixbuf and the module of every format in `Format`, as the first picture of each would:
    /// in a process about to give up opening files (`PictureHelper.warmUp`).
    package static func loadAllFormats() {
        guard let gdk = Gdkpixbuf.shared else { return }
        for format in [Format.jpeg, .gif, .webp, .xpm, .bmp, .pnm] {
            var error: UnsafeMutablePointer<GError>?
            guard let loader = gdk.loaderNewWithType(format.rawValue, &error) else {
                if let error { g_error_free(error) }
                continue
            }
            var closeError: UnsafeMutablePointer<GError>?
            _ = gdk.loaderClose(loader, &closeError)
            if let closeError { g_error_free(closeError) }
            g_object_unref(UnsafeMutableRawPointer(loader))
        }
    }

    /// Decodes checked bytes.
    private static func load(data: [UInt8], format: Format, size: (width: Int, height: Int), fittingIn maxSide: Int)
        -> Result<RGBAImage, Problem>
    {
        guard let gdk = Gdkpixbuf.shared else { return .failure(.noLibrary) }
        // A loader for the format found, not gdk-pixbuf's own guess: that goes through the shared
        // MIME database, which a session may lack. Told the size to decode to, JPEG decodes at a
        // reduced scale.
        var error: UnsafeMutablePointer<GError>?
        guard let loader = gdk.loaderNewWithType(format.rawValue, &error) else {
            return .failure(.unreadable(take(error)))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        if size.width > maxSide || size.height > maxSide {
            let fitted = BoxFilter.fitted(width: size.width, height: size.height, maxSide: maxSide)
            gdk.loaderSetSize(loader, Int32(fitted.width), Int32(fitted.height))
        }
        let wrote = data.withUnsafeBufferPointer { gdk.loaderWrite(loader, $0.baseAddress, gsize($0.count), &error) }
        // Closed either way (a loader must be); a second error would overwrite the first's.
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk.loaderClose(loader, &closeError)
        guard wrote != 0, closed != 0, let pixbuf = gdk.loaderGetPixbuf(loader) else {
            if error == nil { return .failure(.unreadable(take(closeError))) }
            if let closeError { g_error_free(closeError) }
            return .failure(.unreadable(take(error)))
        }
        let width = Int(gdk.width(pixbuf)), height = Int(gdk.height(pixbuf))
        let stride = Int(gdk.rowstride(pixbuf)), channels = Int(gdk.channels(pixbuf))
        guard width > 0, height > 0, channels == 3 || channels == 4, gdk.bitsPerSample(pixbuf) == 8,
              let data = gdk.readPixels(pixbuf) else {
            return .failure(.unreadable("an unusual pixel layout"))
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let from = y * stride + x * channels, to = (y * width + x) * 4
                pixels[to] = data[from]; pixels[to + 1] = data[from + 1]; pixels[to + 2] = data[from + 2]
                if channels == 4 { pixels[to + 3] = data[from + 3] }
            }
        }
        // gdk-pixbuf may round a scaled size up by a pixel; shrink what is still over.
        return .success(RGBAImage(width: width, height: height, pixels: pixels).downscaled(toFit: maxSide))
    }

    /// The whole file (the caller checked it is a regular file of sane size).
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}

/// gdk-pixbuf, loaded at the first picture that needs it, as librsvg is (`Librsvg`): a daemon that
/// only ever sees PNG icons never maps it. Loaded once, never unloaded; nil when not installed.
struct Gdkpixbuf: Sendable {
    typealias LoaderNewWithType = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> OpaquePointer?
    typealias LoaderSetSize = @convention(c) (OpaquePointer?, Int32, Int32) -> Void
    typealias LoaderWrite = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, gsize,
                                            UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> gboolean
    typealias LoaderClose = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> gboolean
    typealias LoaderGetPixbuf = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias IntGetter = @convention(c) (OpaquePointer?) -> Int32
    typealias ReadPixels = @convention(c) (OpaquePointer?) -> UnsafePointer<UInt8>?

    let loaderNewWithType: LoaderNewWithType
    let loaderSetSize: LoaderSetSize
    let loaderWrite: LoaderWrite
    let loaderClose: LoaderClose
    let loaderGetPixbuf: LoaderGetPixbuf
    let width: IntGetter
    let height: IntGetter
    let rowstride: IntGetter
    let channels: IntGetter
    let bitsPerSample: IntGetter
    let readPixels: ReadPixels

    /// Loaded on first use (a lazily initialised constant: thread-safe, never changed after).
    static let shared: Gdkpixbuf? = load()

    private static func load() -> Gdkpixbuf? {
        guard let library = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, _: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let loaderNewWithType = symbol("gdk_pixbuf_loader_new_with_type", LoaderNewWithType.self),
              let loaderSetSize = symbol("gdk_pixbuf_loader_set_size", LoaderSetSize.self),
              let loaderWrite = symbol("gdk_pixbuf_loader_write", LoaderWrite.self),
              let loaderClose = symbol("gdk_pixbuf_loader_close", LoaderClose.self),
              let loaderGetPixbuf = symbol("gdk_pixbuf_loader_get_pixbuf", LoaderGetPixbuf.self),
              let width = symbol("gdk_pixbuf_get_width", IntGetter.self),
              let height = symbol("gdk_pixbuf_get_height", IntGetter.self),
              let rowstride = symbol("gdk_pixbuf_get_rowstride", IntGetter.self),
              let channels = symbol("gdk_pixbuf_get_n_channels", IntGetter.self),
              let bitsPerSample = symbol("gdk_pixbuf_get_bits_per_sample", IntGetter.self),
              let readPixels = symbol("gdk_pixbuf_read_pixels", ReadPixels.self) else { return nil }
        return Gdkpixbuf(loaderNewWithType: loaderNewWithType, loaderSetSize: loaderSetSize, loaderWrite: loaderWrite,
                         loaderClose: loaderClose, loaderGetPixbuf: loaderGetPixbuf, width: width, height: height,
                         rowstride: rowstride, channels: channels, bitsPerSample: bitsPerSample, readPixels: readPixels)
    }
}
