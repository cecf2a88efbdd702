import Foundation
@testable import ToastRender
import ToastVocabulary

/// Shared fixtures for the renderer tests.
enum Fixtures {
    /// Where sample PNGs go, to be looked at by a human.
    static let sampleDir: String = {
        let dir = NSTemporaryDirectory() + "toastd-render-samples"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    static let longBody = String(repeating: "This body is long enough to wrap many times and must be cut. ", count: 30)

    /// A 64×64 gradient disc with transparent corners, as a notification image.
    static func image(size: Int = 64) -> RGBAImage {
        var px = [UInt8](repeating: 0, count: size * size * 4)
        let c = Double(size - 1) / 2
        for y in 0..<size {
            for x in 0..<size {
                let d = ((Double(x) - c) * (Double(x) - c) + (Double(y) - c) * (Double(y) - c)).squareRoot()
                let i = (y * size + x) * 4
                px[i] = UInt8(80 + 150 * x / size)
                px[i + 1] = UInt8(60 + 100 * y / size)
                px[i + 2] = 220
                px[i + 3] = d <= c ? 255 : 0
            }
        }
        return RGBAImage(width: size, height: size, pixels: px)
    }

    /// Count of pixels in `rect` (buffer px) whose raw value differs between the canvases.
    static func differingPixels(_ a: Canvas, _ b: Canvas, in rect: Rect) -> Int {
        var n = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where a.rawPixel(x: x, y: y) != b.rawPixel(x: x, y: y) { n += 1 }
        }
        return n
    }

    static func render(_ toast: ToastView, _ renderer: ToastRenderer, scale: PixelScale = 1) -> Canvas {
        let size = renderer.measure(toast, scale: scale)
        let canvas = Canvas(size: size, scale: scale)
        renderer.draw(toast, in: canvas, at: .zero, scale: scale)
        return canvas
    }
}
