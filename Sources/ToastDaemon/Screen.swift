import ToastCore
import ToastRender
import Wayland
import ToastVocabulary

/// The daemon's two overlays and how the scene is drawn into them: the toast stack (top-right unless
/// configured) and the HUD (bottom centre). A HUD never moves or hides toasts: each has its own layer
/// surface, made when it has something to show and destroyed when it has nothing (no surface, no
/// buffer held while idle).
final class Screen {
    private let wayland: WaylandConnection
    private var renderer: ToastRenderer
    /// Output to show on; nil lets the compositor choose (the focused one).
    private var outputName: String?
    private var toastPlacement = OverlaySurface.Placement(anchor: .topRight, margins: Margins(all: 12))
    private var hudPlacement = OverlaySurface.Placement(anchor: .bottomCenter, margins: Margins(all: 64))
    private var toastSurface: OverlaySurface? {
        // A new surface has no previous frame to compare the first one with.
        didSet { if toastSurface !== oldValue { lastToastFrame = nil } }
    }
    private var hudSurface: OverlaySurface?
    private var scene = Scene()
    /// Recomputes the scene at the current time (the daemon's animator over its model).
    var sceneProvider: () -> Scene = { Scene() }
    /// The opt-in PassThroughView mode: the toasts' action pills take clicks (`clickable-actions`).
    /// Off, the toast surface's input region stays empty and every click passes through.
    var clickableActions = false {
        didSet { if clickableActions != oldValue { update() } }
    }
    /// A pill was clicked: the toast's id and the index of the action in its `buttonActions`.
    var onActionClicked: (NotificationID, Int) -> Void = { _, _ in }
    /// Toasts were drawn into a frame (their timeouts start: the specification counts from display).
    var onToastsDrawn: ([NotificationID]) -> Void = { _ in }
    /// The pills on the toast surface now (empty unless `clickableActions`).
    private var actionButtons: [ActionButton] = []
    /// How far (logical pixels) a toast slides while it fades in or out.
    static let slideDistance = 32

    init(wayland: WaylandConnection, renderer: ToastRenderer, outputName: String?) {
        self.wayland = wayland
        self.renderer = renderer
        self.outputName = outputName
        wayland.onOutputRemoved = { [unowned self] output in
            // A surface pinned to an unplugged output is remade on a remaining one.
            if self.toastSurface?.output === output { self.toastSurface = nil }
            if self.hudSurface?.output === output { self.hudSurface = nil }
            self.update()
        }
        wayland.onOutputsChanged = { [unowned self] in
            // An output's scale may have changed under a surface that stays on it (no enter/leave).
            for surface in [self.toastSurface, self.hudSurface].compactMap({ $0 }) { self.followScale(of: surface) }
            self.update()
        }
        wayland.onPointerPress = { [unowned self] surface, x, y in
            guard self.clickableActions, let toasts = self.toastSurface, toasts.owns(surface),
                  let button = ActionButtons.button(at: x, y, in: self.actionButtons) else { return }
            self.onActionClicked(button.id, button.index)
        }
    }

    /// New look or placement (configuration reload): the overlays are remade with it at once.
    func reconfigure(renderer: ToastRenderer, outputName: String?,
                     toasts: OverlaySurface.Placement, hud: OverlaySurface.Placement) {
        self.renderer = renderer
        self.outputName = outputName
        toastPlacement = toasts
        hudPlacement = hud
        toastSurface = nil
        hudSurface = nil
        update()
    }

    /// Brings the overlays in line with the current scene.
    func update() {
        scene = sceneProvider()
        updateToasts()
        updateHud()
    }

    // MARK: - Toast stack

    /// The toast stack changed while its surface waited for a frame callback: update it at that frame.
    private var toastsPending = false

