internal import CCairo
import ToastVocabulary

/// Draws toasts, the "+N more" pill, stacks and HUDs into a `Canvas`.
///
/// Holds the Pango font map, one Pango context per buffer scale, a cache of text layouts and of converted
/// images. Create one per daemon and keep it: the first use pays for fontconfig and font loading, later
/// draws of the same content reuse the shaped layouts. Not thread-safe (the daemon has one thread).
public final class ToastRenderer {
    public let style: ToastStyle
    let text: TextEngine
    /// Converted notification images, most recent last; compared by content (identity fast path).
    private var images: [(image: RGBAImage, surface: OpaquePointer, bytes: Int)] = []
    private let imageCapacity = 8
    /// Bytes of converted images kept: a few toasts' pictures at scale 4, not eight of the largest.
    let imageByteBudget = 2 << 20
    /// Bytes the converted images hold now.
    private(set) var imageBytes = 0
    /// Toast boxes by size, scale and what they look like (fill, border, radius); see `image(of:scale:)`.
    private struct BoxKey: Hashable {
        var size: Size; var scale: PixelScale
        var fill: Color; var border: Color; var borderWidth: Double; var radius: Double
    }
    private var boxes: [BoxKey: Canvas] = [:]
    /// Boxes drawn once since the stacks last settled (`releaseBoxes`): a box is cached at its second
    /// use, when toasts of one size come faster than the stack settles (a burst); a toast on its own
    /// draws its box into its picture, and no copy of it stays beside the picture while it is shown.
    private var boxesDrawnOnce: Set<BoxKey> = []
    private let boxCapacity = 16
    /// Bytes of boxes kept: toasts of many heights at a large scale would otherwise pile up megabytes.
    let boxByteBudget = 4 << 20
    /// Bytes the cached boxes and shadows hold now.
    private(set) var boxBytes = 0
    /// How many boxes are cached now.
    package var cachedBoxCount: Int { boxes.count }
    /// Shadows by box size, scale and look; see `shadowImage`. Counted in `boxBytes` with the boxes.
    private struct ShadowKey: Hashable {
        var size: Size; var scale: PixelScale; var shadow: ToastStyle.Shadow; var radius: Double
    }
    private var shadows: [ShadowKey: ShadowMask] = [:]
    /// A bar HUD's box, glyph and label (value zeroed in the key) at one scale; see `redrawBarValue`.
    var hudChrome: (bar: HudBarView, scale: PixelScale, image: Canvas)?
    /// The memory of the picture of the last toast to leave the screen, for the next toast's picture
    /// (`keepPictureMemory`).
    private var keptPictureMemory: PictureMemory?
    /// The largest picture memory kept while idle: a toast of text is ~115 KiB at scale 1, ~460 KiB at 2.
    static let keptPictureBytes = 512 << 10

    public init(style: ToastStyle = ToastStyle()) {
        self.style = style
        text = TextEngine(style: style)
    }

    deinit {
        for entry in images { cairo_surface_destroy(entry.surface) }
    }

    /// What the caches hold now, in bytes: converted pictures, toast boxes and text layouts.
    public var cachedBytes: Int { imageBytes + boxBytes + text.cachedBytes }

    /// Whether text laid out since the last release may have loaded fallback fonts (scripts the
    /// style's fonts do not cover).
    public var mayHoldFallbackFonts: Bool { text.mayHoldFallbackFonts }

    /// Lets go of everything cached for what was on screen: layouts, pictures, boxes, the HUD's
    /// chrome, and, if text in other scripts made Pango load fallback fonts, the font map holding them
    /// (a fresh one is prewarmed at `scale`, so the next toast still finds its fonts ready). For when
    /// nothing is shown: a burst of exotic text otherwise keeps tens of megabytes of fonts for good.
    /// Returns whether the fonts were replaced.
    ///
    /// `resetCairoFontCaches` also empties cairo's process-wide font and glyph caches, where the
    /// released fonts otherwise linger: only when this renderer is the process's only user of cairo
    /// fonts (see `TextEngine.releaseLayouts`).
    @discardableResult
    public func releaseCaches(scale: PixelScale = 1, resetCairoFontCaches: Bool = false) -> Bool {
        for entry in images { cairo_surface_destroy(entry.surface) }
        images.removeAll()
        imageBytes = 0
        boxes.removeAll()
        boxesDrawnOnce.removeAll()
        shadows.removeAll()
        boxBytes = 0
        hudChrome = nil
        guard text.releaseLayouts(resetCairoFontCaches: resetCairoFontCaches) else { return false }
        prewarm(scale: scale)
        return true
    }

