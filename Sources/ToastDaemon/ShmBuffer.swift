import CLinux
import Glibc
import Wayland

/// One ARGB8888 wl_shm buffer in its own memfd mapping. `busy` from attach until the compositor's
/// `release`: the daemon never draws into a buffer the compositor may still read.
final class ShmBuffer {
    let width: Int
    let height: Int
    let stride: Int
    let data: UnsafeMutableRawPointer
    private let byteCount: Int
    private let buffer: WlBuffer
    private(set) var busy = false
    /// What a painter last drew into this buffer (nil: unknown, e.g. a fresh one), so that a frame
    /// that changes little can redraw only the part that changed.
    var content: PaintedFrame?

    /// Allocates a `width`×`height` buffer (buffer pixels, not logical ones); nil when memory is short.
    init?(shm: WlShm, width: Int, height: Int) {
        let stride = width * 4
        let byteCount = stride * height
        guard width > 0, height > 0, byteCount <= Int(Int32.max) else { return nil }
        let fd = memfd_create("toastd-buffer", CLINUX_MFD_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }  // the pool keeps its own reference to the memory
        // Populated at once: every page is drawn into anyway, and one mmap that maps them all costs
        // less than a fault per page, which a settled surface's next buffer would otherwise pay.
        guard ftruncate(fd, off_t(byteCount)) == 0,
              let mapping = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0),
              mapping != MAP_FAILED
        else { return nil }
        let pool = shm.createPool(fd: fd, size: Int32(byteCount))
        buffer = pool.createBuffer(offset: 0, width: Int32(width), height: Int32(height),
                                   stride: Int32(stride), format: .argb8888)
        pool.destroy()
        self.width = width
        self.height = height
        self.stride = stride
        self.byteCount = byteCount
        self.data = mapping
        buffer.onEvent = { [unowned self] event in
            if case .release = event { self.busy = false }
        }
    }

    deinit {
        buffer.destroy()
        munmap(data, byteCount)
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

    /// A free buffer of exactly `width`×`height`, reusing one when possible.
    mutating func next(shm: WlShm, width: Int, height: Int) -> ShmBuffer? {
        buffers.removeAll { !$0.busy && ($0.width != width || $0.height != height) }
        if let free = buffers.first(where: { !$0.busy }) { return free }
        guard buffers.count < 3, let fresh = ShmBuffer(shm: shm, width: width, height: height) else { return nil }
        buffers.append(fresh)
        return fresh
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
