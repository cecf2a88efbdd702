internal import CCairo

/// Which font of the style a text uses.
enum FontRole: Int, CaseIterable {
    case body, summary, caption, action, hud, hudValue
}

/// What a text layout depends on; equal keys give identical layouts.
struct TextKey: Hashable {
    var text: String
    /// `text` is Desktop Notifications markup (sanitized before use), else plain text.
    var isMarkup: Bool
    var role: FontRole
    /// Wrap/ellipsize width in logical px; nil for natural width.
    var width: Int?
    /// Max height in logical px for wrapped text (ellipsized past it); nil for a single line.
    var maxHeight: Int?
    var scale: PixelScale
    /// A Pango font description replacing the role's font (a toast with its own style); nil: the role's.
    var font: String? = nil
    /// `text` is Pango markup already known to be valid (a toast's `formatted` text): used as it is,
    /// not sanitized as a body is.
    var isPangoMarkup = false
    /// Ellipsized at its start rather than its end (a line being typed: its end stays in view).
    var keepsEnd = false
}

/// One Pango layout and its logical size. Owns the layout.
final class TextLayout {
    let layout: OpaquePointer
    /// Logical size in logical pixels (fractional).
    let width: Double
    let height: Double

    /// A deliberately generous guess at what the layout holds: its structures, plus per byte of text
    /// the copy, log attributes, items and glyph strings. Only bounds the cache; not a measurement.
    let estimatedBytes: Int
    /// When the engine last handed this layout out (its cache keeps the most recently used). Kept
    /// here, not beside it in the cache: a hit is one lookup, not a lookup and a write.
    fileprivate var lastUse: UInt64 = 0

    init(layout: OpaquePointer, textBytes: Int) {
        self.layout = layout
        estimatedBytes = 2048 + 64 * textBytes
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        width = Double(w) / Double(PANGO_SCALE)
        height = Double(h) / Double(PANGO_SCALE)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// Draws the layout with its top-left at `(x, y)` in `color` (markup colours override it).
    func draw(_ cr: OpaquePointer, x: Double, y: Double, color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }
}

/// The font map, one Pango context per buffer scale, the fonts, and a small LRU of text layouts.
/// Creating the font map is the expensive cold-start step (fontconfig); it happens once per instance,
/// and again only after `releaseLayouts` let go of fallback fonts.
final class TextEngine {
    private var fontMap: UnsafeMutablePointer<PangoFontMap>
    private var contexts: [PixelScale: OpaquePointer] = [:]
    private let fonts: [OpaquePointer]
    /// Fonts named by toasts with their own style (`TextKey.font`), parsed once each.
    private var otherFonts: [String: OpaquePointer] = [:]
    private let linkColor: Color
    private var cache: [TextKey: TextLayout] = [:]
    private var clock: UInt64 = 0
    /// Layouts kept for reuse; a few toasts' worth plus HUD texts.
    let capacity: Int
    /// Estimated bytes of layouts kept (`TextLayout.estimatedBytes`): a few long bodies, not 96 of them.
    let byteBudget: Int
    /// Estimated bytes the cached layouts hold now.
    private(set) var cachedBytes = 0
    /// Text beyond Latin-1 and common punctuation was laid out since the font map was made: Pango may
    /// have loaded fallback fonts into it (CJK, Arabic, emoji… not in the style's font).
    private(set) var mayHoldFallbackFonts = false

    init(style: ToastStyle, capacity: Int = 96, byteBudget: Int = 2 << 20) {
        fontMap = pango_cairo_font_map_new()
        linkColor = style.linkColor
        self.capacity = capacity
        self.byteBudget = byteBudget
        fonts = FontRole.allCases.map { role in
            let name = switch role {
            case .body: style.font
            case .summary: style.summaryFont
            case .caption: style.captionFont
            case .action: style.actionFont
            case .hud: style.hudFont
            case .hudValue: style.hudValueFont
            }
            return pango_font_description_from_string(name)
        }
    }