    /// Lets go of the cached boxes, keeping the shadows (a shown toast's close fade blends its shadow
    /// again, and blurring it anew would cost that fade's first frame). For when the stacks stopped
    /// changing: the cache spares each toast of a burst drawing its box, and the burst is over then,
    /// while a settled toast kept a copy of its box (~100 KiB at scale 1) beside its picture.
    public func releaseBoxes() {
        boxBytes -= boxes.values.reduce(0) { $0 + $1.stride * $1.height }
        boxes.removeAll()
        boxesDrawnOnce.removeAll()
    }

    /// Pays the cold-start cost now (fontconfig configuration, font files, shaper set-up: ~10–20 ms here)
    /// instead of at the first toast. Call it once at daemon start, ideally while waiting for the
    /// compositor's replies, with the scale of the output the first toast will most likely go to.
    public func prewarm(scale: PixelScale = 1) {
        text.prewarm(scale: scale)
        // One throwaway toast through the whole path warms cairo's compositing code too: its box,
        // shadow and progress bar, but no text (drawing glyphs keeps ~0.4 MB, see `TextEngine.prewarm`).
        let sample = ToastView(summary: "", progress: 50)
        let canvas = Canvas(size: measure(sample, scale: scale), scale: scale)
        draw(sample, in: canvas, at: .zero, scale: scale, opacity: 0.5)
        draw(sample, in: canvas, at: .zero, scale: scale)
    }

    // MARK: - Toasts

    /// The logical size of `toast`: `style.width` wide, as tall as its content
    /// (summary one line, body wrapped and capped at `style.maxBodyHeight`, progress bar, action pills).
    public func measure(_ toast: ToastView, scale: PixelScale) -> Size {
        layout(of: toast, scale: scale).size
    }

    /// The layout of `toast` in its own style if it has one, else in the renderer's.
    private func layout(of toast: ToastView, scale: PixelScale) -> ToastLayout {
        guard let own = toast.style else { return ToastLayout(toast, style: style, scale: scale, text: text) }
        return ToastLayout(toast, style: own, scale: scale, text: text,
                           ownFonts: own.font != style.font || own.summaryFont != style.summaryFont
                               || own.captionFont != style.captionFont || own.actionFont != style.actionFont)
    }

    /// Where the action pills of `toast` are, relative to the toast's top-left, in `toast.actions` order.
    /// For the daemon's opt-in input region and for mapping a click to an action.
    public func actionRects(_ toast: ToastView, scale: PixelScale) -> [Rect] {
        layout(of: toast, scale: scale).actions.map(\.rect)
    }

    /// Draws `toast` with its top-left at `origin` (logical px), at `opacity` (0...1), over what is there.
    /// Touches only the toast's own rect (`origin` + `measure(toast, scale:)`), so one toast can be redrawn
    /// alone: `canvas.clear(rect, scale:)` then `draw`.
    public func draw(_ toast: ToastView, in canvas: Canvas, at origin: Point, scale: PixelScale, opacity: Double = 1) {
        let layout = layout(of: toast, scale: scale)
        canvas.withContext(scale: scale, origin: origin) { cr in
            CairoDrawing.withOpacity(cr, origin: .zero, opacity: opacity) {
                drawToast(cr, toast, layout)
            }
        }
    }

    /// Keeps the largest of `candidates` (the pictures' memory of a stack going away as the screen
    /// empties) no larger than `keptPictureBytes`, for the next toast's picture; with none such, keeps
    /// what it kept. Its pages stay the daemon's: a toast after idle drew its picture into fresh memory,
    /// ~30 pages given one by one by the kernel (~50 µs here) before its first frame.
    public func keepPictureMemory(_ candidates: some Sequence<PictureMemory>) {
        guard let largest = candidates.filter({ $0.count <= Self.keptPictureBytes }).max(by: { $0.count < $1.count })
        else { return }
        keptPictureMemory = largest
    }

