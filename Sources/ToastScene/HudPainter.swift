import ToastConfig
import ToastRender

/// What a HUD buffer holds; equal but for the spinner's phase and the bar's value means only the
/// wheel and the bar row must be redrawn.
package struct HudFrame: Hashable {
    package var huds: [HudView]
    package var opacity: Double
    package var scale: PixelScale

    /// Whether `a` and `b` are the same HUDs but for the spinner's phase and the bars' values (and the
    /// icons the values pick), compared in place: no copies of the arrays are made for it.
    package static func differOnlyInMotion(_ a: [HudView], _ b: [HudView]) -> Bool {
        a.count == b.count && a.indices.allSatisfy { HudGeometry.sameShape(a[$0], b[$0]) && HudGeometry.sameStill(a[$0], b[$0]) }
    }

    /// The same HUDs with the spinner standing still and the bar at 0.
    package var withoutMotion: HudFrame {
        var still = self
        still.huds = huds.map { hud in
            switch hud {
            case .spinner(var spinner):
                spinner.phase = 0
                return .spinner(spinner)
            case .bar(var bar):
                bar.value = 0
                return .bar(bar)
            }
        }
        return still
    }
}

/// Draws a scene's HUDs (the value bar over the spinner) into a buffer. An animation frame that only
/// turns the spinner or moves the bar redraws those parts alone. No surface and no clock: the HUDs and
/// their opacity, the canvas and the buffer's previous frame come in, the new frame and its damage go out.
package struct HudPainter {
    package let renderer: ToastRenderer
    /// The side the HUD is anchored to: bar and spinner differ in width and are aligned to it.
    package let column: ScreenAnchor.Column

    /// The room left around the HUDs for their shadows, in logical pixels on every side.
    package var bleed: Int { renderer.style.shadowExtent }

    /// Where `huds` go, worked out once for as long as they look alike (`HudGeometry.fits`): each value
    /// of a stream asked the renderer to measure the bar's text four times and its value rect once more.
    private let lastGeometry = GeometryMemo()

    private final class GeometryMemo {
        var geometry: HudGeometry?
    }

    /// The logical size of `huds` stacked with the style's gap, with room for their shadows.
    package func size(of huds: [HudView], scale: PixelScale) -> Size {
        geometry(of: huds, scale: scale).size
    }

    /// The layout of `huds` at `scale`: remembered from the last call while the HUDs differ only in motion.
    package func geometry(of huds: [HudView], scale: PixelScale) -> HudGeometry {
        if let known = lastGeometry.geometry, known.fits(huds, scale: scale) { return known }
        let geometry = HudGeometry(huds, scale: scale, renderer: renderer, column: column)
        lastGeometry.geometry = geometry
        return geometry
    }

    /// What `paint` did: the frame the canvas now holds and what changed.
    package struct Painting {
        package var frame: HudFrame
        /// In buffer pixels; nil when the whole buffer was redrawn.
        package var damage: Rect?
    }

    /// Draws `huds` (a scene's, top to bottom) at `opacity` into `canvas` (a buffer of `size(of:)` at
    /// `scale`), which holds `previous` (nil: unknown, e.g. a fresh buffer). The canvas is made only if
    /// something is drawn: a buffer that already holds the frame (values going back and forth over two
    /// buffers) needs none. The HUDs alone, not the scene: passing the screen's scene copied all of it
    /// (its toasts, stacks and pill rule retained and released) at every value of a stream.
    package func paint(_ huds: [HudView], opacity: Double, scale: PixelScale, into makeCanvas: @autoclosure () -> Canvas,
               over previous: HudFrame?) -> Painting {
        var made: Canvas?
        func canvas() -> Canvas {
            if let made { return made }
            let canvas = makeCanvas()
            made = canvas
            return canvas
        }
        let frame = HudFrame(huds: huds, opacity: opacity, scale: scale)
        let geometry = geometry(of: huds, scale: scale)
        let origins = geometry.origins

        // The spinner turning and the bar's value are the only changes (the usual animation frame, a
        // stream of volume steps): the buffer already holds everything else, so redraw the wheel and the
        // bar row alone and damage just their rects.
        if frame.opacity >= 1, let previous, previous.opacity == frame.opacity, previous.scale == scale,
           HudFrame.differOnlyInMotion(previous.huds, huds) {
            for (index, hud) in huds.enumerated() where previous.huds[index] != hud {
                // A buffer may already hold this value or step (values alternating over two buffers):
                // nothing to draw, but the compositor shows the other one, so the part is still damaged.
                switch hud {
                case .spinner(let spinner): renderer.redrawSpinnerWheel(spinner, in: canvas(), at: origins[index], scale: scale)
                case .bar(let bar): renderer.redrawBarValue(bar, in: canvas(), at: origins[index], scale: scale)
                }
            }
            if let damage = geometry.motionDamage { return Painting(frame: frame, damage: damage) }
        }

        let canvas = canvas()
        canvas.clear()
        // Shadows first: the spinner's reaches under the bar's edge.
        for (index, origin) in origins.enumerated() {
            guard let shadow = renderer.hudShadowImage(size: geometry.sizes[index], scale: scale) else { continue }
            canvas.composite(shadow, atPixelX: (origin.x - bleed) * scale, y: (origin.y - bleed) * scale, opacity: opacity)
        }
        for (hud, origin) in zip(huds, origins) {
            renderer.drawHud(hud, in: canvas, at: origin, scale: scale, opacity: opacity)
        }
        return Painting(frame: frame, damage: nil)
    }

    package init(renderer: ToastRenderer, column: ScreenAnchor.Column) {
        self.renderer = renderer
        self.column = column
    }
}

