internal import CCairo

/// One thing drawn on a panel (the notification center, an alert): a filled rounded rectangle, a
/// rectangle's outline, or a text. Positions are logical pixels of the panel. The panel's layout
/// (ToastScene's `CenterPainter`) says what goes where; this only draws it.
public enum PanelItem: Equatable, Sendable {
    case fill(Rect, Color, radius: Int)
    case outline(Rect, Color, radius: Int, width: Int)
    /// A single line of text, ellipsized to the rectangle's width, its top at the rectangle's top.
    /// `markup`: Desktop Notifications markup (sanitized), else plain text.
    case text(String, Rect, Color, font: String, markup: Bool, align: PanelAlign = .left)
    /// What follows is drawn only inside the rectangle (nil: anywhere), until the next clip.
    case clip(Rect?)
}

/// Where a panel text sits in its rectangle, across.
public enum PanelAlign: Equatable, Sendable { case left, center, right }

/// Draws panel items with Cairo and Pango (text layouts cached by the same engine the toasts use).
public final class PanelRenderer {
    private let text: TextEngine

    public init() {
        text = TextEngine(style: ToastStyle(), capacity: 256, byteBudget: 1 << 20)
    }

    /// Clears `clip` (the whole canvas when nil; logical pixels) and draws `items` that meet it.
    public func draw(_ items: [PanelItem], into canvas: Canvas, scale: PixelScale, clip: Rect? = nil) {
        if let clip { canvas.clear(clip, scale: scale) } else { canvas.clear() }
        canvas.withContext(scale: scale) { cr in
            if let clip {
                cairo_rectangle(cr, Double(clip.x), Double(clip.y), Double(clip.width), Double(clip.height))
                cairo_clip(cr)
            }
            for item in items { draw(item, cr, scale: scale, clip: clip) }
        }
    }

    private func draw(_ item: PanelItem, _ cr: OpaquePointer, scale: PixelScale, clip: Rect?) {
        switch item {
        case let .fill(rect, color, radius):
            guard clip.map({ $0.intersects(rect) }) ?? true else { return }
            CairoDrawing.roundedRect(cr, x: Double(rect.x), y: Double(rect.y), width: Double(rect.width),
                                     height: Double(rect.height), radius: Double(radius))
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
            cairo_fill(cr)
        case let .outline(rect, color, radius, width):
            guard clip.map({ $0.intersects(rect) }) ?? true else { return }
            let half = Double(width) / 2
            CairoDrawing.roundedRect(cr, x: Double(rect.x) + half, y: Double(rect.y) + half,
                                     width: Double(rect.width) - 2 * half, height: Double(rect.height) - 2 * half,
                                     radius: Double(radius))
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
            cairo_set_line_width(cr, Double(width))
            cairo_stroke(cr)
        case let .clip(rect):
            cairo_reset_clip(cr)
            for r in [clip, rect].compactMap({ $0 }) {
                cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height))
                cairo_clip(cr)
            }
        case let .text(string, rect, color, font, markup, align):
            guard !string.isEmpty, clip.map({ $0.intersects(rect) }) ?? true else { return }
            let layout = text.layout(TextKey(text: string, isMarkup: markup, role: .body, width: max(1, rect.width),
                                             maxHeight: nil, scale: scale, font: font))
            cairo_save(cr)
            cairo_rectangle(cr, Double(rect.x), Double(rect.y), Double(rect.width), Double(rect.height))
            cairo_clip(cr)
            let x = switch align {
            case .left: Double(rect.x)
            case .center: Double(rect.x) + max(0, (Double(rect.width) - layout.width) / 2)
            case .right: Double(rect.maxX) - layout.width
            }
            layout.draw(cr, x: x, y: Double(rect.y), color: color)
            cairo_restore(cr)
        }
    }

    /// Lets go of cached text layouts (the panel closed).
    public func releaseCaches() { _ = text.releaseLayouts() }
}