    /// How many bytes of picture memory are kept for the next toast (`keepPictureMemory`).
    public var keptPictureByteCount: Int { keptPictureMemory?.count ?? 0 }

    /// The kept picture memory, handed out once.
    private func takeKeptPictureMemory() -> PictureMemory? {
        defer { keptPictureMemory = nil }
        return keptPictureMemory
    }

    /// `toast` alone in a new canvas of its size (`measure`) at `scale`: the picture the daemon renders once
    /// and composites on animation frames. The same pixels as `draw` into a transparent canvas at `.zero`,
    /// but the box (fill and border, the dearest part after the text) is copied from a small cache of
    /// boxes by size and urgency, which the toasts of a burst mostly hit (`cachedBox`). Drawn into `spare` (another
    /// toast's picture that is no longer needed) when it has the size: a toast of the same size, in a
    /// burst most of them, then costs no fresh memory (each new page a fault); else into the memory
    /// kept (`keepPictureMemory`) when it is large enough.
    public func image(of toast: ToastView, scale: PixelScale, reusing spare: Canvas? = nil) -> Canvas {
        let layout = layout(of: toast, scale: scale)
        let (width, height) = (max(1, layout.size.width * scale), max(1, layout.size.height * scale))
        // Not zeroed first when a cached box, copied over all of it, sets every pixel.
        let canvas = spare.flatMap { $0.width == width && $0.height == height ? $0 : nil }
            ?? Canvas(uninitializedWidth: width, height: height, in: takeKeptPictureMemory())
            ?? Canvas(width: width, height: height)
        let style = toast.style ?? style
        let key = BoxKey(size: layout.size, scale: scale, fill: style.backgrounds[toast.urgency],
                         border: style.borders[toast.urgency], borderWidth: style.borderWidth, radius: style.cornerRadius)
        guard let box = cachedBox(key) else {
            canvas.clear()
            canvas.withContext(scale: scale) { cr in drawToast(cr, toast, layout) }
            return canvas
        }
        canvas.composite(box, atPixelX: 0, y: 0, replacing: true)
        canvas.withContext(scale: scale) { cr in drawToast(cr, toast, layout, box: false) }
        return canvas
    }

    /// The soft shadow of `toast`'s box (nil when its style has none): a mask `style.shadowExtent`
    /// larger than the box on every side, to composite with its top-left that far up and left of the
    /// toast's, under it. It is empty where the box is, so a translucent box shows what is behind it
    /// rather than its own shadow. Rendered once per box size and look, like the boxes.
    public func shadowImage(of toast: ToastView, size: Size, scale: PixelScale) -> ShadowMask? {
        let style = toast.style ?? style
        return shadowImage(size: size, cornerRadius: style.cornerRadius, shadow: style.shadow, scale: scale)
    }

    /// The soft shadow of a HUD's box of `size` (`measureHud`), as `shadowImage(of:size:scale:)`.
    public func hudShadowImage(size: Size, scale: PixelScale) -> ShadowMask? {
        shadowImage(size: size, cornerRadius: hudCornerRadius, shadow: style.shadow, scale: scale)
    }

    private func shadowImage(size: Size, cornerRadius: Double, shadow: ToastStyle.Shadow?, scale: PixelScale) -> ShadowMask? {
        guard let shadow, shadow.radius > 0, shadow.color.alpha > 0 else { return nil }
        let key = ShadowKey(size: size, scale: scale, shadow: shadow, radius: cornerRadius)
        if let hit = shadows[key] { return hit }
        let extent = Double(shadow.radius)
        let outer = Size(width: size.width + 2 * shadow.radius, height: size.height + 2 * shadow.radius)
        guard let mask = ShadowMask(width: max(1, outer.width * scale), height: max(1, outer.height * scale),
                                    color: shadow.color) else { return nil }
        // The box's shape, dropped a little, blurred so that it fades out within the extent.
        if let cr = cairo_create(mask.surface) {
            cairo_scale(cr, scale.factor, scale.factor)
            CairoDrawing.roundedRect(cr, x: extent, y: extent + Double(shadow.drop), width: Double(size.width),
                                     height: Double(size.height), radius: cornerRadius)
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            cairo_fill(cr)
            cairo_destroy(cr)
        }
        cairo_surface_flush(mask.surface)
        if let data = cairo_image_surface_get_data(mask.surface) {
            let spread = (shadow.radius - shadow.drop) * scale
            ShadowBlur.blur(data, width: mask.width, height: mask.height, stride: mask.stride, radius: max(1, spread / 3))
        }
        cairo_surface_mark_dirty(mask.surface)
        // Nothing under the box itself.
        if let cr = cairo_create(mask.surface) {
            cairo_scale(cr, scale.factor, scale.factor)
            CairoDrawing.roundedRect(cr, x: extent, y: extent, width: Double(size.width), height: Double(size.height),
                                     radius: cornerRadius)
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_fill(cr)
            cairo_destroy(cr)
        }
        cairo_surface_flush(mask.surface)
        makeRoomForBox(bytes: mask.byteCount, entries: shadows.count)
        shadows[key] = mask
        return mask
    }

