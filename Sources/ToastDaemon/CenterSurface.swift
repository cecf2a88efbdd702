import ToastConfig
import ToastPlatform
import ToastRender
import ToastScene
import Wayland

/// The notification center's layer surface: a panel the output's height at one side, on the overlay
/// layer, that takes the keyboard on demand (exclusive where the layer shell is older than v4) and
/// the pointer over the panel only (its input region). What it shows is `CenterList`, laid out by
/// `CenterPainter` and drawn by `PanelRenderer`; it draws only when the list or the look changed
/// (a key, a click, the wheel, the model), so while it is open and untouched nothing wakes the daemon.
final class CenterSurface {
    let overlay: OverlaySurface
    private let renderer: PanelRenderer
    private let painter: CenterPainter
    private(set) var list: CenterList
    /// The panel's size once the compositor said its height (nil before the first configure).
    private(set) var size: Size?
    var doNotDisturb = false
    /// The first frame was drawn: called once, with the nanoseconds its drawing took.
    var onFirstDraw: (_ drawing: Int64) -> Void = { _ in }
    private var drawnOnce = false

    /// `renderer`: the daemon's, kept across openings (its font map and text layouts).
    init(wayland: WaylandConnection, output: Output?, config: CenterConfig, renderer: PanelRenderer) {
        self.renderer = renderer
        painter = CenterPainter(config: config)
        list = CenterList(metrics: painter.metrics)
        let side: ZwlrLayerSurfaceV1.Anchor = config.side == .left ? .left : .right
        overlay = OverlaySurface(wayland: wayland, output: output,
                                 placement: OverlaySurface.Placement(anchor: config.side == .left ? .topLeft : .topRight,
                                                                     margins: Margins(all: config.margin)),
                                 scale: output?.scale ?? wayland.outputs.map(\.scale).max() ?? 1) { _, _ in nil }
        overlay.pin(to: [.top, .bottom, side])
        overlay.takeKeyboard(true, layerShellVersion: wayland.layerShell?.version ?? 1)
        overlay.draw = { [unowned self] buffer, scale in self.draw(into: buffer, scale: scale) }
        overlay.onConfigure = { [unowned self] _, height in self.resize(height: height) }
        overlay.onOutputsChanged = { [unowned self] in
            if let scale = self.overlay.entered.compactMap({ wayland.output(for: $0)?.scale }).max() {
                self.overlay.outputScale = scale
            }
            if self.overlay.drawnScale != self.overlay.scale { self.redraw() }
        }
        // The panel is the output's height: when that is known, its first frame (`show`) is drawn
        // while the compositor answers the first commit (the configure confirms the height, or another
        // is drawn). Else the first commit asks the compositor for the height, and it is drawn then.
        let known = output ?? (wayland.outputs.count == 1 ? wayland.outputs.first : nil)
        if let height = known?.logicalSize?.height, height > 2 * config.margin {
            adopt(height: height - 2 * config.margin)
        } else {
            overlay.askForFirstConfigure(size: (config.width, 0))
        }
    }

    /// The compositor gave the panel its height: it is drawn again if that differs.
    private func resize(height: Int) {
        if adopt(height: height) { redraw() }
    }

    /// The panel's height: the list's viewport follows and the whole panel takes the pointer; returns
    /// whether it changed.
    @discardableResult
    private func adopt(height: Int) -> Bool {
        let new = Size(width: painter.config.width, height: height > 0 ? height : 600)
        guard new != size else { return false }
        size = new
        list.viewportHeight = max(0, new.height - painter.metrics.headerHeight)
        overlay.setInputRegion([Rect(x: 0, y: 0, width: new.width, height: new.height)])
        return true
    }

    /// New entries (the model changed or the center opened).
    func show(_ entries: [CenterEntry], focusFirst: Bool = false) {
        list.update(entries: entries)
        if focusFirst { list.focusFirst() }
        redraw()
    }

    /// Draws again at the next frame (nothing before the first configure: the size is not known).
    func redraw() {
        guard let size else { return }
        overlay.setNeedsDraw(size: (size.width, size.height))
    }

    private func draw(into buffer: ShmBuffer, scale: PixelScale) -> OverlaySurface.Damage? {
        guard let size else { return nil }
        let start = MonotonicClock.nanoseconds()
        let canvas = Canvas(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
        renderer.draw(painter.items(for: list, size: size, doNotDisturb: doNotDisturb), into: canvas, scale: scale)
        if !drawnOnce {
            drawnOnce = true
            onFirstDraw(MonotonicClock.nanoseconds() - start)
        }
        return nil
    }

    /// A key: what the list makes of it (a redraw is asked for here).
    func handle(_ key: CenterKey) -> CenterCommand {
        let command = list.handle(key)
        if command == .redraw { redraw() }
        return command
    }

    /// The wheel: `delta` logical pixels.
    func scroll(by delta: Double) {
        if list.scroll(by: Int(delta.rounded())) { redraw() }
    }

    /// A click at surface-local (x, y): the focus goes there; returns what it landed on.
    func click(x: Double, y: Double) -> CenterTarget? {
        guard let size, let target = painter.target(at: x, y, in: list, width: size.width) else { return nil }
        switch target {
        case .doNotDisturb: list.focus(on: .doNotDisturb)
        case .clearAll: list.focus(on: .clearAll)
        case .entry(let i): list.focus(on: .entry(i))
        case .button(let i, let b): list.focus(on: .button(i, b))
        case .reply(let i): list.focus(on: .reply(i))
        }
        redraw()
        return target
    }
}
