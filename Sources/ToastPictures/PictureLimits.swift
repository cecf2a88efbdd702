/// The bounds every picture is held to, wherever it comes from: what the daemon holds, what the
/// helper decodes, what the docs quote (docs/security.md). The sides an `image-data` may declare are
/// `ImageData.maxSide`'s.
package enum PictureLimits {
    /// The largest side kept after decoding: icon size (48 px) at scale 4, with room to spare.
    package static let maxPictureSide = 256
    /// Files larger than this are not decoded (a PNG icon is a few kilobytes, a 4K screenshot a few MB).
    package static let maxFileBytes = 16 << 20
    /// Pictures declaring more pixels than this are refused before decoding: decoding allocates four
    /// bytes a pixel whatever the file's size (a 6K screenshot, 6016×3384, is 20.4 million).
    package static let maxDecodePixels = 24_000_000
    /// Nor more than this on a side.
    package static let maxDecodeSide = 16_384
    /// All the memory the daemon holds for pictures not yet decoded, in bytes: `image-data` copied
    /// out of its message, files opened and waiting, the one the helper is decoding. A picture that
    /// would pass it is dropped (its toast shows without it). Decoded pictures are at most
    /// `maxPictureSide`² × 4 bytes (256 KiB) each, one per toast shown.
    package static let maxPendingBytes = 64 << 20
}