    /// The box `key` describes (`CairoDrawing.box`), from the cache or drawn into it; nil at its first
    /// use since the stacks settled unless `evenFirst` (the caller draws it in place: the same cost, and
    /// nothing kept).
    private func cachedBox(_ key: BoxKey, evenFirst: Bool = false) -> Canvas? {
        if let hit = boxes[key] { return hit }
        if !evenFirst {
            if boxesDrawnOnce.count >= boxCapacity { boxesDrawnOnce.removeAll() }
            guard !boxesDrawnOnce.insert(key).inserted else { return nil }
        }
        let canvas = Canvas(size: key.size, scale: key.scale)
        canvas.withContext(scale: key.scale) { cr in
            CairoDrawing.box(cr, size: key.size, radius: key.radius, fill: key.fill, border: key.border,
                             borderWidth: key.borderWidth)
        }
        makeRoomForBox(bytes: canvas.stride * canvas.height, entries: boxes.count)
        boxes[key] = canvas
        return canvas
    }

    /// Counts `bytes` (a box or a shadow) into the box and shadow caches' budget, emptying both first when
    /// one holds `boxCapacity` entries or the bytes would pass `boxByteBudget` (rare: toasts of many heights).
    private func makeRoomForBox(bytes: Int, entries: Int) {
        if entries >= boxCapacity || boxBytes + bytes > boxByteBudget {
            boxes.removeAll()
            shadows.removeAll()
            boxBytes = 0
        }
        boxBytes += bytes
    }

    private func drawBox(_ cr: OpaquePointer, size: Size, style: ToastStyle, urgency: Urgency) {
        CairoDrawing.box(cr, size: size, radius: style.cornerRadius, fill: style.backgrounds[urgency],
                         border: style.borders[urgency], borderWidth: style.borderWidth)
    }

