import ToastConfig
import ToastRender

/// Where a click on the center lands.
package enum CenterTarget: Equatable, Sendable {
    case doNotDisturb
    case clearAll
    case entry(Int)
    case button(Int, Int)
    case reply(Int)
}

/// The notification center's layout (pure): what goes where on a panel of a given size, as
/// `PanelItem`s for `PanelRenderer`, and what a point on it is. The header (title, do-not-disturb
/// switch, "clear all") stays at the top; below it, the rows in view (`CenterList.visibleRows`).
package struct CenterPainter {
    package var config: CenterConfig
    package var metrics: CenterMetrics

    package init(config: CenterConfig, metrics: CenterMetrics = CenterMetrics()) {
        self.config = config
        self.metrics = metrics
    }

    private var pad: Int { metrics.padding }

    /// The header's switch and button, for a panel `width` wide.
    package func switchRect(width: Int) -> Rect { Rect(x: pad, y: 46, width: 150, height: 28) }
    package func clearAllRect(width: Int) -> Rect { Rect(x: width - pad - 90, y: 46, width: 90, height: 28) }

    /// The card of the entry in `row`, in panel coordinates.
    private func card(row: Int, of list: CenterList, width: Int) -> Rect {
        let top = metrics.headerHeight + list.rowTops[row] - list.scroll
        return Rect(x: pad, y: top, width: width - 2 * pad, height: list.rowTops[row + 1] - list.rowTops[row] - metrics.gap)
    }

    private func buttonRects(card: Rect, count: Int) -> [Rect] {
        guard count > 0 else { return [] }
        let inner = card.width - 2 * pad, gap = 6
        let width = min(140, (inner - gap * (count - 1)) / count)
        let y = card.y + metrics.entryHeight
        return (0..<count).map { Rect(x: card.x + pad + $0 * (width + gap), y: y, width: width, height: metrics.buttonsHeight - 8) }
    }

    private func replyRect(card: Rect, entry: CenterEntry) -> Rect {
        let y = card.y + metrics.entryHeight + (entry.buttons.isEmpty ? 0 : metrics.buttonsHeight)
        return Rect(x: card.x + pad, y: y, width: card.width - 2 * pad, height: metrics.replyHeight - 8)
    }

    /// What a panel of `size` shows of `list`, with do-not-disturb `doNotDisturb`.
    package func items(for list: CenterList, size: Size, doNotDisturb: Bool) -> [PanelItem] {
        var items: [PanelItem] = [.fill(Rect(x: 0, y: 0, width: size.width, height: size.height), config.background, radius: 0)]
        items.append(.clip(Rect(x: 0, y: metrics.headerHeight, width: size.width, height: max(0, size.height - metrics.headerHeight))))
        for row in list.visibleRows { rowItems(row, of: list, width: size.width, into: &items) }
        items.append(.clip(nil))
        header(list, width: size.width, doNotDisturb: doNotDisturb, into: &items)
        return items
    }

    private func header(_ list: CenterList, width: Int, doNotDisturb: Bool, into items: inout [PanelItem]) {
        let open = list.entries.lazy.filter(\.isOpen).count
        items.append(.text("Notifications", Rect(x: pad, y: 14, width: width - 2 * pad - 60, height: 22), config.textColor,
                           font: config.summaryFont, markup: false))
        items.append(.text("\(open) open · \(list.entries.count - open) earlier", Rect(x: width - pad - 150, y: 16, width: 150, height: 20),
                           config.textColor.withAlpha(0.6), font: config.smallFont, markup: false, align: .right))
        let toggle = switchRect(width: width)
        let track = Rect(x: toggle.x, y: toggle.y + 5, width: 36, height: 18)
        items.append(.fill(track, doNotDisturb ? config.accentColor : config.cardColor, radius: 9))
        items.append(.fill(Rect(x: doNotDisturb ? track.maxX - 16 : track.x + 2, y: track.y + 2, width: 14, height: 14),
                           config.textColor, radius: 7))
        items.append(.text("Do not disturb", Rect(x: track.maxX + 8, y: toggle.y + 5, width: toggle.width - 44, height: 20),
                           config.textColor, font: config.font, markup: false))
        if list.focus == .doNotDisturb { items.append(.outline(toggle, config.accentColor, radius: 6, width: 2)) }
        let clear = clearAllRect(width: width)
        items.append(.fill(clear, config.cardColor, radius: 6))
        items.append(.text("Clear all", clear.inset(by: 5), config.textColor, font: config.font, markup: false, align: .center))
        if list.focus == .clearAll { items.append(.outline(clear, config.accentColor, radius: 6, width: 2)) }
    }

    private func rowItems(_ row: Int, of list: CenterList, width: Int, into items: inout [PanelItem]) {
        let top = metrics.headerHeight + list.rowTops[row] - list.scroll
        switch list.rows[row] {
        case .group(let app, let isOpen):
            let title = (app.isEmpty ? "Notifications" : app) + (isOpen ? "" : " · earlier")
            items.append(.text(title, Rect(x: pad + 4, y: top + 10, width: width - 2 * pad, height: 18),
                               config.textColor.withAlpha(0.7), font: config.smallFont, markup: false))
        case .entry(let index):
            let entry = list.entries[index]
            let card = card(row: row, of: list, width: width)
            let text = entry.isOpen ? config.textColor : config.textColor.withAlpha(0.6)
            items.append(.fill(card, config.cardColor, radius: 8))
            if list.focus == .entry(index) { items.append(.outline(card, config.accentColor, radius: 8, width: 2)) }
            items.append(.text(entry.summary, Rect(x: card.x + pad, y: card.y + 10, width: card.width - 2 * pad, height: 20),
                               text, font: config.summaryFont, markup: false))
            items.append(.text(entry.body, Rect(x: card.x + pad, y: card.y + 32, width: card.width - 2 * pad, height: 20),
                               text, font: config.font, markup: true))
            for (b, rect) in buttonRects(card: card, count: entry.buttons.count).enumerated() {
                items.append(.fill(rect, config.background.withAlpha(0.6), radius: 6))
                items.append(.text(entry.buttons[b].label, rect.inset(by: 5), text, font: config.font, markup: false, align: .center))
                if list.focus == .button(index, b) { items.append(.outline(rect, config.accentColor, radius: 6, width: 2)) }
            }
            if let placeholder = entry.replyPlaceholder {
                let field = replyRect(card: card, entry: entry)
                let focused = list.focus == .reply(index)
                let draft = list.drafts[entry.id] ?? ""
                items.append(.fill(field, config.background, radius: 6))
                items.append(.text(draft.isEmpty ? placeholder : draft + (focused ? "▏" : ""), field.inset(by: 5),
                                   draft.isEmpty ? text.withAlpha(0.5) : text, font: config.font, markup: false))
                if focused { items.append(.outline(field, config.accentColor, radius: 6, width: 2)) }
            }
        }
    }

    /// What is at (`x`, `y`) on a panel `width` wide showing `list`; nil: nothing that takes a click.
    package func target(at x: Double, _ y: Double, in list: CenterList, width: Int) -> CenterTarget? {
        let point = Point(x: Int(x), y: Int(y))
        if switchRect(width: width).contains(point) { return .doNotDisturb }
        if clearAllRect(width: width).contains(point) { return .clearAll }
        guard point.y >= metrics.headerHeight else { return nil }
        for row in list.visibleRows {
            guard case .entry(let index) = list.rows[row] else { continue }
            let entry = list.entries[index]
            let card = card(row: row, of: list, width: width)
            guard card.contains(point) else { continue }
            if let b = buttonRects(card: card, count: entry.buttons.count).firstIndex(where: { $0.contains(point) }) {
                return .button(index, b)
            }
            if entry.replyPlaceholder != nil, replyRect(card: card, entry: entry).contains(point) { return .reply(index) }
            return .entry(index)
        }
        return nil
    }
}
