import Glibc
import ToastCore
import ToastPlatform
import ToastRender
import ToastVocabulary

/// Turns what a notification names as its picture into small pixels, without holding up the loop:
/// `image-data` is shrunk, and a PNG or SVG named by `image-path` or `app_icon` (a path, a `file://` URI
/// or an icon name looked up in the icon theme) is decoded or rendered. Icons and small pictures are
/// done at once; a large PNG or an SVG that is not small and plain is left to the `PictureWorker` (the
/// toast shows without it until it is ready); a PNG whose header declares more than `maxDecodePixels`
/// is refused before anything is decoded, an SVG declaring more than `SVGFile.maxDeclaredSide` before
/// it is rendered.
struct PictureLoader {
    /// What pictures are made for: the picture box in pixels (its side in logical pixels × the output
    /// scale) and the colour a symbolic icon takes.
    struct Target: Equatable {
        /// The picture box's side in logical pixels (`ToastStyle.imageSize`).
        var size = 48
        /// The largest output scale: an SVG is rendered at `size × scale` pixels, sharp at 2×.
        var scale = 1
        /// The text colour: a `-symbolic` icon is drawn in it.
        var tint = Color(rgb: 0xffffff)
        /// Whether pictures are drawn at all (`icons`, or a rule turning them on): when not, nothing
        /// is looked up or decoded.
        var wanted = true

        /// The side an SVG is rendered at, in pixels.
        var side: Int { max(1, min(PictureLoader.maxPictureSide, size * scale)) }
    }

    /// The largest side kept: icon size (48 px) at scale 4, with room to spare.
    static let maxPictureSide = 256
    /// Files larger than this are not read (a PNG icon is a few kilobytes, a 4K screenshot a few MB).
    static let maxFileBytes = 16 << 20
    /// Pictures up to this many pixels are decoded or shrunk on the loop (well under a millisecond).
    static let inlinePixels = 512 * 512
    /// Pictures declaring more pixels than this are refused: decoding allocates four bytes a pixel
    /// whatever the file's size (a 6K screenshot, 6016×3384, is 20.4 million).
    static let maxDecodePixels = 24_000_000
    /// Nor more than this on a side.
    static let maxDecodeSide = 16_384

    /// Icon names to PNG and SVG files, cached; replaced at a configuration reload.
    var icons: IconTheme

    init(icons: IconTheme) {
        self.icons = icons
    }

    /// `request` with its picture resolved: pixels now, or none now and the work for the worker
    /// (`pending`). `image-path` wins over `app_icon`, as the specification orders them; with neither
    /// (or an `app_icon` found nowhere), the `Icon=` of the `desktop-entry` hint's desktop file, or of
    /// the desktop file an `app_icon` names ("firefox", "org.gnome.Nautilus").
    ///
    /// `target` is asked for only when there is something to look up: a request with no picture, no
    /// `app_icon` and no `desktop-entry` (a burst's usual Notify) skips working out the outputs' scale.
    mutating func prepare(_ request: NotificationRequest, for target: @autoclosure () -> Target = Target())
        -> (request: NotificationRequest, pending: PictureWorker.Source?)
    {
        if request.image == nil && request.appIcon.isEmpty && request.desktopEntry == nil { return (request, nil) }
        let target = target()
        var request = request
        guard target.wanted else {
            request.image = nil
            return (request, nil)
        }
        var pending: PictureWorker.Source?
        switch request.image {
        case .pixels(let image) where image.width * image.height > Self.inlinePixels:
            request.image = nil
            pending = .pixels(image)
        case .pixels(let image):
            request.image = .pixels(image.downscaled(toFit: Self.maxPictureSide))
        case .received(let image):
            request.image = nil
            pending = .received(image)
        case .path(let path):
            let file = IconTheme.isIconName(path) ? icons.path(forIconNamed: path, size: target.size, scale: target.scale) : path
            (request.image, pending) = file.map { load($0, for: target) } ?? (nil, nil)
        case nil:
            let file = iconFile(request.appIcon, for: target)
                ?? request.desktopEntry.flatMap { icons.desktopEntryIcon($0) }.flatMap { iconFile($0, for: target) }
                ?? (IconTheme.isIconName(request.appIcon) ? icons.desktopEntryIcon(request.appIcon).flatMap { iconFile($0, for: target) } : nil)
            (request.image, pending) = file.map { load($0, for: target) } ?? (nil, nil)
        }
        return (request, pending)
    }

    /// The file an `app_icon` or a desktop entry's `Icon=` names: an icon name looked up in the
    /// theme, or an absolute path or `file://` URI.
    private mutating func iconFile(_ icon: String, for target: Target) -> String? {
        if IconTheme.isIconName(icon) { return icons.path(forIconNamed: icon, size: target.size, scale: target.scale) }
        return (icon.hasPrefix("/") || icon.hasPrefix("file://")) ? HintInterpreter.path(fromImagePath: icon) : nil
    }