    private func drawToast(_ cr: OpaquePointer, _ toast: ToastView, _ layout: ToastLayout, box: Bool = true) {
        let style = toast.style ?? self.style
        if box { drawBox(cr, size: layout.size, style: style, urgency: toast.urgency) }
        if let fill = style.progressFill, let progress = toast.progress {
            CairoDrawing.progressFill(cr, size: layout.size, style: style, fill: fill, colour: style.accents[toast.urgency],
                                      fraction: Double(min(max(progress, 0), 100)) / 100)
        }
        if let r = layout.imageRect, let image = toast.image, let surface = imageSurface(image) {
            cairo_save(cr)
            CairoDrawing.roundedRect(cr, x: r.x, y: r.y, width: r.width, height: r.height,
                                     radius: style.imageCornerRadius)
            cairo_clip(cr)
            cairo_translate(cr, r.x, r.y)
            cairo_scale(cr, r.width / Double(image.width), r.height / Double(image.height))
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_restore(cr)
        }
        if let c = layout.caption { c.layout.draw(cr, x: c.x, y: c.y, color: style.captionColor) }
        if let s = layout.summary { s.layout.draw(cr, x: s.x, y: s.y, color: style.summaryColor) }
        if let b = layout.body { b.layout.draw(cr, x: b.x, y: b.y, color: style.bodyColor) }
        if let bar = layout.progressBar, let progress = toast.progress {
            let radius = bar.height / 2
            CairoDrawing.roundedRect(cr, x: bar.x, y: bar.y, width: bar.width, height: bar.height, radius: radius)
            CairoDrawing.setColor(cr, style.trackColor)
            cairo_fill(cr)
            let fraction = Double(min(max(progress, 0), 100)) / 100
            if fraction > 0 {
                // At least a full circle so that 1% still reads as a dot, not a sliver.
                let w = max(bar.height, bar.width * fraction)
                CairoDrawing.roundedRect(cr, x: bar.x, y: bar.y, width: w, height: bar.height, radius: radius)
                CairoDrawing.setColor(cr, style.accents[toast.urgency])
                cairo_fill(cr)
            }
        }
        for (index, action) in layout.actions.enumerated() {
            let chosen = index == toast.chosenAction
            drawPill(cr, rect: action.rect, fill: style.actionBackground,
                     border: chosen ? style.accents[toast.urgency] : style.actionBorder, borderWidth: chosen ? 2 : 1)
            action.layout.draw(cr, x: action.textX, y: action.textY, color: style.actionText)
        }
        if let field = layout.replyField, let reply = toast.reply {
            let r = field.rect
            CairoDrawing.roundedRect(cr, x: Double(r.x) + 0.5, y: Double(r.y) + 0.5, width: Double(r.width) - 1,
                                     height: Double(r.height) - 1, radius: 6)
            CairoDrawing.setColor(cr, style.actionBackground)
            cairo_fill_preserve(cr)
            cairo_set_line_width(cr, reply.focused ? 2 : 1)
            CairoDrawing.setColor(cr, reply.focused ? style.accents[toast.urgency] : style.actionBorder)
            cairo_stroke(cr)
            let colour = reply.draft.isEmpty ? style.actionText.withAlpha(style.actionText.alpha * 0.55) : style.actionText
            field.layout.draw(cr, x: field.textX, y: field.textY, color: colour)
        }
    }

    /// Where the reply field of `toast` is, relative to the toast's top-left (nil: it has none).
    public func replyFieldRect(_ toast: ToastView, scale: PixelScale) -> Rect? {
        layout(of: toast, scale: scale).replyField?.rect
    }

    private func drawPill(_ cr: OpaquePointer, rect: Rect, fill: Color, border: Color, borderWidth bw: Double = 1) {
        CairoDrawing.roundedRect(cr, x: Double(rect.x) + bw / 2, y: Double(rect.y) + bw / 2,
                                 width: Double(rect.width) - bw, height: Double(rect.height) - bw,
                                 radius: Double(rect.height) / 2)
        CairoDrawing.setColor(cr, fill)
        cairo_fill_preserve(cr)
        cairo_set_line_width(cr, bw)
        CairoDrawing.setColor(cr, border)
        cairo_stroke(cr)
    }

    /// `image` as a cairo surface, from the cache of converted pictures (owned by it).
    func imageSurface(_ image: RGBAImage) -> OpaquePointer? {
        if let i = images.firstIndex(where: { $0.image == image }) {
            let hit = images.remove(at: i)
            images.append(hit)
            return hit.surface
        }
        guard let surface = CairoDrawing.surface(from: image) else { return nil }
        let bytes = Int(cairo_image_surface_get_stride(surface)) * Int(cairo_image_surface_get_height(surface))
        // The oldest go first; the one being drawn always stays, whatever its size.
        while let oldest = images.first, images.count >= imageCapacity || imageBytes + bytes > imageByteBudget {
            cairo_surface_destroy(oldest.surface)
            imageBytes -= oldest.bytes
            images.removeFirst()
        }
        images.append((image, surface, bytes))
        imageBytes += bytes
        return surface
    }

    // MARK: - "+N more" pill

    /// The logical size of the pill saying "+`count` more" (or what `look` says).
    public func measureMorePill(count: Int, scale: PixelScale, look: MorePillLook? = nil) -> Size {
        let l = morePillText(count: count, scale: scale, look: look)
        let padX = look?.padding ?? (style.actionPaddingX + 2), padY = look?.padding ?? style.actionPaddingY
        return Size(width: Int((l.width + 2 * Double(padX)).rounded(.up)),
                    height: Int((l.height + 2 * Double(padY)).rounded(.up)))
    }