    deinit {
        cache.removeAll()
        for ctx in contexts.values { g_object_unref(UnsafeMutableRawPointer(ctx)) }
        for f in fonts { pango_font_description_free(f) }
        for f in otherFonts.values { pango_font_description_free(f) }
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// Number of cached layouts (for tests).
    var cachedCount: Int { cache.count }

    /// The (cached) layout for `key`.
    func layout(_ key: TextKey) -> TextLayout {
        clock &+= 1
        if let hit = cache[key] {
            hit.lastUse = clock
            return hit
        }
        let made = TextLayout(layout: makeLayout(key), textBytes: key.text.utf8.count)
        if !mayHoldFallbackFonts, key.text.unicodeScalars.contains(where: Self.mayNeedFallback) {
            mayHoldFallbackFonts = true
        }
        // Least recently used first; the layout just made always stays, whatever its size.
        while !cache.isEmpty, cache.count >= capacity || cachedBytes + made.estimatedBytes > byteBudget {
            let oldest = leastRecentlyUsed()
            cachedBytes -= cache.values[oldest].estimatedBytes
            cache.remove(at: oldest)
        }
        made.lastUse = clock
        cache[key] = made
        cachedBytes += made.estimatedBytes
        return made
    }

    /// Where the least recently used layout is in `cache` (not empty). Reads the values only: a
    /// search over (key, layout) pairs copied every key, ~37k instructions for each layout made once the
    /// cache was full (each new toast of a burst), more than Pango took to make it.
    private func leastRecentlyUsed() -> [TextKey: TextLayout].Index {
        var oldest = cache.startIndex, oldestUse = cache.values[oldest].lastUse
        var i = cache.index(after: oldest)
        while i != cache.endIndex {
            let use = cache.values[i].lastUse
            if use < oldestUse { (oldest, oldestUse) = (i, use) }
            i = cache.index(after: i)
        }
        return oldest
    }

    /// Whether `scalar` may be missing from the style's font, so that Pango would load another for it.
    /// Latin-1 and general punctuation (dashes, quotes, the ellipsis Pango itself adds) never are.
    private static func mayNeedFallback(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0xFF && !(0x2000...0x206F).contains(scalar.value)
    }

    /// Drops every cached layout and the contexts; if fallback fonts may have been loaded, also the
    /// font map with all the fonts it opened (a new one opens only what is asked for next). The next
    /// layout of the same text costs its shaping again. Returns whether the font map was replaced.
    ///
    /// Freeing the font map is not enough on its own: cairo keeps up to 256 released scaled fonts
    /// (with their FreeType faces, the font files mapped, and the rasterized glyphs) for reuse, and has
    /// no call to let go of them but `cairo_debug_reset_static_data`. That one is safe only while no
    /// cairo font object exists anywhere in the process, so `resetCairoFontCaches` is for a caller
    /// that knows this font map held the only ones (the daemon: one renderer, fonts used by no other
    /// thread), called between freeing this map and making the next.
    func releaseLayouts(resetCairoFontCaches: Bool = false) -> Bool {
        cache.removeAll()
        cachedBytes = 0
        guard mayHoldFallbackFonts else { return false }
        for ctx in contexts.values { g_object_unref(UnsafeMutableRawPointer(ctx)) }
        contexts.removeAll()
        g_object_unref(UnsafeMutableRawPointer(fontMap))
        if resetCairoFontCaches { cairo_debug_reset_static_data() }
        fontMap = pango_cairo_font_map_new()
        mayHoldFallbackFonts = false
        return true
    }

    /// Loads fontconfig's configuration and the fonts a plain toast shows (its app name, summary and
    /// body) by shaping a sample with each: the glyphs' outlines and metrics are loaded, not drawn.
    ///
    /// Only those roles: each font size holds its own FreeType hinting context, shaper and glyph
    /// caches (~60 KiB a size here), kept for the daemon's life. The HUD's, the buttons' and the
    /// italic face wait for the first thing that shows them, which pays a few ms then. (Loading
    /// fontconfig's configuration alone buys nothing: the dear part is Pango sorting the fonts that
    /// match each description, ~10 ms for these three; docs/benchmarks.md, "The start's prewarm".)
    ///
    /// Why not drawn: the first glyph cairo draws into an image makes pixman's process-wide glyph cache,
    /// a 256 KiB table written whole at creation and kept for good, and each glyph drawn adds its
    /// image to it and cairo's. Drawn here, ~0.4 MB of the daemon's own memory stayed from start for a
    /// toast that may not come for hours; the first toast now makes them for the glyphs it shows
    /// (docs/benchmarks.md, "toastd's private memory at idle, against dunst's", has what that costs it).
    func prewarm(scale: PixelScale) {
        let sample = "The quick brown fox jumps over the lazy dog 0123456789 %…"
        for role in Self.plainToastRoles {
            let key = TextKey(text: sample, isMarkup: false, role: role, width: nil, maxHeight: nil, scale: scale)
            // Shaped as the layout is made and measured. Not cached: these samples would only crowd out
            // real layouts.
            _ = TextLayout(layout: makeLayout(key), textBytes: key.text.utf8.count)
        }
    }

    /// The roles of a toast with an app name, a summary and a body (`ToastLayout`).
    static let plainToastRoles: [FontRole] = [.caption, .summary, .body]

    private func context(scale: PixelScale) -> OpaquePointer {
        if let ctx = contexts[scale] { return ctx }
        let ctx = pango_font_map_create_context(fontMap)!
        // Grey antialiasing (subpixel is wrong on translucent overlays); metrics unhinted so that
        // logical sizes barely depend on the scale; outlines hinted for the buffer's real pixel grid.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(ctx, options)
        cairo_font_options_destroy(options)
        var matrix = PangoMatrix(xx: scale.factor, xy: 0, yx: 0, yy: scale.factor, x0: 0, y0: 0)
        pango_context_set_matrix(ctx, &matrix)
        contexts[scale] = ctx
        return ctx
    }

    /// The parsed description of `name`. A handful at most (one per font a rule names); should a
    /// configuration name many, they are let go together rather than kept for good.
    private func font(named name: String) -> OpaquePointer {
        if let known = otherFonts[name] { return known }
        if otherFonts.count >= 16 {
            // A layout copies the description it is given: the cached layouts do not need these.
            for f in otherFonts.values { pango_font_description_free(f) }
            otherFonts.removeAll()
        }
        let made = pango_font_description_from_string(name)!
        otherFonts[name] = made
        return made
    }

    private func makeLayout(_ key: TextKey) -> OpaquePointer {
        let layout = pango_layout_new(context(scale: key.scale))!
        pango_layout_set_font_description(layout, key.font.map(font(named:)) ?? fonts[key.role.rawValue])
        if key.isPangoMarkup {
            pango_layout_set_markup(layout, key.text, -1)
        } else if key.isMarkup {
            pango_layout_set_markup(layout, MarkupSanitizer.sanitize(key.text, linkColor: linkColor), -1)
        } else {
            pango_layout_set_text(layout, key.text, -1)
        }
        if let width = key.width {
            pango_layout_set_width(layout, Int32(width) * PANGO_SCALE)
            pango_layout_set_ellipsize(layout, key.keepsEnd ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_END)
        }
        if let maxHeight = key.maxHeight {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_height(layout, Int32(maxHeight) * PANGO_SCALE)
        } else {
            pango_layout_set_single_paragraph_mode(layout, 1)
            pango_layout_set_height(layout, -1)
        }
        return layout
    }
}
