/// Where each part of one toast goes, relative to the toast's top-left, in logical pixels.
/// Built from cached text layouts, so rebuilding it per frame is cheap.
struct ToastLayout {
    var size: Size
    var imageRect: (x: Double, y: Double, width: Double, height: Double)?
    var caption: (layout: TextLayout, x: Double, y: Double)?
    var summary: (layout: TextLayout, x: Double, y: Double)?
    var body: (layout: TextLayout, x: Double, y: Double)?
    var progressBar: (x: Double, y: Double, width: Double, height: Double)?
    var actions: [(layout: TextLayout, rect: Rect, textX: Double, textY: Double)]
    /// The reply field's box and its one line of text (the draft, else the placeholder).
    var replyField: (layout: TextLayout, rect: Rect, textX: Double, textY: Double)?

    /// `ownFonts`: `style` is not the one `text` was made with (a toast's own style), so its fonts
    /// are named in each text key.
    init(_ toast: ToastView, style: ToastStyle, scale: PixelScale, text: TextEngine, ownFonts: Bool = false) {
        size = Size(width: style.width, height: 0)
        actions = []
        let pad = Double(style.padding)
        var column = TextColumn(x: pad, right: Double(style.width) - pad, y: pad)
        placeImage(toast, style: style, column: &column)
        let parts = TextParts(toast: toast, style: style, scale: scale, text: text, ownFonts: ownFonts,
                              width: max(1, Int(column.right - column.x)))
        placeTexts(parts, column: &column)
        // mako's fill is drawn on the background: no room for a bar.
        if toast.progress != nil, style.progressFill == nil {
            let h = Double(style.progressHeight)
            progressBar = (column.x, column.place(h, gapBefore: 8), Double(parts.width), h)
        }
        placeActions(parts, column: &column)
        placeReplyField(parts, column: &column)
        alignWithImage(style: style, column: &column)
        size.height = Int((column.y + pad).rounded(.up))
    }

    /// The picture's square, beside the text (left, right) or across the toast (top, bottom); the
    /// text column narrows or starts lower to make room.
    private mutating func placeImage(_ toast: ToastView, style: ToastStyle, column: inout TextColumn) {
        guard style.showsImages, let image = toast.image, image.width > 0, image.height > 0 else { return }
        let pad = Double(style.padding), width = Double(style.width)
        let side = Double(style.imageSize), gap = Double(style.imageGap)
        let box: (x: Double, y: Double)
        switch style.imageLocation {
        case .left:
            box = (pad, pad)
            column.x += side + gap
        case .right:
            box = (width - pad - side, pad)
            column.right -= side + gap
        case .top:
            box = (((width - side) / 2).rounded(), pad)
            column.y += side + gap
        case .bottom:
            box = (((width - side) / 2).rounded(), pad)  // moved under the text by alignWithImage
        }
        let fit = min(side / Double(image.width), side / Double(image.height))
        let w = Double(image.width) * fit, h = Double(image.height) * fit
        imageRect = (box.x + (side - w) / 2, box.y + (side - h) / 2, w, h)
    }

    /// The caption (app name), summary and body down the column; a `format`ted toast has one text
    /// in place of the three, wrapped and capped as a body is.
    private mutating func placeTexts(_ parts: TextParts, column: inout TextColumn) {
        let toast = parts.toast, style = parts.style
        // mako's `height`: the text is cut where a toast that tall ends (below it: a bar and buttons).
        func bodyCap(gapBefore: Double) -> Int {
            guard let most = style.maxHeight else { return style.maxBodyHeight }
            let top = column.nextTop(gapBefore: gapBefore)
            return max(1, min(style.maxBodyHeight, Int(Double(most) - top - Double(style.padding))))
        }
        if let formatted = toast.formatted {
            guard !formatted.isEmpty else { return }
            let l = parts.layout(formatted, role: .body, maxHeight: bodyCap(gapBefore: 0), font: style.font,
                                 isPangoMarkup: true)
            body = (l, column.x, column.place(l.height, gapBefore: 0))
            return
        }
        // Senders often end the body with a newline; it would add an empty line.
        let appName = trimmed(toast.appName), summaryText = trimmed(toast.summary), bodyText = trimmed(toast.body)
        if !appName.isEmpty {
            let l = parts.layout(appName, role: .caption, font: style.captionFont)
            caption = (l, column.x, column.place(l.height, gapBefore: 0))
        }
        if !summaryText.isEmpty {
            let l = parts.layout(summaryText, role: .summary, font: style.summaryFont)
            summary = (l, column.x, column.place(l.height, gapBefore: 1))
        }
        if !bodyText.isEmpty {
            let l = parts.layout(bodyText, isMarkup: true, role: .body, maxHeight: bodyCap(gapBefore: 3),
                                 font: style.font)
            body = (l, column.x, column.place(l.height, gapBefore: 3))
        }
    }