    /// Draws the "+`count` more" pill (or what `look` says) with its top-left at `origin`.
    public func drawMorePill(count: Int, in canvas: Canvas, at origin: Point, scale: PixelScale, opacity: Double = 1,
                             look: MorePillLook? = nil) {
        let size = measureMorePill(count: count, scale: scale, look: look)
        let l = morePillText(count: count, scale: scale, look: look)
        let box = BoxKey(size: size, scale: scale, fill: look?.background ?? style.backgrounds.normal,
                         border: look?.borderColor ?? style.borders.low, borderWidth: look?.borderWidth ?? 1,
                         radius: look?.cornerRadius ?? Double(size.height) / 2)
        let (textX, textY) = ((Double(size.width) - l.width) / 2, (Double(size.height) - l.height) / 2)
        let textColor = look?.textColor ?? style.bodyColor
        // The pill is drawn at every frame its count changes (each frame of a burst): its box, filled
        // and stroked, cost ~280k instructions to rasterize, copied from the box cache ~10k. Only
        // opaque and at an integer scale, where the copy lands on the very pixels drawing would; from its
        // first use, as blending the box drawn apart rounds otherwise than drawing it over the shadows.
        if opacity >= 1, scale.isInteger, let cached = cachedBox(box, evenFirst: true) {
            canvas.composite(cached, atPixelX: origin.x * scale, y: origin.y * scale)
            canvas.withContext(scale: scale, origin: origin) { cr in l.draw(cr, x: textX, y: textY, color: textColor) }
            return
        }
        canvas.withContext(scale: scale) { cr in
            CairoDrawing.withOpacity(cr, origin: origin, opacity: opacity) {
                CairoDrawing.box(cr, size: size, radius: box.radius, fill: box.fill, border: box.border,
                                 borderWidth: box.borderWidth)
                l.draw(cr, x: textX, y: textY, color: textColor)
            }
        }
    }

    private func morePillText(count: Int, scale: PixelScale, look: MorePillLook?) -> TextLayout {
        if let text = look?.text {
            return self.text.layout(TextKey(text: text, isMarkup: true, role: .action, width: nil, maxHeight: nil,
                                            scale: scale, font: look?.font, isPangoMarkup: true))
        }
        return text.layout(TextKey(text: "+\(count) more", isMarkup: false, role: .action, width: nil,
                                   maxHeight: nil, scale: scale, font: look?.font))
    }

    // MARK: - Stacks

    /// Where each of `toasts` (newest first) and the "+N more" pill go in a stack surface;
    /// see `StackLayout.arrange`. Use its `size` to size the surface before `renderStack`.
    public func measureStack(_ toasts: [ToastView], scale: PixelScale) -> StackLayout.Arrangement {
        let visible = min(toasts.count, max(1, style.maxVisible))
        let hidden = toasts.count - visible
        return StackLayout.arrange(sizes: toasts.prefix(visible).map { measure($0, scale: scale) },
                                   hiddenCount: hidden, gap: style.gap,
                                   moreSize: hidden > 0 ? measureMorePill(count: hidden, scale: scale) : nil)
    }

    /// Draws a whole stack (newest first, newest on top, right-aligned, going down) into `canvas`
    /// with its top-left at `origin`, first clearing the stack's area to transparent (unless `clear` is false,
    /// e.g. to draw over something else). Returns the arrangement:
    /// `size` is the total logical size, `rects` each visible toast's rect (relative to `origin`).
    @discardableResult
    public func renderStack(_ toasts: [ToastView], in canvas: Canvas, at origin: Point = .zero, scale: PixelScale,
                            opacity: Double = 1, clear: Bool = true) -> StackLayout.Arrangement {
        let arrangement = measureStack(toasts, scale: scale)
        if clear { canvas.clear(Rect(origin: origin, size: arrangement.size), scale: scale) }
        for (toast, rect) in zip(toasts, arrangement.rects) {
            draw(toast, in: canvas, at: Point(x: origin.x + rect.x, y: origin.y + rect.y), scale: scale,
                 opacity: opacity)
        }
        if let more = arrangement.moreRect {
            drawMorePill(count: arrangement.hiddenCount, in: canvas,
                         at: Point(x: origin.x + more.x, y: origin.y + more.y), scale: scale, opacity: opacity)
        }
        return arrangement
    }
}
