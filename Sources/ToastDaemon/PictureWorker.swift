import CLinux
import Dispatch
import Glibc
import Synchronization
import ToastCore
import ToastPlatform
import ToastRender
import ToastVocabulary

/// Decodes and shrinks large pictures, decodes JPEG, GIF and the other gdk-pixbuf formats, and renders SVG
/// files that are not small and plain, off the loop, on one worker thread, so a 4K screenshot named by
/// `image-path` never holds up a HUD, a spinner or another client's call. Results come back through
/// an eventfd the loop watches (`fd`); the loop takes them with `takeFinished()`.
final class PictureWorker {
    /// What to turn into an icon-sized picture.
    enum Source: Sendable {
        /// A PNG file whose header was already checked.
        case file(String)
        /// Pixels larger than a toast shows.
        case pixels(RGBAImage)
        /// A file in another format gdk-pixbuf reads (JPEG, GIF, ...): its header is checked on the
        /// worker against the PNG limits, then it is decoded.
        case decoded(String)
        /// An SVG file's bytes, to render `side` pixels wide or high (recoloured to `tint` if given).
        case svg([UInt8], side: Int, tint: Color?)
        /// Pixels still in the D-Bus message they came in, unpacked and shrunk in one pass.
        case received(ReceivedImage)
    }

    /// One picture to make, for notification `id` as it was when `ticket` was handed out.
    struct Job: Sendable {
        var id: NotificationID
        var ticket: UInt64
        var source: Source
    }

    /// What the worker thread is given: a source, or a received picture it only borrows.
    private enum Work: Sendable {
        case source(Source)
        case borrowed(Borrowed)
    }

    /// A received picture the loop keeps alive (in `borrowed`) while the worker reads it.
    private struct Borrowed: @unchecked Sendable {
        let image: Unmanaged<ReceivedImage>
    }

    /// A finished job; `image` is nil when the file could not be decoded, and `problem` says why.
    struct Finished: Sendable {
        var id: NotificationID
        var ticket: UInt64
        var image: RGBAImage?
        var problem: String?
    }

    /// Readable when jobs have finished.
    let fd: Int32
    /// Jobs submitted whose results the loop has not taken yet (counted on the loop's thread).
    private(set) var jobsInFlight = 0
    private let queue = DispatchQueue(label: "toastd.pictures")
    /// Received pictures the worker is reading, by ticket: kept alive here, on the loop's thread,
    /// until their job is taken, so the message holding their bytes is never let go of elsewhere.
    private var borrowed: [UInt64: ReceivedImage] = [:]
    private let mailbox: Mailbox

    /// Finished jobs, written by the worker and taken by the loop.
    private final class Mailbox: Sendable {
        let finished = Mutex<[Finished]>([])
    }

    init() throws(SystemError) {
        fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        if fd < 0 { throw SystemError("eventfd") }
        mailbox = Mailbox()
    }

    deinit { close(fd) }

    /// Queues `job`; jobs run one at a time, in order.
    func submit(_ job: Job, maxSide: Int) {
        jobsInFlight += 1
        let mailbox = mailbox, fd = fd
        // The worker gets no reference to a received picture, only its bytes (`Borrowed`): the last
        // reference is always dropped here, by `takeFinished`.
        let work: Work
        if case .received(let image) = job.source {
            borrowed[job.ticket] = image
            work = .borrowed(Borrowed(image: Unmanaged.passUnretained(image)))
        } else {
            work = .source(job.source)
        }
        let (id, ticket) = (job.id, job.ticket)
        queue.async {
            var image: RGBAImage?, problem: String?
            switch work {
            case .borrowed(let borrowed):
                image = borrowed.image._withUnsafeGuaranteedRef { $0.shrunk(toFit: maxSide) }
            case .source(.received):
                preconditionFailure("received pictures are always borrowed")
            case .source(.file(let path)):
                image = ImageFile.loadPNG(path: path, fittingIn: maxSide)
            case .source(.pixels(let pixels)):
                image = pixels.downscaled(toFit: maxSide)
            case .source(.decoded(let path)):
                switch PixbufFile.load(path: path, fittingIn: maxSide, maxPixels: PictureLoader.maxDecodePixels,
                                       maxDeclaredSide: PictureLoader.maxDecodeSide) {
                case .success(let decoded): image = decoded
                case .failure(let failure): problem = failure.description
                }
            case .source(.svg(let data, let side, let tint)):
                switch SVGFile.render(data, side: min(side, maxSide), tint: tint) {
                case .success(let rendered): image = rendered
                case .failure(let failure): problem = failure.description
                }
            }
            let finished = Finished(id: id, ticket: ticket, image: image, problem: problem)
            mailbox.finished.withLock { $0.append(finished) }
            var one: UInt64 = 1
            _ = write(fd, &one, MemoryLayout<UInt64>.size)
        }
    }

    /// The jobs finished since the last call, in the order they were submitted.
    func takeFinished() -> [Finished] {
        var count: UInt64 = 0
        _ = read(fd, &count, MemoryLayout<UInt64>.size)
        let taken = mailbox.finished.withLock { finished in
            defer { finished.removeAll() }
            return finished
        }
        jobsInFlight -= taken.count
        for finished in taken { borrowed[finished.ticket] = nil }
        return taken
    }

    /// Whether the worker thread is idle: every job submitted has finished and been taken, so it
    /// touches no cairo state until the loop submits another.
    var isIdle: Bool {
        jobsInFlight == 0
    }
}
