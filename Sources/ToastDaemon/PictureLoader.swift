import Glibc
import ToastCore
import ToastRender
import ToastVocabulary

/// Turns what a notification names as its picture into small pixels, without holding up the loop:
/// `image-data` is shrunk, and a PNG named by `image-path` or `app_icon` (a path, a `file://` URI or an
/// icon name looked up in the icon theme) is decoded. Icons and small pictures are done at once; a
/// large one is left to the `PictureWorker` (the toast shows without it until it is ready); one whose
/// header declares more than `maxDecodePixels` is refused before anything is decoded.
struct PictureLoader {
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

    /// Icon names to PNG files, cached.
    private(set) var icons: IconTheme

    init(icons: IconTheme) {
        self.icons = icons
    }

    /// `request` with its picture resolved: pixels now, or none now and the work for the worker
    /// (`pending`). `image-path` wins over `app_icon`, as the specification orders them.
    mutating func prepare(_ request: NotificationRequest) -> (request: NotificationRequest, pending: PictureWorker.Source?) {
        var request = request
        var pending: PictureWorker.Source?
        switch request.image {
        case .pixels(let image) where image.width * image.height > Self.inlinePixels:
            request.image = nil
            pending = .pixels(image)
        case .pixels(let image):
            request.image = .pixels(image.downscaled(toFit: Self.maxPictureSide))
        case .path(let path):
            let file = IconTheme.isIconName(path) ? icons.path(forIconNamed: path) : path
            (request.image, pending) = file.map(load) ?? (nil, nil)
        case nil:
            let icon = request.appIcon
            let file = IconTheme.isIconName(icon) ? icons.path(forIconNamed: icon)
                : (icon.hasPrefix("/") || icon.hasPrefix("file://")) ? HintInterpreter.path(fromImagePath: icon) : nil
            (request.image, pending) = file.map(load) ?? (nil, nil)
        }
        return (request, pending)
    }

    /// A PNG file as pixels now (small), as work for the worker (large), or nothing (refused).
    private func load(_ path: String) -> (NotificationImage?, PictureWorker.Source?) {
        switch Self.check(path) {
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
