import Foundation

/// An opaque RGB colour, as a screenshot holds it.
struct RGB: Equatable, Hashable, Sendable, CustomStringConvertible {
    var r: UInt8, g: UInt8, b: UInt8

    init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r; self.g = g; self.b = b
    }

    /// From "RRGGBB" or "#RRGGBB".
    init?(hex: String) {
        let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(r: UInt8(value >> 16 & 0xff), g: UInt8(value >> 8 & 0xff), b: UInt8(value & 0xff))
    }

    var description: String {
        "#" + [r, g, b].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// Whether every channel is within `tolerance` of `other`'s.
    func isClose(to other: RGB, tolerance: UInt8 = 0) -> Bool {
        func near(_ a: UInt8, _ b: UInt8) -> Bool { (a > b ? a - b : b - a) <= tolerance }
        return near(r, other.r) && near(g, other.g) && near(b, other.b)
    }
}

/// A rectangle in image pixels.
struct Rect: Equatable, Sendable, CustomStringConvertible {
    var x: Int, y: Int, width: Int, height: Int

    var description: String { "\(width)x\(height)+\(x)+\(y)" }

    func clamped(to width: Int, _ height: Int) -> Rect {
        let x0 = max(0, min(x, width)), y0 = max(0, min(y, height))
        let x1 = max(x0, min(x + self.width, width)), y1 = max(y0, min(y + self.height, height))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

enum ImageError: Error, CustomStringConvertible {
    case notPPM(String)
    var description: String {
        switch self { case .notPPM(let why): return "not a binary PPM (P6) image: \(why)" }
    }
}

/// A decoded screenshot: 8-bit RGB pixels, row-major.
struct Image: Sendable {
    let width: Int
    let height: Int
    /// width * height * 3 bytes.
    let rgb: [UInt8]

    init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3)
        self.width = width; self.height = height; self.rgb = rgb
    }

    /// Decodes a binary PPM ("P6 W H 255\n" then RGB bytes), as `grim -t ppm` writes it.
    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var index = 0
        // Header: magic, width, height, maxval; separated by whitespace, '#' comments allowed.
        func token() throws -> String {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if isspace(Int32(bytes[index])) != 0 {
                    index += 1
                } else { break }
            }
            let start = index
            while index < bytes.count && isspace(Int32(bytes[index])) == 0 { index += 1 }
            guard index > start else { throw ImageError.notPPM("truncated header") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        guard try token() == "P6" else { throw ImageError.notPPM("bad magic") }
        guard let width = Int(try token()), let height = Int(try token()), width > 0, height > 0
        else { throw ImageError.notPPM("bad size") }
        guard try token() == "255" else { throw ImageError.notPPM("maxval is not 255") }
        index += 1  // the single whitespace byte after maxval
        let count = width * height * 3
        guard bytes.count - index >= count else {
            throw ImageError.notPPM("\(bytes.count - index) pixel bytes, expected \(count)")
        }
        self.init(width: width, height: height, rgb: Array(bytes[index..<(index + count)]))
    }

    /// The colour at (x, y); (0, 0) is the top left.
    func pixel(_ x: Int, _ y: Int) -> RGB {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let i = (y * width + x) * 3
        return RGB(r: rgb[i], g: rgb[i + 1], b: rgb[i + 2])
    }

    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// How many pixels of `rect` are not within `tolerance` of `other`'s pixel at the same place.
    func countDiffering(in rect: Rect, from other: Image, tolerance: UInt8 = 0) -> Int {
        let r = rect.clamped(to: min(width, other.width), min(height, other.height))
        var count = 0
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) where !pixel(x, y).isClose(to: other.pixel(x, y), tolerance: tolerance) {
                count += 1
            }
        }
        return count
    }

    /// Whether any pixel of `rect` differs from `other` (beyond `tolerance`).
    func differs(in rect: Rect, from other: Image, tolerance: UInt8 = 0) -> Bool {
        countDiffering(in: rect, from: other, tolerance: tolerance) > 0
    }

    /// How many pixels of `rect` are not within `tolerance` of `colour`.
    func countPixels(in rect: Rect, notMatching colour: RGB, tolerance: UInt8 = 0) -> Int {
        let r = rect.clamped(to: width, height)
        var count = 0
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) where !pixel(x, y).isClose(to: colour, tolerance: tolerance) {
                count += 1
            }
        }
        return count
    }

    /// Whether every pixel of `rect` is `colour` (within `tolerance`).
    func isUniform(_ colour: RGB, in rect: Rect? = nil, tolerance: UInt8 = 0) -> Bool {
        countPixels(in: rect ?? bounds, notMatching: colour, tolerance: tolerance) == 0
    }

    /// The smallest rectangle holding every pixel that is not `background`; nil if there is none.
    func boundingBox(notMatching background: RGB, tolerance: UInt8 = 0) -> Rect? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where !pixel(x, y).isClose(to: background, tolerance: tolerance) {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The image as binary PPM, e.g. to keep a failing screenshot.
    var ppmData: Data {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: rgb)
        return data
    }

    func write(ppmTo path: String) throws {
        try ppmData.write(to: URL(fileURLWithPath: path))
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

extension Image {
    /// The longest horizontal run of `colour` pixels in any row of `rect`: the bar's filled length
    /// (text glyphs in the same colour make only short runs).
    func longestRun(of colour: RGB, in rect: Rect, tolerance: UInt8 = 2) -> Int {
        let r = rect.clamped(to: width, height)
        var best = 0
        for y in r.y..<(r.y + r.height) {
            var run = 0
            for x in r.x..<(r.x + r.width) {
                run = pixel(x, y).isClose(to: colour, tolerance: tolerance) ? run + 1 : 0
                best = max(best, run)
            }
        }
        return best
    }
}
