import ToastVocabulary

/// Validation and conversion of the `(iiibiiay)` image hints (`image-data`, `image_data`, `icon_data`).
///
/// Nothing is read outside `data`: every index is checked against the byte count before the copy.
public enum ImageData {
    /// Largest accepted width or height. Larger images are dropped (the notification still shows).
    /// A 4K screenshot passes; the daemon shrinks it off its loop.
    public static let maxSide = 8192

    /// Validates the fields of an image hint and converts the pixels to tightly packed RGBA8.
    /// Returns the image, or a reason it was refused.
    public static func decode(width: Int, height: Int, rowstride: Int, hasAlpha: Bool,
                              bitsPerSample: Int, channels: Int, data: [UInt8]) -> Result<RGBAImage, ImageError> {
        if case .failure(let error) = validate(width: width, height: height, rowstride: rowstride, hasAlpha: hasAlpha,
                                               bitsPerSample: bitsPerSample, channels: channels, byteCount: data.count) {
            return .failure(error)
        }
        let rowBytes = width * channels
        let needed = rowstride * (height - 1) + rowBytes
        if channels == 4 && rowstride == rowBytes {
            // Already packed RGBA (the common case): share the received bytes, no copy.
            return .success(RGBAImage(width: width, height: height,
                                      pixels: data.count == needed ? data : Array(data[..<needed])))
        }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        data.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    var s = y * rowstride
                    var d = y * width * 4
                    if channels == 4 {
                        (dst.baseAddress! + d).update(from: src.baseAddress! + s, count: rowBytes)
                    } else {
                        for _ in 0..<width {
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = 255
                            s += 3; d += 4
                        }
                    }
                }
            }
        }
        return .success(RGBAImage(width: width, height: height, pixels: out))
    }

    /// Decodes a hint value of signature `(iiibiiay)`.
    public static func decode(_ value: BusValue) -> Result<RGBAImage, ImageError> {
        guard case .structure(let f) = value, f.count == 7,
              case .int32(let w) = f[0], case .int32(let h) = f[1], case .int32(let rs) = f[2],
              case .bool(let alpha) = f[3], case .int32(let bits) = f[4], case .int32(let ch) = f[5],
              case .bytes(let data) = f[6] else { return .failure(.wrongType) }
        return decode(width: Int(w), height: Int(h), rowstride: Int(rs), hasAlpha: alpha,
                      bitsPerSample: Int(bits), channels: Int(ch), data: data)
    }
}

extension ImageData {
    /// Checks the fields of an image structure against `byteCount` bytes of data: every index the
    /// conversion or the picture worker reads is then inside them.
    static func validate(width: Int, height: Int, rowstride: Int, hasAlpha: Bool, bitsPerSample: Int,
                         channels: Int, byteCount: Int) -> Result<Void, ImageError> {
        guard width > 0, height > 0 else { return .failure(.badSize(width: width, height: height)) }
        guard width <= maxSide, height <= maxSide else { return .failure(.tooLarge(width: width, height: height)) }
        guard bitsPerSample == 8 else { return .failure(.unsupportedBits(bitsPerSample)) }
        guard channels == 3 || channels == 4, hasAlpha == (channels == 4) else {
            return .failure(.unsupportedChannels(channels: channels, hasAlpha: hasAlpha))
        }
        let rowBytes = width * channels
        guard rowstride >= rowBytes else { return .failure(.rowstrideTooSmall(rowstride: rowstride, needed: rowBytes)) }
        // Widths are bounded above and rowstride came from an Int32, so this cannot overflow Int64.
        let needed = rowstride * (height - 1) + rowBytes
        guard byteCount >= needed else { return .failure(.tooFewBytes(have: byteCount, needed: needed)) }
        return .success(())
    }

    /// An image hint's value as a `HintValue`: packed pixels (`.image`), or for a large array left in
    /// its message, the validated structure itself (`.receivedImage`), unpacked later off the loop.
    public static func hint(_ value: BusValue) -> Result<HintValue, ImageError> {
        guard case .structure(let f) = value, f.count == 7, case .messageBytes(let data) = f[6] else {
            return decode(value).map(HintValue.image)
        }
        guard case .int32(let w) = f[0], case .int32(let h) = f[1], case .int32(let rs) = f[2],
              case .bool(let alpha) = f[3], case .int32(let bits) = f[4], case .int32(let ch) = f[5] else {
            return .failure(.wrongType)
        }
        let (width, height, rowstride, channels) = (Int(w), Int(h), Int(rs), Int(ch))
        return validate(width: width, height: height, rowstride: rowstride, hasAlpha: alpha, bitsPerSample: Int(bits),
                        channels: channels, byteCount: data.buffer.count).map {
            .receivedImage(ReceivedImage(width: width, height: height, rowstride: rowstride, channels: channels,
                                         bytes: data.buffer, owner: data))
        }
    }
}

/// Why an image hint was dropped.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongType
    case badSize(width: Int, height: Int)
    case tooLarge(width: Int, height: Int)
    case unsupportedBits(Int)
    case unsupportedChannels(channels: Int, hasAlpha: Bool)
    case rowstrideTooSmall(rowstride: Int, needed: Int)
    case tooFewBytes(have: Int, needed: Int)

    public var description: String {
        switch self {
        case .wrongType: return "image hint is not (iiibiiay)"
        case .badSize(let w, let h): return "image size \(w)x\(h) is empty or negative"
        case .tooLarge(let w, let h): return "image \(w)x\(h) exceeds \(ImageData.maxSide)x\(ImageData.maxSide)"
        case .unsupportedBits(let b): return "image has \(b) bits per sample (only 8 supported)"
        case .unsupportedChannels(let c, let a): return "image has \(c) channels with has_alpha=\(a) (need 3/false or 4/true)"
        case .rowstrideTooSmall(let rs, let n): return "image rowstride \(rs) < width*channels \(n)"
        case .tooFewBytes(let have, let n): return "image has \(have) bytes, needs \(n)"
        }
    }
}