    /// A PNG or SVG file as pixels now (small), as work for the worker (large), or nothing (refused).
    private func load(_ path: String, for target: Target) -> (NotificationImage?, PictureWorker.Source?) {
        switch Self.check(path) {
        case .failure(.notAPNG):
            // Another format gdk-pixbuf reads (JPEG, GIF, WebP, XPM, ...): checked and decoded on the
            // worker, whatever its size; an SVG or anything else here.
            if let head = FileBytes.head(path, count: 32), PixbufFile.sniff(head) != nil { return (nil, .decoded(path)) }
            return loadSVG(path, for: target)
        case .failure(let problem):
            Log.warning("image \(path): \(problem); showing no picture")
            return (nil, nil)
        case .success(let size) where size.width * size.height > Self.inlinePixels:
            return (nil, .file(path))
        case .success:
            guard let image = ImageFile.loadPNG(path: path, fittingIn: Self.maxPictureSide) else {
                Log.warning("image \(path): not a readable PNG file; showing no picture")
                return (nil, nil)
            }
            return (.pixels(image), nil)
        }
    }

    /// An SVG file rendered now (small and plain), handed to the worker, or nothing (refused). A
    /// `-symbolic` icon is recoloured to the text colour, as GTK draws them.
    private func loadSVG(_ path: String, for target: Target) -> (NotificationImage?, PictureWorker.Source?) {
        guard let data = FileBytes.whole(path, limit: SVGFile.maxBytes) else {
            Log.warning("image \(path): not a PNG, JPEG or other known format, nor an SVG file under \(SVGFile.maxBytes >> 10) KiB; showing no picture")
            return (nil, nil)
        }
        guard SVGFile.looksLikeSVG(data) else {
            Log.warning("image \(path): \(PixbufFile.Problem.unknownFormat); showing no picture")
            return (nil, nil)
        }
        let tint = Self.isSymbolic(path) ? target.tint : nil
        guard SVGFile.isSimple(data) else { return (nil, .svg(data, side: target.side, tint: tint)) }
        switch SVGFile.render(data, side: target.side, tint: tint) {
        case .success(let image): return (.pixels(image), nil)
        case .failure(let problem):
            Log.warning("image \(path): \(problem); showing no picture")
            return (nil, nil)
        }
    }

    /// A small icon made now, on the loop, for a HUD: `name` (an icon name looked up in the theme
    /// at `side` pixels, or an absolute path) as a PNG of at most `inlinePixels` or a small plain SVG
    /// rendered `side` pixels wide or high, a `-symbolic` one recoloured to `tint`. Anything dearer,
    /// or nothing found: nil (the HUD draws its own glyph instead).
    mutating func smallIcon(_ name: String, side: Int, tint: Color) -> RGBAImage? {
        let side = max(1, min(side, Self.maxPictureSide))
        let file = IconTheme.isIconName(name) ? icons.path(forIconNamed: name, size: side, scale: 1)
            : name.hasPrefix("/") || name.hasPrefix("file://") ? HintInterpreter.path(fromImagePath: name) : nil
        guard let file else { return nil }
        switch Self.check(file) {
        case .success(let size) where size.width * size.height <= Self.inlinePixels:
            return ImageFile.loadPNG(path: file, fittingIn: side)
        case .failure(.notAPNG):
            guard let data = FileBytes.whole(file, limit: SVGFile.simpleBytes), SVGFile.looksLikeSVG(data),
                  SVGFile.isSimple(data) else { return nil }
            return try? SVGFile.render(data, side: side, tint: Self.isSymbolic(file) ? tint : nil).get()
        default:
            return nil
        }
    }

    /// Whether the file is a symbolic icon (drawn in one colour, meant to take the text's).
    static func isSymbolic(_ path: String) -> Bool {
        path.hasSuffix("-symbolic.svg")
    }

    /// Why a picture file is not decoded, for the log.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case notAFile
        case tooLargeAFile(bytes: Int)
        case notAPNG
        case tooManyPixels(width: Int, height: Int)

        var description: String {
            switch self {
            case .notAFile: "not a readable regular file"
            case .tooLargeAFile(let bytes): "\(bytes) bytes, over the \(PictureLoader.maxFileBytes >> 20) MiB limit"
            case .notAPNG: "not a PNG file"
            case .tooManyPixels(let width, let height):
                "\(width)×\(height) is over the limit (\(PictureLoader.maxDecodeSide) px a side, "
                    + "\(PictureLoader.maxDecodePixels / 1_000_000) million pixels); refused before decoding"
            }
        }
    }

    /// What a file declares, checked before anything is decoded: a regular, readable file (nothing
    /// blocks on a FIFO or a device) of sane size whose PNG header declares sane dimensions.
    static func check(_ path: String) -> Result<(width: Int, height: Int), Problem> {
        var info = stat()
        guard path.hasPrefix("/"), stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
              access(path, R_OK) == 0 else { return .failure(.notAFile) }
        guard info.st_size <= maxFileBytes else { return .failure(.tooLargeAFile(bytes: Int(info.st_size))) }
        guard let size = ImageFile.pngSize(path: path) else { return .failure(.notAPNG) }
        guard size.width <= maxDecodeSide, size.height <= maxDecodeSide,
              size.width * size.height <= maxDecodePixels else {
            return .failure(.tooManyPixels(width: size.width, height: size.height))
        }
        return .success(size)
    }
}
