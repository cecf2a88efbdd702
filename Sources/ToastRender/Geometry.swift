/// A point in logical (surface-local, unscaled) pixels.
public struct Point: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
}

/// A size in logical pixels. Multiply by the buffer scale to get buffer pixels.
public struct Size: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle in logical pixels; `origin` is the top-left corner.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
    public var origin: Point { Point(x: x, y: y) }
    public var size: Size { Size(width: width, height: height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether the two rectangles share any area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        !isEmpty && !other.isEmpty && x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
    /// Whether the point lies inside (left/top edges inclusive, right/bottom exclusive).
    public func contains(_ p: Point) -> Bool { p.x >= x && p.x < maxX && p.y >= y && p.y < maxY }
    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Int, dy: Int) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }
    /// The rectangle grown (negative `amount`) or shrunk by `amount` on every side.
    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
    /// The area both share; empty (zero size) when none.
    public func intersection(_ other: Rect) -> Rect {
        let nx = max(x, other.x), ny = max(y, other.y)
        return Rect(x: nx, y: ny, width: max(0, min(maxX, other.maxX) - nx), height: max(0, min(maxY, other.maxY) - ny))
    }
    /// The smallest rectangle containing both (an empty operand is ignored).
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let nx = min(x, other.x), ny = min(y, other.y)
        return Rect(x: nx, y: ny, width: max(maxX, other.maxX) - nx, height: max(maxY, other.maxY) - ny)
    }
}

/// A straight (non-premultiplied) colour, components in 0...1.
public struct Color: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// `0xRRGGBB` plus a separate alpha.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(red: Double((rgb >> 16) & 0xff) / 255, green: Double((rgb >> 8) & 0xff) / 255,
                  blue: Double(rgb & 0xff) / 255, alpha: alpha)
    }
    /// The same colour with another alpha.
    public func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }

    /// `#rrggbb`, for Pango markup attributes.
    var hexRGB: String {
        func byte(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            let digits = Array("0123456789abcdef")
            return String([digits[n >> 4], digits[n & 15]])
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }
}
