import Glibc
import ToastCore
import ToastRender
import ToastVocabulary

/// Turns what a notification names as its picture into small pixels: `image-data` is shrunk, and a
/// PNG named by `image-path` or `app_icon` (a path, a `file://` URI or an icon name looked up in the
/// icon theme) is decoded, so the model holds icon-sized pixels only.
struct PictureLoader {
    /// The largest side kept: icon size (48 px) at scale 4, with room to spare.
    static let maxPictureSide = 256
    /// Files larger than this are not read (a PNG icon is a few kilobytes).
    static let maxFileBytes = 16 << 20

    /// Icon names to PNG files, cached.
    private(set) var icons: IconTheme

    init(icons: IconTheme) {
        self.icons = icons
    }

    /// `request` with its picture resolved to pixels, or none when it names nothing usable (a path
    /// that is not a regular, readable, sanely sized PNG shows no picture; nothing blocks on a FIFO or
    /// a device). `image-path` wins over `app_icon`, as the specification orders them.
    mutating func resolvePicture(of request: NotificationRequest) -> NotificationRequest {
        var request = request
        switch request.image {
        case .pixels(let image):
            request.image = .pixels(image.downscaled(toFit: Self.maxPictureSide))
        case .path(let path):
            let file = IconTheme.isIconName(path) ? icons.path(forIconNamed: path) : path
            request.image = file.flatMap(Self.loadPicture).map { .pixels($0) }
        case nil:
            let icon = request.appIcon
            let file = IconTheme.isIconName(icon) ? icons.path(forIconNamed: icon)
                : (icon.hasPrefix("/") || icon.hasPrefix("file://")) ? HintInterpreter.path(fromImagePath: icon) : nil
            request.image = file.flatMap(Self.loadPicture).map { .pixels($0) }
        }
        return request
    }

    private static func loadPicture(_ path: String) -> ToastVocabulary.RGBAImage? {
        var info = stat()
        guard path.hasPrefix("/"), stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              info.st_size > 0, info.st_size <= maxFileBytes, access(path, R_OK) == 0,
              let image = ImageFile.loadPNG(path: path) else {
            Log.warning("image \(path): not a readable PNG file; showing no picture")
            return nil
        }
        return ToastVocabulary.RGBAImage(width: image.width, height: image.height, pixels: image.pixels)
            .downscaled(toFit: maxPictureSide)
    }
}
