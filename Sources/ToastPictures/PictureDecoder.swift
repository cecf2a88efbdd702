import Glibc
import ToastRender
import ToastVocabulary

/// A request turned into pixels, from the descriptor that came with it and nothing else: the file's
/// bytes (sniffed: PNG to cairo, JPEG and the other raster formats to gdk-pixbuf, SVG to librsvg) or
/// the raw pixels of a memfd, shrunk to the size asked for. What the helper runs for each request.
package enum PictureDecoder {
    package static func decode(_ request: PictureRequest, from fd: Int32) -> Result<RGBAImage, DecodeProblem> {
        switch request.kind {
        case .file: decodeFile(request, fd)
        case .pixels: decodePixels(request, fd)
        }
    }

    package struct DecodeProblem: Error, Equatable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    private static func decodeFile(_ request: PictureRequest, _ fd: Int32) -> Result<RGBAImage, DecodeProblem> {
        guard let data = FileBytes.whole(fd: fd, limit: PictureLimits.maxFileBytes) else {
            return .failure(DecodeProblem("not a readable regular file of at most \(PictureLimits.maxFileBytes >> 20) MiB"))
        }
        let maxSide = max(1, min(request.maxSide, PictureLimits.maxPictureSide))
        if let size = ImageFile.pngSize(header: Array(data.prefix(24))) {
            guard size.width <= PictureLimits.maxDecodeSide, size.height <= PictureLimits.maxDecodeSide,
                  size.width * size.height <= PictureLimits.maxDecodePixels else {
                return .failure(DecodeProblem("\(size.width)×\(size.height) is over the limit (\(PictureLimits.maxDecodeSide) px a side, "
                    + "\(PictureLimits.maxDecodePixels / 1_000_000) million pixels); refused before decoding"))
            }
            guard let image = ImageFile.loadPNG(data: data, fittingIn: maxSide) else {
                return .failure(DecodeProblem("not a readable PNG file"))
            }
            return .success(image)
        }
        if PixbufFile.sniff(Array(data.prefix(32))) != nil {
            return PixbufFile.load(data: data, fittingIn: maxSide, maxPixels: PictureLimits.maxDecodePixels,
                                   maxDeclaredSide: PictureLimits.maxDecodeSide).mapError { DecodeProblem($0.description) }
        }
        guard data.count <= SVGFile.maxBytes, SVGFile.looksLikeSVG(data) else {
            return .failure(DecodeProblem("\(PixbufFile.Problem.unknownFormat)"))
        }
        let side = max(1, min(request.svgSide > 0 ? request.svgSide : maxSide, maxSide))
        return SVGFile.render(data, side: side, tint: request.tint).mapError { DecodeProblem($0.description) }
    }

    private static func decodePixels(_ request: PictureRequest, _ fd: Int32) -> Result<RGBAImage, DecodeProblem> {
        let (width, height, rowstride, channels) = (request.width, request.height, request.rowstride, request.channels)
        guard width > 0, height > 0, width <= PictureLimits.maxDecodeSide, height <= PictureLimits.maxDecodeSide,
              channels == 3 || channels == 4, rowstride >= width * channels else {
            return .failure(DecodeProblem("a malformed pixel request"))
        }
        let needed = rowstride * (height - 1) + width * channels
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) >= needed,
              let mapped = mmap(nil, needed, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            return .failure(DecodeProblem("the pixels could not be mapped"))
        }
        let mapping = Mapping(base: mapped, count: needed)
        let image = ReceivedImage(width: width, height: height, rowstride: rowstride, channels: channels,
                                  bytes: UnsafeRawBufferPointer(start: mapped, count: needed), owner: mapping)
        return .success(image.shrunk(toFit: max(1, min(request.maxSide, PictureLimits.maxPictureSide))))
    }

    /// A mapping, unmapped when the last reference goes.
    private final class Mapping {
        let base: UnsafeMutableRawPointer
        let count: Int
        init(base: UnsafeMutableRawPointer, count: Int) { (self.base, self.count) = (base, count) }
        deinit { munmap(base, count) }
    }
}