/// Where a painter puts each HUD in its buffer and which pixels their motion changes, in the HUDs' look
/// alone: the same for every value of a bar (whatever icon the value picks) and every phase of a
/// spinner, so a stream of values reuses it. A class, its fields constant: the painter's memo hands it
/// out once a value, and as a struct of four arrays each hand-out was copied and its optional destroyed
/// through the runtime's value witnesses (~450 instructions a value).
package final class HudGeometry {
    package let huds: [HudView]
    package let scale: PixelScale
    /// The whole buffer's logical size, shadows included.
    package let size: Size
    /// Each HUD's logical size and top-left.
    package let sizes: [Size]
    package let origins: [Point]
    /// The buffer pixels a value step or a spinner step may change: the bar rows and the wheels (nil: no HUD).
    package let motionDamage: Rect?

    package init(_ huds: [HudView], scale: PixelScale, renderer: ToastRenderer, column: ScreenAnchor.Column) {
        let bleed = renderer.style.shadowExtent, gap = renderer.style.gap
        let sizes = huds.map { renderer.measureHud($0, scale: scale) }
        let width = sizes.map(\.width).max() ?? 0
        var origins: [Point] = []
        var damage: Rect?
        var y = bleed
        for (hud, size) in zip(huds, sizes) {
            let x = switch column {
            case .left: 0
            case .center: (width - size.width) / 2
            case .right: width - size.width
            }
            let origin = Point(x: bleed + x, y: y)
            origins.append(origin)
            y += size.height + gap
            let part = switch hud {
            case .spinner(let spinner): renderer.spinnerRect(spinner, scale: scale)
            case .bar(let bar): renderer.barValueRect(bar, scale: scale)
            }
            // Every pixel the part touches: it is drawn from the HUD's origin pixel (`origin × scale`,
            // rounded), and at a fractional scale its edges fall inside pixels.
            let pixels = scale.pixelsCovering(part).offsetBy(dx: origin.x * scale, dy: origin.y * scale)
            damage = damage.map { $0.union(pixels) } ?? pixels
        }
        self.huds = huds
        self.scale = scale
        self.sizes = sizes
        self.origins = origins
        self.motionDamage = damage
        size = Size(width: width + 2 * bleed,
                    height: sizes.map(\.height).reduce(0, +) + gap * max(0, sizes.count - 1) + 2 * bleed)
    }

    /// Whether this geometry is that of `huds` at `scale`.
    package func fits(_ huds: [HudView], scale: PixelScale) -> Bool {
        scale == self.scale && huds.count == self.huds.count && huds.indices.allSatisfy { Self.sameShape(huds[$0], self.huds[$0]) }
    }

    /// Whether two HUDs take the same room and put their moving parts in the same place: the same kind
    /// with the same label (a muted bar's value reads "Muted", whose rect may differ).
    package static func sameShape(_ a: HudView, _ b: HudView) -> Bool {
        if case .bar(let a) = a, case .bar(let b) = b { return a.label == b.label && a.muted == b.muted }
        if case .spinner(let a) = a, case .spinner(let b) = b { return a.label == b.label }
        return false
    }

    /// Whether the parts of two HUDs of the same shape that do not move are drawn alike: a bar's icon
    /// name (its glyph) and its icon, which follows the value's level.
    package static func sameStill(_ a: HudView, _ b: HudView) -> Bool {
        if case .bar(let a) = a, case .bar(let b) = b { return a.iconName == b.iconName && a.icon == b.icon }
        if case .spinner = a, case .spinner = b { return true }
        return false
    }
}
