import Foundation
import XCTest
@testable import ToastPictures
@testable import ToastRender
import ToastVocabulary

/// Formats other than PNG and SVG: told apart by their first bytes, their declared size read from
/// the header and checked before gdk-pixbuf decodes anything.
final class PixbufFileTests: XCTestCase {
    /// SOI, an APP0 segment, then a baseline SOF0 declaring `width`×`height` (and no image data).
    private func jpegHeader(width: Int, height: Int, sof: UInt8 = 0xC0) -> [UInt8] {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let frame: [UInt8] = [0xFF, sof, 0x00, 0x11, 8, UInt8(height >> 8), UInt8(height & 0xff),
                              UInt8(width >> 8), UInt8(width & 0xff), 3] + [UInt8](repeating: 1, count: 9)
        return [0xFF, 0xD8] + app0 + [0xFF, 0xC4, 0x00, 0x04, 0, 0] + frame
    }

    private func write(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "toastd-pixbuf-\(UUID().uuidString.prefix(8))"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testFormatsAreToldByTheirFirstBytes() {
        XCTAssertEqual(PixbufFile.sniff(jpegHeader(width: 1, height: 1)), .jpeg)
        XCTAssertEqual(PixbufFile.sniff(Array("GIF89a".utf8) + [1, 0, 1, 0]), .gif)
        XCTAssertEqual(PixbufFile.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), .webp)
        XCTAssertEqual(PixbufFile.sniff(Array("/* XPM */\nstatic char".utf8)), .xpm)
        XCTAssertEqual(PixbufFile.sniff(Array("P6\n1 1\n255\n".utf8)), .pnm)
        XCTAssertNil(PixbufFile.sniff(Array("<svg xmlns=".utf8)), "SVG is never gdk-pixbuf's")
        XCTAssertNil(PixbufFile.sniff([0x89, 0x50, 0x4E, 0x47]), "PNG is cairo's")
        XCTAssertNil(PixbufFile.sniff(Array("hello".utf8)))
    }

    func testJPEGSizeComesFromTheFrameHeaderPastOtherSegments() throws {
        let head = jpegHeader(width: 640, height: 480)
        XCTAssertEqual(PixbufFile.declaredSize(head, format: .jpeg)?.width, 640)
        XCTAssertEqual(PixbufFile.declaredSize(head, format: .jpeg)?.height, 480)
        let progressive = jpegHeader(width: 20000, height: 10, sof: 0xC2)
        XCTAssertEqual(PixbufFile.declaredSize(progressive, format: .jpeg)?.width, 20000)
        XCTAssertNil(PixbufFile.declaredSize(Array(head.prefix(20)), format: .jpeg), "cut before the frame")
        XCTAssertNil(PixbufFile.declaredSize([0xFF, 0xD8, 0xFF, 0xDA, 0, 4, 0, 0, 0, 0, 0, 0], format: .jpeg),
                     "scan data before any frame")
    }

    func testGIFAndWebPSizes() {
        let gif = PixbufFile.declaredSize(Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00], format: .gif)
        XCTAssertEqual(gif?.width, 320); XCTAssertEqual(gif?.height, 240)
        var lossy = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 7)
        lossy += [0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01]  // 640 × 480
        let webp = PixbufFile.declaredSize(lossy + [0, 0], format: .webp)
        XCTAssertEqual(webp?.width, 640); XCTAssertEqual(webp?.height, 480)
        let xpm = PixbufFile.declaredSize(Array("/* XPM */\nstatic char *x[] = {\n\"48 32 2 1\",".utf8), format: .xpm)
        XCTAssertEqual(xpm?.width, 48); XCTAssertEqual(xpm?.height, 32)
        let pnm = PixbufFile.declaredSize(Array("P6\n# made by hand\n300 200\n255\n".utf8), format: .pnm)
        XCTAssertEqual(pnm?.width, 300); XCTAssertEqual(pnm?.height, 200)
    }

    /// A header declaring too many pixels is refused without decoding (the file has no image data at
    /// all: a decoder would fail differently); one within the limits goes on to gdk-pixbuf, which
    /// finds the data missing.
    func testTheDeclaredSizeIsCheckedBeforeDecoding() throws {
        let huge = try write(jpegHeader(width: 30000, height: 30000))
        XCTAssertEqual(PixbufFile.load(path: huge, fittingIn: 64, maxPixels: 24_000_000, maxDeclaredSide: 16_384),
                       .failure(.tooManyPixels(.jpeg, width: 30000, height: 30000)))
        let small = try write(jpegHeader(width: 8, height: 8))
        guard case .failure(.unreadable) = PixbufFile.load(path: small, fittingIn: 64, maxPixels: 24_000_000,
                                                           maxDeclaredSide: 16_384) else {
            return XCTFail("a JPEG without data decodes")
        }
        let text = try write(Array("just text".utf8))
        XCTAssertEqual(PixbufFile.load(path: text, fittingIn: 64, maxPixels: 100, maxDeclaredSide: 10), .failure(.unknownFormat))
    }

    /// A real JPEG (made by cjpeg from a PPM) and an XPM decode, shrunk to fit.
    func testJPEGAndXPMDecode() throws {
        let ppm = try write(Array("P6\n100 50\n255\n".utf8) + [UInt8](repeating: 0, count: 100 * 50 * 3).enumerated().map {
            $0.offset % 3 == 0 ? 255 : 0
        })
        let jpeg = ppm + ".jpg"
        let cjpeg = Process()
        cjpeg.executableURL = URL(fileURLWithPath: "/usr/bin/cjpeg")
        cjpeg.arguments = ["-outfile", jpeg, ppm]
        try cjpeg.run()
        cjpeg.waitUntilExit()
        addTeardownBlock { try? FileManager.default.removeItem(atPath: jpeg) }
        let image = try PixbufFile.load(path: jpeg, fittingIn: 40, maxPixels: 1_000_000, maxDeclaredSide: 1000).get()
        XCTAssertEqual(image.width, 40)
        XCTAssertEqual(image.height, 20)
        XCTAssertGreaterThan(image.pixels[0], 240, "red")
        XCTAssertLessThan(image.pixels[1], 16)

        let xpm = try write(Array("""
            /* XPM */
            static char *dot[] = {
            "2 2 1 1",
            "x c #00FF00",
            "xx",
            "xx"};
            """.utf8))
        let dot = try PixbufFile.load(path: xpm, fittingIn: 40, maxPixels: 100, maxDeclaredSide: 10).get()
        XCTAssertEqual(dot.width, 2)
        XCTAssertEqual(Array(dot.pixels.prefix(4)), [0, 255, 0, 255])
    }
}
