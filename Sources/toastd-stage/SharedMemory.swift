import CLinux
import Glibc

/// A memfd mapped into memory: the backing of a wl_shm pool.
final class SharedMemory {
    let fd: Int32
    let size: Int
    let bytes: UnsafeMutableRawPointer

    init?(size: Int) {
        let fd = memfd_create("toastd-stage-shm", CLINUX_MFD_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(size)) == 0,
              let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED
        else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.size = size
        self.bytes = map
    }

    deinit {
        munmap(bytes, size)
        close(fd)
    }

    /// Fills `count` 32-bit pixels with one ARGB8888 value.
    func fill(argb: UInt32, count: Int) {
        let pixels = bytes.bindMemory(to: UInt32.self, capacity: size / 4)
        for i in 0..<min(count, size / 4) { pixels[i] = argb }
    }
}
