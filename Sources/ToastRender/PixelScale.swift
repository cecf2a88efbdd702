/// How many buffer pixels one logical pixel is: an integer (wl_output.scale) or a fraction in
/// 120ths (wp_fractional_scale_v1's unit: 150 is 1.25×, 180 is 1.5×).
///
/// Drawing multiplies logical coordinates by `factor` (cairo_scale takes a Double); lengths become
/// whole pixels with `Int * PixelScale`, which rounds half away from zero as the fractional-scale
/// protocol asks for buffer sizes. At an integer scale both are exact, so the integer path draws the
/// same pixels as it always did. Integer literals are integer scales (`scale: 2`).
public struct PixelScale: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The denominator of fractional scales.
    public static let denominator = 120

    /// The scale in 120ths; always at least 1.
    public let numerator: Int

    /// A scale of `numerator`/120 (a preferred_scale event's value).
    public init(numerator: Int) { self.numerator = max(1, numerator) }

    /// An integer scale (wl_output.scale); values below 1 count as 1.
    public init(_ integer: Int) { self.init(numerator: max(1, integer) * Self.denominator) }

    public init(integerLiteral value: Int) { self.init(value) }

    public static let one = PixelScale(1)

    /// The scale as a factor, for cairo_scale and Pango's matrix.
    public var factor: Double { Double(numerator) / Double(Self.denominator) }

    /// Whether one logical pixel is a whole number of buffer pixels.
    public var isInteger: Bool { numerator % Self.denominator == 0 }

    /// The next integer scale at or above this one (what to draw at when only integer buffer
    /// scales can be told to the compositor).
    public var roundedUp: Int { (numerator + Self.denominator - 1) / Self.denominator }

    public var description: String {
        isInteger ? "\(numerator / Self.denominator)" : "\(numerator)/\(Self.denominator)"
    }

    /// `logical` pixels in buffer pixels, rounded half away from zero.
    public func pixels(_ logical: Int) -> Int {
        let product = logical * numerator
        let half = Self.denominator / 2
        return product >= 0 ? (product + half) / Self.denominator : -((-product + half) / Self.denominator)
    }

    /// The smallest buffer-pixel rectangle that covers `rect` (logical): the origin rounded down, the far
    /// edges up. Damage must cover every pixel a drawing touched, and a logical edge at 1.25× falls
    /// inside a pixel.
    public func pixelsCovering(_ rect: Rect) -> Rect {
        guard !rect.isEmpty else { return Rect(x: pixels(rect.x), y: pixels(rect.y), width: 0, height: 0) }
        let x0 = floorDiv(rect.x * numerator), y0 = floorDiv(rect.y * numerator)
        let x1 = ceilDiv(rect.maxX * numerator), y1 = ceilDiv(rect.maxY * numerator)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func floorDiv(_ value: Int) -> Int {
        value >= 0 ? value / Self.denominator : -((-value + Self.denominator - 1) / Self.denominator)
    }

    private func ceilDiv(_ value: Int) -> Int { -floorDiv(-value) }

    /// `logical` in buffer pixels, rounded half away from zero (`pixels(_:)`).
    public static func * (logical: Int, scale: PixelScale) -> Int { scale.pixels(logical) }
}
