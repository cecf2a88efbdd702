internal import CCairo
import Glibc

/// Value bars (volume, brightness) and the loading spinner.
extension ToastRenderer {
    private var hudPadding: Double { 14 }
    private var glyphSize: Double { Double(Self.hudGlyphSize) }
    /// The side of the icon box left of a value bar's label, in logical pixels.
    public static let hudGlyphSize = 18
    private var spinnerGap: Double { 12 }
    /// A HUD box's corner radius: a little rounder than a toast's.
    var hudCornerRadius: Double { style.cornerRadius + 2 }

    /// The logical size of `hud`: a bar is `style.hudWidth` wide; a spinner is a square box,
    /// widened to fit its label (up to `style.hudWidth`).
    public func measureHud(_ hud: HudView, scale: PixelScale) -> Size {
        switch hud {
        case .bar(let bar):
            let row = max(labelLayout(bar.label, scale: scale).height, glyphSize)
            let h = hudPadding * 2 + row + 10 + Double(style.hudBarHeight)
            return Size(width: style.hudWidth, height: Int(h.rounded(.up)))
        case .spinner(let spinner):
            let side = Double(style.spinnerSize) + hudPadding * 2
            guard let label = spinnerLabel(spinner, scale: scale) else {
                return Size(width: Int(side), height: Int(side))
            }
            let w = side + spinnerGap + label.width - 2
            return Size(width: Int(w.rounded(.up)), height: Int(side))
        }
    }

    /// The spinner wheel's rect inside a spinner HUD (relative to the HUD's top-left): only these pixels
    /// change with `phase`, so an animation frame can damage just this rect.
    public func spinnerRect(_ spinner: SpinnerView, scale: PixelScale) -> Rect {
        Rect(x: Int(hudPadding), y: Int(hudPadding), width: style.spinnerSize, height: style.spinnerSize)
    }

    /// Draws `hud` with its top-left at `origin`, at `opacity`.
    public func drawHud(_ hud: HudView, in canvas: Canvas, at origin: Point, scale: PixelScale, opacity: Double = 1) {
        let size = measureHud(hud, scale: scale)
        canvas.withContext(scale: scale, origin: origin) { cr in
            CairoDrawing.withOpacity(cr, origin: .zero, opacity: opacity) {
                CairoDrawing.box(cr, size: size, radius: hudCornerRadius, fill: style.hudBackground ?? style.backgrounds.normal,
                                 border: style.hudBorder ?? style.borders.low, borderWidth: style.borderWidth)
                switch hud {
                case .bar(let bar): drawBar(cr, bar, size: size, scale: scale)
                case .spinner(let spinner): drawSpinner(cr, spinner, size: size, scale: scale)
                }
            }
        }
    }

    /// Redraws only the wheel of `spinner`, a spinner HUD drawn at full opacity with its top-left at
    /// `origin`: clears `spinnerRect` and paints the box and the wheel clipped to it. For animation frames
    /// into a buffer that already holds the same HUD at another phase; the rest of the buffer is left alone.
    public func redrawSpinnerWheel(_ spinner: SpinnerView, in canvas: Canvas, at origin: Point, scale: PixelScale) {
        let size = measureHud(.spinner(spinner), scale: scale)
        let r = spinnerRect(spinner, scale: scale)
        canvas.withContext(scale: scale, origin: origin) { cr in
            clipToPixels(cr, covering: r, scale: scale)
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            CairoDrawing.box(cr, size: size, radius: hudCornerRadius, fill: style.hudBackground ?? style.backgrounds.normal,
                             border: style.hudBorder ?? style.borders.low, borderWidth: style.borderWidth)
            drawWheel(cr, spinner, scale: scale)
        }
    }

    /// Clips to the whole buffer pixels `rect` (logical, from the context's origin) touches. A part redrawn
    /// inside it then replaces every pixel it covers with what a full draw gives there; a clip with
    /// edges inside pixels (a fractional scale) would blend the old pixels at the edges in.
    private func clipToPixels(_ cr: OpaquePointer, covering rect: Rect, scale: PixelScale) {
        let pixels = scale.pixelsCovering(rect)
        cairo_save(cr)
        cairo_scale(cr, 1 / scale.factor, 1 / scale.factor)
        cairo_rectangle(cr, Double(pixels.x), Double(pixels.y), Double(pixels.width), Double(pixels.height))
        cairo_restore(cr)  // the path stays, in device space
        cairo_clip(cr)
    }

