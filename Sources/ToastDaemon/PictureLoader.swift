import Glibc
import ToastCore
import ToastPictures
import ToastPlatform
import ToastRender
import ToastVocabulary

/// Turns what a notification names as its picture into small pixels, without holding up the loop
/// and without decoding anything in the daemon: small `image-data` (already RGBA) is shrunk here;
/// larger `image-data` is copied into a memfd, and a PNG, JPEG or SVG named by `image-path` or
/// `app_icon` (a path, a `file://` URI or an icon name looked up in the icon theme) is opened once
/// and checked (`PendingPicture`), both for the picture helper to decode (`PictureWorker`): the toast
/// shows without it until it is ready. A file decoded before (an app's icon) comes from the cache
/// (`PictureCache`) at once.
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

    /// The largest side kept.
    static let maxPictureSide = PictureLimits.maxPictureSide
    /// `image-data` up to this many pixels is shrunk on the loop (well under a millisecond).
    static let inlinePixels = 512 * 512

    /// Icon names to PNG and SVG files, cached; replaced at a configuration reload (`replaceIcons`).
    private(set) var icons: IconTheme
    /// Pictures of files decoded before.
    var cache = PictureCache()

    /// A new icon search (configuration reload): what the old one found goes with it.
    mutating func replaceIcons(_ icons: IconTheme) {
        self.icons = icons
        cache.removeAll()
    }

    /// See `IconTheme.loadThemes`.
    mutating func loadIconThemes() {
        icons.loadThemes()
    }

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
        -> (request: NotificationRequest, pending: PendingPicture?)
    {
        if request.image == nil && request.appIcon.isEmpty && request.desktopEntry == nil { return (request, nil) }
        let target = target()
        var request = request
        guard target.wanted else {
            request.image = nil
            return (request, nil)
        }
        var pending: PendingPicture?
        switch request.image {
        case .pixels(let image) where image.width * image.height > Self.inlinePixels:
            request.image = nil
            pending = PendingPicture.pixels(image)
            if pending == nil { Log.warning("image-data \(image.width)×\(image.height): \(PendingPicture.Problem.noMemory); showing no picture") }
        case .pixels(let image):
            request.image = .pixels(image.downscaled(toFit: Self.maxPictureSide))
        case .received(let image):
            request.image = nil
            pending = PendingPicture.pixels(image)
            if pending == nil { Log.warning("image-data \(image.width)×\(image.height): \(PendingPicture.Problem.noMemory); showing no picture") }
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

    /// A picture file from the cache, or opened for the helper, or nothing (refused; logged).
    private func load(_ path: String, for target: Target) -> (NotificationImage?, PendingPicture?) {
        switch PendingPicture.file(path, svgSide: target.side, tint: Self.isSymbolic(path) ? target.tint : nil) {
        case .failure(let problem):
            Log.warning("image \(String(reflecting: path)): \(problem); showing no picture")
            return (nil, nil)
        case .success(let picture):
            switch picture.cacheKey.flatMap({ cache.lookup($0) }) {
            case .some(.some(let image)): return (.pixels(image), nil)
            case .some(.none): return (nil, nil)
            case .none: return (nil, picture)
            }
        }
    }

    /// A small icon for a HUD: `name` (an icon name looked up in the theme, or an absolute path) drawn
    /// `side` pixels wide on an output of `scale`, a `-symbolic` one recoloured to `tint`. From the cache
    /// when decoded before; otherwise nil now (the HUD draws its own glyph) and the file opened for the
    /// helper, unless it is already on its way.
    mutating func smallIcon(_ name: String, side: Int, scale: Int, tint: Color) -> (image: RGBAImage?, pending: PendingPicture?) {
        let side = max(1, min(side, Self.maxPictureSide))
        guard let file = smallIconFile(name, side: side, scale: scale), case .success(let picture) = PendingPicture.file(file, svgSide: side, tint: Self.isSymbolic(file) ? tint : nil),
              let key = picture.cacheKey else { return (nil, nil) }
        if let known = cache.lookup(key) { return (known, nil) }
        if cache.requested.contains(key) { return (nil, nil) }
        cache.markRequested(key)
        picture.request.maxSide = side
        return (nil, picture)
    }

    /// The file of a HUD icon `side` pixels wide at output `scale`: a name is looked up at the logical
    /// size on that scale, so a theme's `Scale=2` (`@2x`) directories serve a scale-2 output, as the
    /// icon theme specification orders (asked as `side` pixels at scale 1, a 36 px directory or the
    /// nearest size won over the 18@2 one).
    mutating func smallIconFile(_ name: String, side: Int, scale: Int) -> String? {
        let scale = max(1, scale)
        if IconTheme.isIconName(name) { return icons.path(forIconNamed: name, size: max(1, side / scale), scale: scale) }
        return name.hasPrefix("/") || name.hasPrefix("file://") ? HintInterpreter.path(fromImagePath: name) : nil
    }

    /// Whether the file is a symbolic icon (drawn in one colour, meant to take the text's).
    static func isSymbolic(_ path: String) -> Bool {
        path.hasSuffix("-symbolic.svg")
    }
}
