// Fuzz target: ImageFile.loadPNG (image-path hints name any file). The decoding is cairo's (libpng,
// not instrumented here, so the fuzzer sees little of it); what is checked is toastd's side: no crash
// on any file, and a decoded image is tightly packed RGBA.
import Glibc
import ToastRender

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var template = Array("/tmp/toastd-fuzz-png-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0, "mkstemp failed")
    let path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    defer { unlink(path) }
    var written = 0
    while written < size {
        let n = write(fd, data! + written, size - written)
        precondition(n > 0, "write failed")
        written += n
    }
    close(fd)
    if let image = ImageFile.loadPNG(path: path) {
        precondition(image.width > 0 && image.height > 0)
        precondition(image.pixels.count == image.width * image.height * 4, "pixels hold \(image.pixels.count) bytes")
    }
    return 0
}
