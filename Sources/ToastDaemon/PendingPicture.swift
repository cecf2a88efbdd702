import CLinux
import Glibc
import ToastPictures
import ToastRender
import ToastVocabulary

/// A picture on its way to the picture helper: the one descriptor the helper is given (a file the
/// daemon opened, or a memfd holding `image-data` pixels), what to ask of it, and what it costs to
/// hold (counted against `PictureLimits.maxPendingBytes`). Closed when the last reference goes.
final class PendingPicture {
    let fd: Int32
    /// The bytes held for it: the file's size, or the memfd's.
    let bytes: Int
    /// What the helper is asked (its ticket is set when it is submitted).
    var request: PictureRequest
    /// What identifies the file's contents, for the decoded-picture cache; nil for pixels.
    let cacheKey: PictureCache.Key?

    private init(fd: Int32, bytes: Int, request: PictureRequest, cacheKey: PictureCache.Key?) {
        self.fd = fd
        self.bytes = bytes
        self.request = request
        self.cacheKey = cacheKey
    }

    deinit { close(fd) }

    /// Why a file is not handed to the helper, for the log.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case notAFile
        case tooLargeAFile(bytes: Int)
        case noMemory

        var description: String {
            switch self {
            case .notAFile: "not a readable regular file"
            case .tooLargeAFile(let bytes): "\(bytes) bytes, over the \(PictureLimits.maxFileBytes >> 20) MiB limit"
            case .noMemory: "no memory to pass it on"
            }
        }
    }

    /// The file at `path`, opened once, without blocking and without a controlling terminal, then
    /// checked on the descriptor (`fstat`): a regular file of sane size. What the path names is looked
    /// at only through that descriptor, so a name flipped between a picture and a FIFO or device can
    /// never make the daemon wait; the helper is given the descriptor, never the name.
    static func file(_ path: String, svgSide: Int, tint: Color?) -> Result<PendingPicture, Problem> {
        var info = stat()
        // A first look by name spares opening a device or FIFO in the usual case; the check that
        // counts is the one on the descriptor.
        guard path.hasPrefix("/"), stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.notAFile) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .failure(.notAFile) }
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else {
            close(fd)
            return .failure(.notAFile)
        }
        guard info.st_size <= PictureLimits.maxFileBytes else {
            close(fd)
            return .failure(.tooLargeAFile(bytes: Int(info.st_size)))
        }
        let request = PictureRequest(kind: .file, ticket: 0, maxSide: PictureLimits.maxPictureSide, svgSide: svgSide, tint: tint)
        let key = PictureCache.Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
                                   modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
                                   svgSide: svgSide, tint: tint)
        return .success(PendingPicture(fd: fd, bytes: Int(info.st_size), request: request, cacheKey: key))
    }

    /// `image-data` pixels still in their message, for a memfd they are copied into off the loop
    /// (`PictureWorker`; copying 33 MB held the loop 20–50 ms): the message is kept (`unfilled`)
    /// until then, and let go of on the loop.
    static func pixels(_ image: ReceivedImage) -> PendingPicture? {
        let needed = image.rowstride * (image.height - 1) + image.width * image.channels
        guard needed <= image.bytes.count else { return nil }
        let fd = memfd_create("toastd-image-data", CLINUX_MFD_CLOEXEC)
        guard fd >= 0 else { return nil }
        var request = PictureRequest(kind: .pixels, ticket: 0, maxSide: PictureLimits.maxPictureSide)
        (request.width, request.height, request.rowstride, request.channels) = (image.width, image.height, image.rowstride, image.channels)
        let picture = PendingPicture(fd: fd, bytes: needed, request: request, cacheKey: nil)
        picture.unfilled = image
        return picture
    }

    /// The message whose pixels are still to be copied into `fd`; nil once they are (or for a file).
    var unfilled: ReceivedImage?

    /// Copies `count` bytes from `base` into the memfd `fd`: on the worker's copying thread.
    static func fill(_ fd: Int32, from base: UnsafeRawPointer, count: Int) -> Bool {
        var done = 0
        while done < count {
            let written = write(fd, base + done, count - done)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            done += written
        }
        return true
    }

    /// Packed RGBA pixels, copied into a memfd.
    static func pixels(_ image: RGBAImage) -> PendingPicture? {
        guard image.pixels.count >= image.width * image.height * 4 else { return nil }
        return image.pixels.withUnsafeBytes {
            pixels($0, width: image.width, height: image.height, rowstride: image.width * 4, channels: 4)
        }
    }

    private static func pixels(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, rowstride: Int, channels: Int) -> PendingPicture? {
        let fd = memfd_create("toastd-image-data", CLINUX_MFD_CLOEXEC)
        guard fd >= 0 else { return nil }
        var done = 0
        while done < bytes.count {
            let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            done += count
        }
        guard done == bytes.count else {
            close(fd)
            return nil
        }
        var request = PictureRequest(kind: .pixels, ticket: 0, maxSide: PictureLimits.maxPictureSide)
        (request.width, request.height, request.rowstride, request.channels) = (width, height, rowstride, channels)
        return PendingPicture(fd: fd, bytes: bytes.count, request: request, cacheKey: nil)
    }
}

/// Decoded pictures of files, by what identifies the file's contents (device, inode, size, time of
/// change) and how it was drawn: an app icon a toast after toast shows, or a HUD's icon, is decoded
/// once and then shown in the first frame. Bounded by bytes; failures are remembered too, so that a
/// broken icon is not sent to the helper again and again.
struct PictureCache {
    struct Key: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Int
        var svgSide: Int
        var tint: Color?
    }

    /// Decoded pixels kept, in bytes (16 icons of 256², or a few hundred of 48²).
    static let maxBytes = 4 << 20
    private var entries: [Key: RGBAImage?] = [:]
    private var order: [Key] = []
    private var bytes = 0
    /// Files sent to the helper and not answered yet.
    private(set) var requested: Set<Key> = []

    /// What is known of `key`: .some(image) decoded, .some(nil) failed, nil unknown.
    func lookup(_ key: Key) -> RGBAImage?? { entries[key] }

    mutating func markRequested(_ key: Key) { requested.insert(key) }

    mutating func remember(_ key: Key, _ image: RGBAImage?) {
        requested.remove(key)
        guard entries[key] == nil else { return }
        let cost = (image?.pixels.count ?? 0) + 64
        while bytes + cost > Self.maxBytes, !order.isEmpty {
            let oldest = order.removeFirst()
            bytes -= (entries.removeValue(forKey: oldest)??.pixels.count ?? 0) + 64
        }
        entries[key] = .some(image)
        order.append(key)
        bytes += cost
    }

    mutating func removeAll() {
        entries = [:]
        order = []
        bytes = 0
    }
}
