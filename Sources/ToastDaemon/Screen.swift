import ToastCore
import ToastRender
import Wayland
import ToastVocabulary

/// The daemon's two overlays: the toast stack (top-right unless configured) and the HUD (bottom
/// centre). A HUD never moves or hides toasts: each has its own layer surface, made when it has
/// something to show and destroyed when it has nothing (no surface, no buffer held while idle).
/// What goes into their buffers is drawn by `ToastStackPainter` and `HudPainter`; this keeps the
/// surfaces: their scale, outputs, frame pacing and input.
final class Screen {
    private let wayland: WaylandConnection
    private var toastPainter: ToastStackPainter
    private var hudPainter: HudPainter
    /// Output to show on; nil lets the compositor choose (the focused one).
    private var outputName: String?
    private static let defaultToastPlacement = OverlaySurface.Placement(anchor: .topRight, margins: Margins(all: 12))
    private static let defaultHudPlacement = OverlaySurface.Placement(anchor: .bottomCenter, margins: Margins(all: 64))
    private var toastPlacement = defaultToastPlacement
    private var hudPlacement = defaultHudPlacement
    private var toastSurface: OverlaySurface? {
        // A new surface has no previous frame to compare the first one with.
        didSet { if toastSurface !== oldValue { toastFrameOnScreen = nil } }
    }
    private var hudSurface: OverlaySurface?
    private var scene = Scene()
    /// Recomputes the scene at the current time (the daemon's animator over its model).
    var sceneProvider: () -> Scene = { Scene() }
    /// The opt-in `clickable-actions` mode: toasts take clicks (their pills and their bodies).
    /// Off, the toast surface's input region stays empty and every click passes through.
    var clickableActions = false {
        didSet { if clickableActions != oldValue { update() } }
    }
    /// A pill was clicked with the left button: the toast's id, the index of the action in its
    /// `buttonActions`, and the press (an activation token is asked with it).
    var onActionClicked: (NotificationID, Int, PointerPress) -> Void = { _, _, _ in }
    /// A toast was clicked off its pills, or with another button than the left one anywhere on it.
    var onToastClicked: (NotificationID, PointerPress) -> Void = { _, _ in }
    /// Toasts were drawn into a frame (their timeouts start: the specification counts from display).
    var onToastsDrawn: ([NotificationID]) -> Void = { _ in }
    /// Both overlays have just gone (the last toast and the HUD are gone): a moment to free memory.
    var onNothingShown: () -> Void = {}
    /// Whether neither overlay exists.
    var isShowingNothing: Bool { toastSurface == nil && hudSurface == nil }
    /// The pills on the toast surface now (empty unless `clickableActions`).
    private var actionButtons: [ActionButton] = []
    /// The toasts on the toast surface now (empty unless `clickableActions`).
    private var toastBodies: [ToastBody] = []

    init(wayland: WaylandConnection, renderer: ToastRenderer, outputName: String?) {
        self.wayland = wayland
        toastPainter = ToastStackPainter(renderer: renderer, anchor: Self.defaultToastPlacement.anchor)
        hudPainter = HudPainter(renderer: renderer, column: Self.defaultHudPlacement.anchor.column)
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
        wayland.onPointerPress = { [unowned self] press in
            guard self.clickableActions, let toasts = self.toastSurface, toasts.owns(press.surface) else { return }
            switch ActionButtons.target(at: press.x, press.y, buttons: self.actionButtons, bodies: self.toastBodies) {
            case .button(let button) where press.button == .left: self.onActionClicked(button.id, button.index, press)
            case .button(let button): self.onToastClicked(button.id, press)
            case .body(let id): self.onToastClicked(id, press)
            case nil: break
            }
        }
    }

    /// New look or placement (configuration reload): the overlays are remade with it at once.
    func reconfigure(renderer: ToastRenderer, outputName: String?,
                     toasts: OverlaySurface.Placement, hud: OverlaySurface.Placement) {
        self.outputName = outputName
        toastPlacement = toasts
        hudPlacement = hud
        // New painters: no toast picture drawn in the old look is reused.
        toastPainter = ToastStackPainter(renderer: renderer, anchor: toasts.anchor)
        hudPainter = HudPainter(renderer: renderer, column: hud.anchor.column)
        toastSurface = nil
        hudSurface = nil
        update()
    }

    /// Brings the overlays in line with the current scene.
    func update() {
        let wasShowing = !isShowingNothing
        scene = sceneProvider()
        updateToasts()
        updateHud()
        if wasShowing && isShowingNothing { onNothingShown() }
    }

    // MARK: - Toast stack

    /// The toast stack changed while its surface waited for a frame callback: update it at that frame.
    private var toastsPending = false

    private func updateToasts() {
        guard !scene.toasts.isEmpty else {
            toastsPending = false
            toastSurface = nil
            toastPainter.forgetPictures()
            actionButtons = []
            toastBodies = []
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
        let arrangement = toastPainter.arrangement(of: scene, scale: surface.scale)
        actionButtons = clickableActions
            ? toastPainter.actionButtons(of: scene, in: arrangement, scale: surface.scale) : []
        toastBodies = clickableActions ? toastPainter.bodies(of: scene, in: arrangement) : []
        surface.setInputRegion(toastBodies.map(\.rect))
        let size = toastPainter.surfaceSize(of: arrangement)
        surface.setNeedsDraw(size: (size.width, size.height))
    }

    /// The last frame committed to the toast surface: what the compositor shows.
    private var toastFrameOnScreen: ToastStackFrame?

    private func drawToasts(into buffer: ShmBuffer, scale: PixelScale) -> OverlaySurface.Damage? {
        let canvas = Canvas(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
        let frame = toastPainter.paint(scene, scale: scale, into: canvas, over: buffer.content?.toastStack).frame
        buffer.content = .toastStack(frame)
        onToastsDrawn(frame.toasts.map(\.id))
        // The compositor is told only what differs from the frame it shows now.
        defer { toastFrameOnScreen = frame }
        return ToastStackPainter.damage(from: toastFrameOnScreen, to: frame).map(OverlaySurface.Damage.init)
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
        let size = hudPainter.size(of: scene.huds, scale: surface.scale)
        surface.setNeedsDraw(size: (size.width, size.height))
    }

    private func drawHud(into buffer: ShmBuffer, scale: PixelScale) -> OverlaySurface.Damage? {
        let canvas = Canvas(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
        let painting = hudPainter.paint(scene, scale: scale, into: canvas, over: buffer.content?.hud)
        buffer.content = .hud(painting.frame)
        return painting.damage.map(OverlaySurface.Damage.init)
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

    /// Sets `surface`'s output scale to the largest of the outputs it is on; returns whether it must be
    /// drawn at another scale than its last buffer's (a preferred fractional scale, when the compositor
    /// sends one, wins over the outputs').
    @discardableResult
    private func followScale(of surface: OverlaySurface) -> Bool {
        surface.outputScale = surface.entered.compactMap { wayland.output(for: $0)?.scale }.max() ?? surface.outputScale
        return surface.drawnScale.map { $0 != surface.scale } ?? false
    }
}