    private func updateToasts() {
        guard !scene.toasts.isEmpty else {
            toastsPending = false
            toastSurface = nil
            toastImages = [:]
            actionButtons = []
            return
        }
        // The compositor has not shown the last frame yet, so the next draw is at least that frame away:
        // lay the stack out then. In a burst, toasts pushed under "+N more" before any frame shows them
        // are never measured (each would cost its Pango layouts).
        if let surface = toastSurface, surface.isWaitingForFrame {
            toastsPending = true
            return
        }
        toastsPending = false
        let surface = toastSurface ?? makeSurface(placement: toastPlacement) { [unowned self] buffer, scale in
            self.drawToasts(into: buffer, scale: scale)
        }
        toastSurface = surface
        let arrangement = stackArrangement(scale: surface.scale)
        if clickableActions {
            let anchor = toastPlacement.anchor
            actionButtons = ActionButtons.place(zip(scene.toasts, arrangement.rects).map { toast, rect in
                (toast.id, anchor.oriented(rect, in: arrangement.size),
                 toast.view.actions.isEmpty ? [] : renderer.actionRects(toast.view, scale: surface.scale))
            })
        } else {
            actionButtons = []
        }
        surface.setInputRegion(actionButtons.map(\.rect))
        surface.setNeedsDraw(size: (arrangement.size.width, arrangement.size.height))
    }

    /// A toast rendered once at one scale. Fades and slides only composite it, so an animation frame
    /// costs a blit per toast, not a Pango layout and a redraw.
    private struct ToastImage {
        var view: ToastView
        var scale: Int
        var size: Size
        var image: Canvas?
    }

    /// Pictures of the toasts in the scene, by id; pruned to the scene at each draw.
    private var toastImages: [NotificationID: ToastImage] = [:]

    private func cachedToast(_ toast: Scene.Toast, scale: Int) -> ToastImage {
        if let cached = toastImages[toast.id], cached.view == toast.view, cached.scale == scale { return cached }
        let entry = ToastImage(view: toast.view, scale: scale, size: renderer.measure(toast.view, scale: scale))
        toastImages[toast.id] = entry
        return entry
    }

    /// The stack's layout from the cached sizes: only new or changed toasts are measured.
    private func stackArrangement(scale: Int) -> StackLayout.Arrangement {
        let hidden = scene.hiddenCount
        return StackLayout.arrange(sizes: scene.toasts.map { cachedToast($0, scale: scale).size },
                                   hiddenCount: hidden, gap: renderer.style.gap,
                                   moreSize: hidden > 0 ? renderer.measureMorePill(count: hidden, scale: scale) : nil)
    }

    /// One toast as drawn into a buffer, to tell what the next frame changes.
    private struct DrawnToast: Hashable {
        var id: NotificationID
        var view: ToastView
        var opacity: Double
        /// Where it was drawn, in buffer pixels (after sliding).
        var rect: Rect
    }

    /// The last frame committed to the toast surface.
    private var lastToastFrame: ToastFrame?