    /// The action buttons in rows under the text, a row wrapping when the next button does not fit.
    private mutating func placeActions(_ parts: TextParts, column: inout TextColumn) {
        guard !parts.toast.actions.isEmpty else { return }
        let style = parts.style
        let labelWidth = max(1, parts.width - 2 * style.actionPaddingX)
        var rowX = column.x
        var rowTop = column.place(0, gapBefore: 10)
        var rowHeight = 0.0
        let right = column.x + Double(parts.width)
        for label in parts.toast.actions {
            let l = parts.layout(label, role: .action, width: labelWidth, font: style.actionFont)
            let w = (l.width + Double(2 * style.actionPaddingX)).rounded(.up)
            let h = (l.height + Double(2 * style.actionPaddingY)).rounded(.up)
            if rowX > column.x, rowX + w > right {
                rowTop += rowHeight + Double(style.actionSpacing)
                rowX = column.x
                rowHeight = 0
            }
            let rect = Rect(x: Int(rowX), y: Int(rowTop.rounded(.up)), width: Int(w), height: Int(h))
            actions.append((l, rect, rowX + Double(style.actionPaddingX), Double(rect.y) + (h - l.height) / 2))
            rowX += w + Double(style.actionSpacing)
            rowHeight = max(rowHeight, h)
        }
        column.y = rowTop.rounded(.up) + rowHeight
    }

    /// The reply field under the buttons (a toast with the keyboard that takes a reply): one line,
    /// ellipsized at its start once typed into, so that the end being typed stays in view.
    private mutating func placeReplyField(_ parts: TextParts, column: inout TextColumn) {
        guard let reply = parts.toast.reply else { return }
        let style = parts.style
        let shown = reply.draft.isEmpty ? reply.placeholder : reply.draft + (reply.focused ? "\u{258F}" : "")
        let l = parts.layout(shown.isEmpty ? " " : shown, role: .action, width: max(1, parts.width - 2 * style.actionPaddingX),
                             font: style.actionFont, keepsEnd: !reply.draft.isEmpty)
        let h = (l.height + Double(2 * style.actionPaddingY)).rounded(.up)
        let top = column.place(h, gapBefore: 10).rounded(.up)
        replyField = (l, Rect(x: Int(column.x), y: Int(top), width: parts.width, height: Int(h)),
                      column.x + Double(style.actionPaddingX), top + (h - l.height) / 2)
        column.y = top + h
    }

    /// Beside a picture taller than the text, the text column is centred on it; under the text, the
    /// picture moves below the column.
    private mutating func alignWithImage(style: ToastStyle, column: inout TextColumn) {
        guard imageRect != nil else { return }
        let pad = Double(style.padding), side = Double(style.imageSize)
        switch style.imageLocation {
        case .left, .right:
            guard column.y - pad < side else { return }
            let dy = ((side - (column.y - pad)) / 2).rounded()
            caption?.y += dy
            summary?.y += dy
            body?.y += dy
            progressBar?.y += dy
            for i in actions.indices {
                actions[i].rect.y += Int(dy)
                actions[i].textY += dy
            }
            replyField?.rect.y += Int(dy)
            replyField?.textY += dy
            column.y = pad + side
        case .bottom:
            // Under the text (or alone, when there is no text).
            let top = column.isEmpty ? pad : column.y.rounded(.up) + Double(style.imageGap)
            imageRect?.y += top - pad
            column.y = top + side
        case .top:
            if column.isEmpty { column.y = pad + side }  // the picture alone: no gap under it
        }
    }
}

/// The text column of a toast: where it starts and ends across, and how far down it is filled.
private struct TextColumn {
    var x: Double
    var right: Double
    var y: Double
    var isEmpty = true

    /// Where the next part starts: `gapBefore` is skipped for the first one.
    func nextTop(gapBefore: Double) -> Double { isEmpty ? y : y + gapBefore }

    mutating func place(_ height: Double, gapBefore: Double) -> Double {
        let top = nextTop(gapBefore: gapBefore)
        isEmpty = false
        y = top + height
        return top
    }
}

/// What every text of one toast is laid out with.
private struct TextParts {
    let toast: ToastView
    let style: ToastStyle
    let scale: PixelScale
    let text: TextEngine
    let ownFonts: Bool
    /// The text column's width.
    let width: Int

    func layout(_ string: String, isMarkup: Bool = false, role: FontRole, width: Int? = nil, maxHeight: Int? = nil,
                font: String, isPangoMarkup: Bool = false, keepsEnd: Bool = false) -> TextLayout
    {
        text.layout(TextKey(text: string, isMarkup: isMarkup, role: role, width: width ?? self.width,
                            maxHeight: maxHeight, scale: scale, font: ownFonts ? font : nil,
                            isPangoMarkup: isPangoMarkup, keepsEnd: keepsEnd))
    }
}

/// `s` without leading and trailing whitespace and newlines.
func trimmed(_ s: String) -> String {
    // Most text starts and ends with a visible ASCII character: such a byte is a character of its own
    // at either end (a grapheme joins it only after a prepended mark), and not whitespace, so there is
    // nothing to trim. `Character.isWhitespace` cost ~400 instructions a call, three calls a layout made.
    if let first = s.utf8.first, let last = s.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
        return s
    }
    guard let first = s.firstIndex(where: { !$0.isWhitespace }), let last = s.lastIndex(where: { !$0.isWhitespace }) else {
        return ""
    }
    if first == s.startIndex && s.index(after: last) == s.endIndex { return s }
    return String(s[first...last])
}