    private func labelLayout(_ label: String, scale: PixelScale) -> TextLayout {
        text.layout(TextKey(text: label, isMarkup: false, role: .hud, width: style.hudWidth - 120, maxHeight: nil,
                            scale: scale))
    }

    private func spinnerLabel(_ spinner: SpinnerView, scale: PixelScale) -> TextLayout? {
        guard let label = spinner.label, !label.isEmpty else { return nil }
        let maxWidth = style.hudWidth - style.spinnerSize - Int(hudPadding * 2 + spinnerGap)
        return text.layout(TextKey(text: label, isMarkup: false, role: .hud, width: maxWidth, maxHeight: nil,
                                   scale: scale))
    }

    /// The rect of a bar HUD (relative to the HUD's top-left) that its value changes: the value text and
    /// the bar row, with a margin for antialiasing and glyph overhang. It does not depend on the value, so
    /// it covers any value's text (at least as wide as the widest value text is right of the label).
    public func barValueRect(_ bar: HudBarView, scale: PixelScale) -> Rect {
        let size = measureHud(.bar(bar), scale: scale)
        let g = barGeometry(bar, scale: scale)
        let top = min(g.barY, g.valueY, hudPadding) - 2
        let bottom = max(g.barY + Double(style.hudBarHeight), g.valueBottom) + 2
        let left = hudPadding - 2
        let right = Double(size.width) - hudPadding + 2
        let x0 = max(0, Int(left.rounded(.down))), y0 = max(0, Int(top.rounded(.down)))
        let x1 = min(size.width, Int(right.rounded(.up))), y1 = min(size.height, Int(bottom.rounded(.up)))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Redraws only `barValueRect` of `bar`, a bar HUD drawn at full opacity with its top-left at `origin`
    /// into a buffer that already holds the same HUD with another value: copies the HUD's unchanging part
    /// (box, glyph, label: rendered once and cached) into that rect, then draws the value and the bar
    /// clipped to it. The pixels come out the same as `drawHud`'s; the rest of the buffer is left alone.
    public func redrawBarValue(_ bar: HudBarView, in canvas: Canvas, at origin: Point, scale: PixelScale) {
        let size = measureHud(.bar(bar), scale: scale)
        let r = barValueRect(bar, scale: scale)
        let chrome = barChrome(bar, size: size, scale: scale)
        canvas.withContext(scale: scale, origin: origin) { cr in
            clipToPixels(cr, covering: r, scale: scale)
            // The chrome is in buffer pixels: copy it 1:1 (this also replaces the old value's pixels).
            cairo_save(cr)
            cairo_identity_matrix(cr)
            cairo_set_source_surface(cr, chrome.surface, Double(origin.x * scale), Double(origin.y * scale))
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cr)
            cairo_restore(cr)
            drawBarValue(cr, bar, size: size, scale: scale)
        }
    }

    /// The box, glyph and label of `bar` (everything but the value) at full opacity, cached for the
    /// last bar drawn: a stream of values only redraws the value part over a copy of it.
    private func barChrome(_ bar: HudBarView, size: Size, scale: PixelScale) -> Canvas {
        var key = bar
        key.value = 0
        if let cached = hudChrome, cached.bar == key, cached.scale == scale { return cached.image }
        let image = Canvas(size: size, scale: scale)
        image.withContext(scale: scale) { cr in
            CairoDrawing.box(cr, size: size, radius: hudCornerRadius, fill: style.hudBackground ?? style.backgrounds.normal,
                             border: style.hudBorder ?? style.borders.low, borderWidth: style.borderWidth)
            drawBarChrome(cr, bar, size: size, scale: scale)
        }
        hudChrome = (key, scale, image)
        return image
    }

    /// Where the parts of a bar HUD go (logical px, relative to its top-left).
    private func barGeometry(_ bar: HudBarView, scale: PixelScale)
        -> (valueY: Double, valueBottom: Double, barY: Double) {
        let row = max(labelLayout(bar.label, scale: scale).height, glyphSize)
        let value = valueLayout(bar, scale: scale)
        let valueY = hudPadding + (row - value.height) / 2
        return (valueY, valueY + value.height, hudPadding + row + 10)
    }

