import ToastRender

/// What a HUD buffer holds; equal but for the spinner's phase and the bar's value means only the
/// wheel and the bar row must be redrawn.
struct HudFrame: Hashable {
    var huds: [HudView]
    var opacity: Double
    var scale: PixelScale

    /// The same HUDs with the spinner standing still and the bar at 0.
    var withoutMotion: HudFrame {
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
/// turns the spinner or moves the bar redraws those parts alone. No surface and no clock: the scene,
/// the canvas and the buffer's previous frame come in, the new frame and its damage go out.
struct HudPainter {
    let renderer: ToastRenderer
    /// The side the HUD is anchored to: bar and spinner differ in width and are aligned to it.
    let column: ScreenAnchor.Column

    /// The room left around the HUDs for their shadows, in logical pixels on every side.
    var bleed: Int { renderer.style.shadowExtent }

    /// The logical size of `huds` stacked with the style's gap, with room for their shadows.
    func size(of huds: [HudView], scale: PixelScale) -> Size {
        let sizes = huds.map { renderer.measureHud($0, scale: scale) }
        let gap = renderer.style.gap
        return Size(width: (sizes.map(\.width).max() ?? 0) + 2 * bleed,
                    height: sizes.map(\.height).reduce(0, +) + gap * max(0, sizes.count - 1) + 2 * bleed)
    }

    /// What `paint` did: the frame the canvas now holds and what changed.
    struct Painting {
        var frame: HudFrame
        /// In buffer pixels; nil when the whole buffer was redrawn.
        var damage: Rect?
    }

    /// Draws the HUDs of `scene` into `canvas` (a buffer of `size(of:)` at `scale`), which holds
    /// `previous` (nil: unknown, e.g. a fresh buffer).
    func paint(_ scene: Scene, scale: PixelScale, into canvas: Canvas, over previous: HudFrame?) -> Painting {
        let frame = HudFrame(huds: scene.huds, opacity: scene.hudOpacity, scale: scale)
        let width = size(of: scene.huds, scale: scale).width - 2 * bleed
        var origins: [Point] = []
        var y = bleed
        for hud in scene.huds {
            let size = renderer.measureHud(hud, scale: scale)
            let x = switch column {
            case .left: 0
            case .center: (width - size.width) / 2
            case .right: width - size.width
            }
            origins.append(Point(x: bleed + x, y: y))
            y += size.height + renderer.style.gap
        }

        // The spinner turning and the bar's value are the only changes (the usual animation frame, a
        // stream of volume steps): the buffer already holds everything else, so redraw the wheel and the
        // bar row alone and damage just their rects.
        if frame.opacity >= 1, let previous, previous.withoutMotion == frame.withoutMotion {
            var damage: Rect?
            for (index, hud) in scene.huds.enumerated() {
                let part: Rect
                switch hud {
                case .spinner(let spinner):
                    // As for the bar: a buffer may already hold this step, but the compositor shows the
                    // other buffer, so the rect is still damaged.
                    if previous.huds[index] != hud {
                        renderer.redrawSpinnerWheel(spinner, in: canvas, at: origins[index], scale: scale)
                    }
                    part = renderer.spinnerRect(spinner, scale: scale)
                case .bar(let bar):
                    // A buffer may already hold this value (values alternating over two buffers): nothing
                    // to draw, but the compositor shows the other one, so the rect is still damaged.
                    if previous.huds[index] != hud {
                        renderer.redrawBarValue(bar, in: canvas, at: origins[index], scale: scale)
                    }
                    part = renderer.barValueRect(bar, scale: scale)
                }
                // Every pixel the part touches: it is drawn from the HUD's origin pixel (`origin × scale`,
                // rounded), and at a fractional scale its edges fall inside pixels.
                let pixels = scale.pixelsCovering(part).offsetBy(dx: origins[index].x * scale, dy: origins[index].y * scale)
                damage = damage.map { $0.union(pixels) } ?? pixels
            }
            if let damage { return Painting(frame: frame, damage: damage) }
        }

        canvas.clear()
        // Shadows first: the spinner's reaches under the bar's edge.
        for (hud, origin) in zip(scene.huds, origins) {
            guard let shadow = renderer.hudShadowImage(size: renderer.measureHud(hud, scale: scale), scale: scale) else { continue }
            canvas.composite(shadow, atPixelX: (origin.x - bleed) * scale, y: (origin.y - bleed) * scale, opacity: scene.hudOpacity)
        }
        for (hud, origin) in zip(scene.huds, origins) {
            renderer.drawHud(hud, in: canvas, at: origin, scale: scale, opacity: scene.hudOpacity)
        }
        return Painting(frame: frame, damage: nil)
    }
}
