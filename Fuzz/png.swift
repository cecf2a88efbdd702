// Fuzz target: ImageFile.loadPNG, the picture helper's PNG decoder (image-path files and icons reach it as
// bytes). The decoding is cairo's (libpng, not instrumented here, so the fuzzer sees little of it); what is
// checked is toastd's side: no crash on any bytes, and a decoded image is tightly packed RGBA.
import ToastPictures

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let image = ImageFile.loadPNG(data: bytes) {
        precondition(image.width > 0 && image.height > 0)
        precondition(image.pixels.count == image.width * image.height * 4, "pixels hold \(image.pixels.count) bytes")
    }
    return 0
}