    private func valueLayout(_ bar: HudBarView, scale: PixelScale) -> TextLayout {
        text.layout(TextKey(text: bar.muted ? "Muted" : "\(max(bar.value, 0))%", isMarkup: false,
                            role: .hudValue, width: nil, maxHeight: nil, scale: scale))
    }

    private func drawBar(_ cr: OpaquePointer, _ bar: HudBarView, size: Size, scale: PixelScale) {
        drawBarChrome(cr, bar, size: size, scale: scale)
        drawBarValue(cr, bar, size: size, scale: scale)
    }

    /// The glyph, the label and the empty track: what does not change with the value.
    private func drawBarChrome(_ cr: OpaquePointer, _ bar: HudBarView, size: Size, scale: PixelScale) {
        let pad = hudPadding
        let label = labelLayout(bar.label, scale: scale)
        let row = max(label.height, glyphSize)
        let textColor = bar.muted ? style.captionColor : style.summaryColor
        var labelX = pad
        if let icon = bar.icon, icon.width > 0, icon.height > 0, let surface = imageSurface(icon) {
            // A theme's icon (already in the text colour if symbolic), fitted and centred in the glyph's box.
            let fit = glyphSize / Double(max(icon.width, icon.height))
            let w = Double(icon.width) * fit, h = Double(icon.height) * fit
            cairo_save(cr)
            cairo_translate(cr, pad + (glyphSize - w) / 2, pad + (row - glyphSize) / 2 + (glyphSize - h) / 2)
            cairo_scale(cr, fit, fit)
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_restore(cr)
            labelX += glyphSize + 8
        } else if let icon = bar.iconName, let glyph = Glyph(iconName: icon) {
            drawGlyph(cr, glyph, muted: bar.muted, x: pad, y: pad + (row - glyphSize) / 2, color: textColor)
            labelX += glyphSize + 8
        }
        label.draw(cr, x: labelX, y: pad + (row - label.height) / 2, color: textColor)
        // The empty track (the value text above it does not reach it, so drawing it first changes nothing).
        let barH = Double(style.hudBarHeight)
        CairoDrawing.roundedRect(cr, x: pad, y: pad + row + 10, width: Double(size.width) - 2 * pad, height: barH,
                                 radius: barH / 2)
        CairoDrawing.setColor(cr, style.trackColor)
        cairo_fill(cr)
    }

    /// The value text and the bar's fill.
    private func drawBarValue(_ cr: OpaquePointer, _ bar: HudBarView, size: Size, scale: PixelScale) {
        let pad = hudPadding
        let value = valueLayout(bar, scale: scale)
        let row = max(labelLayout(bar.label, scale: scale).height, glyphSize)
        value.draw(cr, x: Double(size.width) - pad - value.width, y: pad + (row - value.height) / 2,
                   color: bar.muted ? style.captionColor : style.bodyColor)

        let barY = pad + row + 10
        let barW = Double(size.width) - 2 * pad
        let barH = Double(style.hudBarHeight)
        let radius = barH / 2
        let v = max(bar.value, 0)
        let fill = bar.muted ? style.hudMutedFill : style.hudFill
        if v > 0 {
            let w = max(barH, barW * Double(min(v, 100)) / 100)
            CairoDrawing.roundedRect(cr, x: pad, y: barY, width: w, height: barH, radius: radius)
            CairoDrawing.setColor(cr, fill)
            cairo_fill(cr)
        }
        if v > 100 {
            // Like wob: the part past 100 is drawn again from the left in the overflow colour.
            let over = Double(min(v - 100, 100)) / 100
            let w = max(barH, barW * over)
            CairoDrawing.roundedRect(cr, x: pad, y: barY, width: w, height: barH, radius: radius)
            CairoDrawing.setColor(cr, bar.muted ? style.hudMutedFill.withAlpha(0.6) : style.hudOverflowColor)
            cairo_fill(cr)
        }
    }

