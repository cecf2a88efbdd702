// Fuzz target: ImageData.decode (the image-data hint: sizes and bytes straight from a D-Bus client).
// The first 8 bytes give the fields (small values, or raw 32-bit ones when byte 7 says so), the rest
// is the pixel data. A decoded image must be tightly packed RGBA with the sender's pixels.
import ToastDBus

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard input.count >= 8 else { return 0 }
    var width = Int(input[0] % 24) - 2
    var height = Int(input[1] % 24) - 2
    let channels = Int(input[4] % 6)
    let hasAlpha = input[5] & 1 != 0
    let bits = input[5] & 2 == 0 ? 8 : Int(input[5] >> 2)
    var rowstride = width * channels + Int(input[2] % 16) - 4
    var pixels = Array(input[8...])
    if input[7] & 1 != 0, input.count >= 20 {
        // Raw Int32 fields, as a hostile client would send them.
        func int32(at i: Int) -> Int {
            Int(Int32(bitPattern: UInt32(input[i]) | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2]) << 16
                        | UInt32(input[i + 3]) << 24))
        }
        width = int32(at: 8); height = int32(at: 12); rowstride = int32(at: 16)
        pixels = Array(input[20...])
    }
    let result = ImageData.decode(width: width, height: height, rowstride: rowstride, hasAlpha: hasAlpha,
                                  bitsPerSample: bits, channels: channels, data: pixels)
    // The D-Bus value path must agree.
    let value = BusValue.structure([.int32(Int32(truncatingIfNeeded: width)), .int32(Int32(truncatingIfNeeded: height)),
                                    .int32(Int32(truncatingIfNeeded: rowstride)), .bool(hasAlpha),
                                    .int32(Int32(truncatingIfNeeded: bits)), .int32(Int32(truncatingIfNeeded: channels)),
                                    .bytes(pixels)])
    precondition(ImageData.decode(value) == result, "decode(BusValue) disagrees")
    guard case .success(let image) = result else { return 0 }
    precondition(image.width == width && image.height == height)
    precondition(image.pixels.count == width * height * 4, "rgba holds \(image.pixels.count) bytes")
    for y in 0..<height {
        for x in 0..<width {
            let s = y * rowstride + x * channels
            let d = (y * width + x) * 4
            precondition(Array(image.pixels[d..<(d + 3)]) == Array(pixels[s..<(s + 3)]), "pixel \(x),\(y)")
            precondition(image.pixels[d + 3] == (channels == 4 ? pixels[s + 3] : 255), "alpha \(x),\(y)")
        }
    }
    return 0
}
