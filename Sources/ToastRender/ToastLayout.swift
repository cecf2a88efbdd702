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
        let pad = Double(style.padding)
        let side = Double(style.imageSize), gap = Double(style.imageGap)
        // The picture's square: beside the text (left, right) or across the toast (top, bottom).
        var box: (x: Double, y: Double)?
        var contentX = pad, contentRight = Double(style.width) - pad
        var textTop = pad
        if style.showsImages, let image = toast.image, image.width > 0, image.height > 0 {
            switch style.imageLocation {
            case .left:
                box = (pad, pad)
                contentX += side + gap
            case .right:
                box = (Double(style.width) - pad - side, pad)
                contentRight -= side + gap
            case .top:
                box = (((Double(style.width) - side) / 2).rounded(), pad)
                textTop += side + gap
            case .bottom:
                box = (((Double(style.width) - side) / 2).rounded(), pad)  // moved under the text below
            }
            let fit = min(side / Double(image.width), side / Double(image.height))
            let w = Double(image.width) * fit, h = Double(image.height) * fit
            imageRect = (box!.x + (side - w) / 2, box!.y + (side - h) / 2, w, h)
        }
        let contentWidth = max(1, Int(contentRight - contentX))
        var y = textTop
        // Stacks elements down the text column; `gapBefore` is skipped for the first one.
        var first = true
        func place(_ height: Double, gapBefore: Double) -> Double {
            let top = first ? y : y + gapBefore
            first = false
            y = top + height
            return top
        }

        // mako's `height`: the text is cut where a toast that tall ends (below it: a bar and buttons).
        func bodyCap(gapBefore: Double) -> Int {
            guard let most = style.maxHeight else { return style.maxBodyHeight }
            let top = first ? y : y + gapBefore
            return max(1, min(style.maxBodyHeight, Int(Double(most) - top - pad)))
        }

        // Senders often end the body with a newline; it would add an empty line.
        let summaryText = trimmed(toast.summary), bodyText = trimmed(toast.body), appName = trimmed(toast.appName)
        if let formatted = toast.formatted {
            // One text in place of the three: wrapped and capped as a body is.
            if !formatted.isEmpty {
                let l = text.layout(TextKey(text: formatted, isMarkup: false, role: .body,
                                            width: contentWidth, maxHeight: bodyCap(gapBefore: 0), scale: scale,
                                            font: ownFonts ? style.font : nil, isPangoMarkup: true))
                body = (l, contentX, place(l.height, gapBefore: 0))
            }
        } else if !appName.isEmpty {
            let l = text.layout(TextKey(text: appName, isMarkup: false, role: .caption,
                                        width: contentWidth, maxHeight: nil, scale: scale,
                                        font: ownFonts ? style.captionFont : nil))
            caption = (l, contentX, place(l.height, gapBefore: 0))
        }
        if toast.formatted == nil, !summaryText.isEmpty {
            let l = text.layout(TextKey(text: summaryText, isMarkup: false, role: .summary,
                                        width: contentWidth, maxHeight: nil, scale: scale,
                                        font: ownFonts ? style.summaryFont : nil))
            summary = (l, contentX, place(l.height, gapBefore: 1))
        }
        if toast.formatted == nil, !bodyText.isEmpty {
            let l = text.layout(TextKey(text: bodyText, isMarkup: true, role: .body,
                                        width: contentWidth, maxHeight: bodyCap(gapBefore: 3), scale: scale,
                                        font: ownFonts ? style.font : nil))
            body = (l, contentX, place(l.height, gapBefore: 3))
        }
        // mako's fill is drawn on the background: no room for a bar.
        if toast.progress != nil, style.progressFill == nil {
            let h = Double(style.progressHeight)
            progressBar = (contentX, place(h, gapBefore: 8), Double(contentWidth), h)
        }
        actions = []
        if !toast.actions.isEmpty {
            let labelWidth = max(1, contentWidth - 2 * style.actionPaddingX)
            var rowX = contentX
            var rowTop = place(0, gapBefore: 10)
            var rowHeight = 0.0
            let right = contentX + Double(contentWidth)
            for label in toast.actions {
                let l = text.layout(TextKey(text: label, isMarkup: false, role: .action,
                                            width: labelWidth, maxHeight: nil, scale: scale,
                                            font: ownFonts ? style.actionFont : nil))
                let w = (l.width + Double(2 * style.actionPaddingX)).rounded(.up)
                let h = (l.height + Double(2 * style.actionPaddingY)).rounded(.up)
                if rowX > contentX, rowX + w > right {
                    rowTop += rowHeight + Double(style.actionSpacing)
                    rowX = contentX
                    rowHeight = 0
                }
                let rect = Rect(x: Int(rowX), y: Int(rowTop.rounded(.up)), width: Int(w), height: Int(h))
                actions.append((l, rect, rowX + Double(style.actionPaddingX),
                                Double(rect.y) + (h - l.height) / 2))
                rowX += w + Double(style.actionSpacing)
                rowHeight = max(rowHeight, h)
            }
            y = rowTop.rounded(.up) + rowHeight
        }
        if let reply = toast.reply {
            // One line, ellipsized at its start so that the end being typed stays in view.
            let shown = reply.draft.isEmpty ? reply.placeholder : reply.draft + (reply.focused ? "\u{258F}" : "")
            let l = text.layout(TextKey(text: shown.isEmpty ? " " : shown, isMarkup: false, role: .action,
                                        width: max(1, contentWidth - 2 * style.actionPaddingX), maxHeight: nil, scale: scale,
                                        font: ownFonts ? style.actionFont : nil, keepsEnd: !reply.draft.isEmpty))
            let h = (l.height + Double(2 * style.actionPaddingY)).rounded(.up)
            let top = place(h, gapBefore: 10).rounded(.up)
            let rect = Rect(x: Int(contentX), y: Int(top), width: contentWidth, height: Int(h))
            replyField = (l, rect, contentX + Double(style.actionPaddingX), top + (h - l.height) / 2)
            y = top + h
        }
        let beside = style.imageLocation == .left || style.imageLocation == .right
        if imageRect != nil, beside, y - pad < side {
            // Beside an image taller than the text, centre the text column on the image.
            let dy = ((side - (y - pad)) / 2).rounded()
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
            y = pad + side
        } else if imageRect != nil, style.imageLocation == .bottom {
            // Under the text (or alone, when there is no text).
            let top = first ? pad : y.rounded(.up) + gap
            imageRect?.y += top - pad
            y = top + side
        } else if imageRect != nil, style.imageLocation == .top, first {
            y = pad + side  // the picture alone: no gap under it
        }
        size = Size(width: style.width, height: Int((y + pad).rounded(.up)))
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