    private func drawSpinner(_ cr: OpaquePointer, _ spinner: SpinnerView, size: Size, scale: PixelScale) {
        drawWheel(cr, spinner, scale: scale)
        let r = spinnerRect(spinner, scale: scale)
        if let label = spinnerLabel(spinner, scale: scale) {
            label.draw(cr, x: Double(r.maxX) + spinnerGap, y: (Double(size.height) - label.height) / 2,
                       color: style.summaryColor)
        }
    }

    /// The wheel alone: it stays inside `spinnerRect`.
    private func drawWheel(_ cr: OpaquePointer, _ spinner: SpinnerView, scale: PixelScale) {
        let r = spinnerRect(spinner, scale: scale)
        let cx = Double(r.x) + Double(r.width) / 2, cy = Double(r.y) + Double(r.height) / 2
        let ticks = 12
        let lineWidth = max(2, Double(r.width) / 10)
        let outer = Double(r.width) / 2 - lineWidth / 2
        let inner = outer * 0.5
        let phase = spinner.phase - spinner.phase.rounded(.down)
        cairo_save(cr)
        cairo_set_line_width(cr, lineWidth)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        for i in 0..<ticks {
            // Tick 0 leads (brightest); the others trail it with fading alpha.
            let angle = 2 * Double.pi * (phase - Double(i) / Double(ticks)) - Double.pi / 2
            let alpha = 1 - 0.8 * Double(i) / Double(ticks - 1)
            let (s, c) = (sin(angle), cos(angle))
            cairo_move_to(cr, cx + c * inner, cy + s * inner)
            cairo_line_to(cr, cx + c * outer, cy + s * outer)
            CairoDrawing.setColor(cr, style.spinnerColor.withAlpha(alpha))
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }

    // MARK: - Glyphs

    private enum Glyph {
        case speaker, sun, mic
        init?(iconName: String) {
            let n = iconName.lowercased()
            if n.contains("mic") { self = .mic }
            else if n.contains("volume") || n.contains("audio") || n.contains("speaker") { self = .speaker }
            else if n.contains("bright") || n.contains("display") { self = .sun }
            else { return nil }
        }
    }

    /// A small vector icon in an 18×18 box at `(x, y)`; muted adds a slash.
    private func drawGlyph(_ cr: OpaquePointer, _ glyph: Glyph, muted: Bool, x: Double, y: Double, color: Color) {
        cairo_save(cr)
        cairo_translate(cr, x, y)
        CairoDrawing.setColor(cr, color)
        cairo_set_line_width(cr, 1.6)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        switch glyph {
        case .speaker:
            cairo_move_to(cr, 2, 6.5); cairo_line_to(cr, 5.5, 6.5); cairo_line_to(cr, 10, 2.5)
            cairo_line_to(cr, 10, 15.5); cairo_line_to(cr, 5.5, 11.5); cairo_line_to(cr, 2, 11.5)
            cairo_close_path(cr); cairo_fill(cr)
            if !muted {
                cairo_arc(cr, 10, 9, 3.5, -0.9, 0.9); cairo_stroke(cr)
                cairo_arc(cr, 10, 9, 6.5, -0.9, 0.9); cairo_stroke(cr)
            }
        case .sun:
            cairo_arc(cr, 9, 9, 3.6, 0, 2 * Double.pi); cairo_fill(cr)
            for i in 0..<8 {
                let a = Double(i) * Double.pi / 4
                cairo_move_to(cr, 9 + cos(a) * 6, 9 + sin(a) * 6)
                cairo_line_to(cr, 9 + cos(a) * 8, 9 + sin(a) * 8)
            }
            cairo_stroke(cr)
        case .mic:
            CairoDrawing.roundedRect(cr, x: 6, y: 1.5, width: 6, height: 10, radius: 3); cairo_fill(cr)
            cairo_arc(cr, 9, 8, 5, 0, Double.pi); cairo_stroke(cr)
            cairo_move_to(cr, 9, 13); cairo_line_to(cr, 9, 16.5); cairo_stroke(cr)
        }
        if muted {
            cairo_set_line_width(cr, 1.8)
            cairo_move_to(cr, 12, 6); cairo_line_to(cr, 17, 12)
            cairo_move_to(cr, 17, 6); cairo_line_to(cr, 12, 12)
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }
}