    private func drawToasts(into buffer: ShmBuffer, scale: Int) -> OverlaySurface.Damage? {
        let canvas = Canvas(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
        let arrangement = stackArrangement(scale: scale)
        let anchor = toastPlacement.anchor
        var drawn: [DrawnToast] = []
        var images: [Canvas] = []
        for (toast, rect) in zip(scene.toasts, arrangement.rects) {
            let rect = anchor.oriented(rect, in: arrangement.size)
            var entry = cachedToast(toast, scale: scale)
            let image = entry.image ?? {
                let image = renderer.image(of: toast.view, scale: scale)
                entry.image = image
                toastImages[toast.id] = entry
                return image
            }()
            // Entering and leaving toasts slide from (and to) the edge the stack is anchored to.
            let slide = Int((toast.slide * Double(Self.slideDistance * scale)).rounded())
            let dx = switch anchor.column {
            case .left: -slide
            case .center: 0
            case .right: slide
            }
            let pixels = Rect(x: rect.x * scale + dx, y: rect.y * scale, width: image.width, height: image.height)
            drawn.append(DrawnToast(id: toast.id, view: toast.view, opacity: toast.opacity, rect: pixels))
            images.append(image)
        }
        // Forget toasts that left the scene (their pictures are freed with them).
        let shown = Set(scene.toasts.map(\.id))
        toastImages = toastImages.filter { shown.contains($0.key) }
        let frame = ToastFrame(width: buffer.width, height: buffer.height, toasts: drawn, more: arrangement.hiddenCount)
        onToastsDrawn(drawn.map(\.id))

        // Repair only what differs from what this buffer already holds (it may be a frame or two old):
        // during a fade, that is the one toast fading, not the whole stack.
        let whole = Rect(x: 0, y: 0, width: buffer.width, height: buffer.height)
        var repair = (buffer.content as? ToastFrame).flatMap { Self.changedArea(from: $0, to: frame) } ?? whole
        let more = arrangement.moreRect.map { anchor.oriented($0, in: arrangement.size) }
        if let more, Rect(x: more.x * scale, y: more.y * scale, width: more.width * scale,
                          height: more.height * scale).intersects(repair) {
            repair = whole  // the pill is drawn whole, never clipped: repaint everything around it
        }
        buffer.content = frame
        if repair.width > 0 && repair.height > 0 {
            canvas.clear(repair, scale: 1)
            for (toast, image) in zip(drawn, images) where toast.rect.intersects(repair) {
                // Toasts never overlap and their area was just cleared: an opaque one is a plain copy.
                canvas.composite(image, atPixelX: toast.rect.x, y: toast.rect.y, opacity: toast.opacity, clip: repair,
                                 replacing: true)
            }
            if let more, repair == whole {
                renderer.drawMorePill(count: arrangement.hiddenCount, in: canvas, at: Point(x: more.x, y: more.y), scale: scale)
            }
        }

        // The compositor is told only what differs from the frame it shows now.
        defer { lastToastFrame = frame }
        guard let last = lastToastFrame, let changed = Self.changedArea(from: last, to: frame) else { return nil }
        return OverlaySurface.Damage(x: Int32(changed.x), y: Int32(changed.y),
                                     width: Int32(changed.width), height: Int32(changed.height))
    }

    /// What a toast buffer holds: its size and each toast as drawn.
    private struct ToastFrame: Hashable {
        var width: Int
        var height: Int
        var toasts: [DrawnToast]
        var more: Int
    }

    /// The bounding box of what differs between two frames (empty when nothing does); nil when they
    /// cannot be compared (another size, another "+N more"): all of it changed.
    private static func changedArea(from old: ToastFrame, to new: ToastFrame) -> Rect? {
        guard old.width == new.width, old.height == new.height, old.more == new.more else { return nil }
        let changed = new.toasts.filter { !old.toasts.contains($0) } + old.toasts.filter { !new.toasts.contains($0) }
        guard let first = changed.first?.rect else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return changed.dropFirst().reduce(first) { $0.union($1.rect) }
    }

    // MARK: - HUD

    private func updateHud() {
        guard !scene.huds.isEmpty else {
            hudSurface = nil
            return
        }
        let surface = hudSurface ?? makeSurface(placement: hudPlacement) { [unowned self] buffer, scale in
            self.drawHud(into: buffer, scale: scale)
        }
        hudSurface = surface
        let size = hudSize(scale: surface.scale)
        surface.setNeedsDraw(size: (size.width, size.height))
    }

    private func hudSize(scale: Int) -> Size {
        let sizes = scene.huds.map { renderer.measureHud($0, scale: scale) }
        let gap = renderer.style.gap
        return Size(width: sizes.map(\.width).max() ?? 0,
                    height: sizes.map(\.height).reduce(0, +) + gap * max(0, sizes.count - 1))
    }

    /// What a HUD buffer holds; equal but for the spinner's phase and the bar's value means only the
    /// wheel and the bar row must be redrawn.
    private struct HudContent: Hashable {
        var huds: [HudView]
        var opacity: Double
        var scale: Int

        /// The same HUDs with the spinner standing still and the bar at 0.
        var withoutMotion: HudContent {
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

    private func drawHud(into buffer: ShmBuffer, scale: Int) -> OverlaySurface.Damage? {
        let canvas = Canvas(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
        let content = HudContent(huds: scene.huds, opacity: scene.hudOpacity, scale: scale)
        let previous = buffer.content as? HudContent
        buffer.content = content
        let width = hudSize(scale: scale).width
        var origins: [Point] = []
        var y = 0
        for hud in scene.huds {
            let size = renderer.measureHud(hud, scale: scale)
            // Bar and spinner differ in width: align them to the side the HUD is anchored to.
            let x = switch hudPlacement.anchor.column {
            case .left: 0
            case .center: (width - size.width) / 2
            case .right: width - size.width
            }
            origins.append(Point(x: x, y: y))
            y += size.height + renderer.style.gap
        }

        // The spinner turning and the bar's value are the only changes (the usual animation frame, a
        // stream of volume steps): the buffer already holds everything else, so redraw the wheel and the
        // bar row alone and damage just their rects.
        if content.opacity >= 1, let previous, previous.withoutMotion == content.withoutMotion {
            var damage: Rect?
            for (index, hud) in scene.huds.enumerated() {
                let part: Rect
                switch hud {
                case .spinner(let spinner):
                    renderer.redrawSpinnerWheel(spinner, in: canvas, at: origins[index], scale: scale)
                    part = renderer.spinnerRect(spinner, scale: scale)
                case .bar(let bar):
                    // A buffer may already hold this value (values alternating over two buffers): nothing
                    // to draw, but the compositor shows the other one, so the rect is still damaged.
                    if previous.huds[index] != hud {
                        renderer.redrawBarValue(bar, in: canvas, at: origins[index], scale: scale)
                    }
                    part = renderer.barValueRect(bar, scale: scale)
                }
                let pixels = Rect(x: (origins[index].x + part.x) * scale, y: (origins[index].y + part.y) * scale,
                                  width: part.width * scale, height: part.height * scale)
                damage = damage.map { $0.union(pixels) } ?? pixels
            }
            if let damage {
                return OverlaySurface.Damage(x: Int32(damage.x), y: Int32(damage.y),
                                             width: Int32(damage.width), height: Int32(damage.height))
            }
        }

        canvas.clear()
        for (hud, origin) in zip(scene.huds, origins) {
            renderer.drawHud(hud, in: canvas, at: origin, scale: scale, opacity: scene.hudOpacity)
        }
        return nil
    }

    // MARK: - Surfaces

    private func makeSurface(placement: OverlaySurface.Placement, draw: @escaping OverlaySurface.Draw) -> OverlaySurface {
        let output = outputName.flatMap { wayland.output(named: $0) }
        // Until the compositor says which output the surface is on, guess: the pinned output's scale,
        // else the largest, so the first frame is never blurry (a smaller one is only downscaled).
        let scale = output?.scale ?? wayland.outputs.map(\.scale).max() ?? 1
        let surface = OverlaySurface(wayland: wayland, output: output, placement: placement, scale: scale, draw: draw)
        surface.onClosed = { [unowned self, unowned surface] in
            // The compositor closed it (its output went away): drop it; the next update makes a new one.
            if self.toastSurface === surface { self.toastSurface = nil }
            if self.hudSurface === surface { self.hudSurface = nil }
            self.update()
        }
        surface.onOutputsChanged = { [unowned self, unowned surface] in
            if self.followScale(of: surface) { self.update() }
        }
        surface.onFrame = { [unowned self] in
            if self.scene.isAnimating || self.toastsPending { self.update() }
        }
        return surface
    }

    /// Sets `surface`'s buffer scale to the largest of the outputs it is on; returns whether it changed.
    @discardableResult
    private func followScale(of surface: OverlaySurface) -> Bool {
        let scale = surface.entered.compactMap { wayland.output(for: $0)?.scale }.max() ?? surface.scale
        guard scale != surface.scale else { return false }
        surface.scale = scale
        return true
    }
}
