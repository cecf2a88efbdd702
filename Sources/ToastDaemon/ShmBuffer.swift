import CLinux
import Glibc
import ToastRender
import ToastScene
import Wayland

/// One ARGB8888 wl_shm buffer in its own memfd mapping. `busy` from attach until the compositor's
/// `release`: the daemon never draws into a buffer the compositor may still read.
///
/// The memory outlives a size: a stack that grows or shrinks by a toast gets a new wl_buffer in the
/// same pool (`reshape`), grown in place when it must be. A fresh mapping for every size cost a
/// memfd, an mmap and a page fault per 4 KiB touched, several times in a burst.
final class ShmBuffer {
    private(set) var width: Int
    private(set) var height: Int
    private(set) var stride: Int
    private(set) var data: UnsafeMutableRawPointer
    /// The bytes mapped here and in the compositor's pool: at least `stride × height`.
    private(set) var capacity: Int
    private let fd: Int32
    private let pool: WlShmPool
    private var buffer: WlBuffer
    private(set) var busy = false
    /// What a painter last drew into this buffer (nil: unknown, e.g. a fresh or reshaped one), so
    /// that a frame that changes little can redraw only the part that changed.
    var content: PaintedFrame?
    /// Whether every pixel is zero: a fresh memfd's pages are, until the first draw (which
    /// `OverlaySurface` notes). A painter may then skip clearing what it redraws: for a toast after
    /// idle, clearing its fresh buffer was a fifth of the first frame's instructions.
    var isBlank = true

    /// Allocates a `width`×`height` buffer (buffer pixels, not logical ones); nil when memory is short.
    init?(shm: WlShm, width: Int, height: Int) {
        guard let byteCount = Self.byteCount(width: width, height: height) else { return nil }
        let fd = memfd_create("toastd-buffer", CLINUX_MFD_CLOEXEC)
        guard fd >= 0 else { return nil }
        // Populated at once: every page is drawn into anyway, and one mmap that maps them all costs
        // less than a fault per page, which a settled surface's next buffer would otherwise pay.
        guard ftruncate(fd, off_t(byteCount)) == 0,
              let mapping = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0),
              mapping != MAP_FAILED
        else {
            close(fd)
            return nil
        }
        // The pool and its fd stay open: the pool grows when a larger buffer is asked of this memory.
        self.fd = fd
        pool = shm.createPool(fd: fd, size: Int32(byteCount))
        (self.width, self.height, stride, capacity, data) = (width, height, width * 4, byteCount, mapping)
        buffer = pool.createBuffer(offset: 0, width: Int32(width), height: Int32(height),
                                   stride: Int32(width * 4), format: .argb8888)
        watchRelease()
    }

    deinit {
        buffer.destroy()
        pool.destroy()
        munmap(data, capacity)
        close(fd)
    }

    /// The bytes of a `width`×`height` buffer; nil for an empty or impossibly large one.
    private static func byteCount(width: Int, height: Int) -> Int? {
        guard width > 0, height > 0, width <= Int(Int32.max) / 4 / height else { return nil }
        return width * 4 * height
    }

    private func watchRelease() {
        buffer.onEvent = { [unowned self] event in
            if case .release = event { self.busy = false }
        }
    }

    /// Makes this memory a `width`×`height` buffer: a new wl_buffer in the same pool, which grows if it
    /// must (a pool never shrinks: a smaller buffer uses the front of it). Returns false, changing
    /// nothing, while the compositor holds the buffer or when memory is short. What it held is unknown after.
    func reshape(width: Int, height: Int) -> Bool {
        guard !busy, let byteCount = Self.byteCount(width: width, height: height) else { return false }
        if width == self.width && height == self.height { return true }
        if byteCount > capacity {
            guard ftruncate(fd, off_t(byteCount)) == 0,
                  let moved = clinux_mremap(data, capacity, byteCount, CLINUX_MREMAP_MAYMOVE), moved != MAP_FAILED
            else { return false }
            // The grown part is fresh memory the next frame draws into: populated in one call, as
            // `init`'s MAP_POPULATE does, not a fault per page as it is drawn.
            FreshPages.populate(moved + capacity, count: byteCount - capacity)
            data = moved
            capacity = byteCount
            pool.resize(size: Int32(byteCount))
        }
        buffer.destroy()
        buffer = pool.createBuffer(offset: 0, width: Int32(width), height: Int32(height),
                                   stride: Int32(width * 4), format: .argb8888)
        watchRelease()
        (self.width, self.height, stride) = (width, height, width * 4)
        content = nil
        // `isBlank` stays: the memory keeps what was drawn into it, and the part grown is zero.
        return true
    }

    /// The wl_buffer to attach; marks this buffer busy until the compositor releases it.
    func attach() -> WlBuffer {
        busy = true
        return buffer
    }
}

/// A buffer's pixels as the painter that drew them recorded them: a frame of the toast stack or of the HUD.
enum PaintedFrame {
    case toastStack(ToastStackFrame)
    case hud(HudFrame)

    /// The toast stack frame held, if that is what the buffer holds.
    var toastStack: ToastStackFrame? {
        if case .toastStack(let frame) = self { frame } else { nil }
    }

    /// The HUD frame held, if that is what the buffer holds.
    var hud: HudFrame? {
        if case .hud(let frame) = self { frame } else { nil }
    }
}

/// A surface's buffers (mako's pool-buffer): hands out one the compositor does not hold, of the
/// requested size. Two suffice while frame callbacks pace commits; a third is made only if both are held.
struct BufferPool {
    private var buffers: [ShmBuffer] = []

    /// A free buffer of exactly `width`×`height`: one of that size as it is, else a free one's memory
    /// reshaped, else a new one.
    mutating func next(shm: WlShm, width: Int, height: Int) -> ShmBuffer? {
        if let same = buffers.first(where: { !$0.busy && $0.width == width && $0.height == height }) { return same }
        // The free buffer with the most memory is reshaped: the least likely to have to grow. One
        // that holds more than twice what is asked is let go instead (a stack that shrank for good).
        let needed = width * height * 4
        buffers.removeAll { !$0.busy && $0.capacity / 2 > needed }
        if let free = buffers.filter({ !$0.busy }).max(by: { $0.capacity < $1.capacity }),
           free.reshape(width: width, height: height) {
            return free
        }
        guard buffers.count < 3, let fresh = ShmBuffer(shm: shm, width: width, height: height) else { return nil }
        buffers.append(fresh)
        return fresh
    }

    /// Makes a `width`×`height` buffer ahead, its pages with it, so that the first draw takes it
    /// instead of making one.
    mutating func prepare(shm: WlShm, width: Int, height: Int) {
        guard buffers.isEmpty, let ahead = ShmBuffer(shm: shm, width: width, height: height) else { return }
        buffers.append(ahead)
    }

    /// Frees every buffer (a surface that goes away holds no memory while the daemon is idle).
    mutating func removeAll() { buffers.removeAll() }

    /// Frees the buffers the compositor does not hold, but `kept` (the one drawn last, whose rows the
    /// next frame copies). For a surface that stopped changing: a second buffer only serves the next
    /// change, and a whole stack's worth of pixels sitting unused is worth more than the ~0.1 ms its
    /// next frame then spends making a fresh one.
    mutating func releaseSpares(keeping kept: ShmBuffer?) {
        buffers.removeAll { !$0.busy && $0 !== kept }
    }
}
