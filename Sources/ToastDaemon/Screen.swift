import ToastConfig
import ToastCore
import ToastRender
import ToastScene
import ToastVocabulary
import Wayland

/// The daemon's overlays: the toast stacks (top-right unless configured; a rule's `anchor`, `output`
/// or `layer` makes another) and the HUD (bottom centre). A HUD never moves or hides toasts: at a
/// stack's anchor it takes its place past the stack (`HudClearance`). Each has its own layer surfaces, one per output it shows on, made when it has something to show and
/// destroyed when it has nothing (no surface, no buffer held while idle). What goes into their
/// buffers is drawn by `ToastStackPainter` and `HudPainter`; this keeps the surfaces: which outputs
/// they are on, their scale, frame pacing and input.
final class Screen {
    private let wayland: WaylandConnection
    private var renderer: ToastRenderer
    private var hudPainter: HudPainter
    /// Where the HUD shows (`hud-output`).
    private var hudOutput: OutputChoice = .compositor
    private static let defaultToastPlacement = OverlaySurface.Placement(anchor: .topRight, margins: Margins(all: 12))
    private static let defaultHudPlacement = OverlaySurface.Placement(anchor: .bottomCenter, margins: Margins(all: 64))
    private var toastPlacement = defaultToastPlacement
    private var hudPlacement = defaultHudPlacement
    /// One surface per stack and output (the output's global name; nil: the compositor's choice).
    private var toastSurfaces: [SurfaceKey: ToastStackSurface] = [:]
    /// The stack toasts go to unless a rule says otherwise (the global `output`, `anchor`, `layer`).
    private var defaultStack: StackKey?
    /// A layer surface of the default stack made ahead: configured, but never given a buffer, so it
    /// is not mapped (the compositor shows nothing of it and sends it no events). The next toast
    /// that needs a new surface for that stack takes it and attaches its first buffer at once,
    /// without the round trip to its first configure; another is made at once. Only where the
    /// output is certain ahead (`spareKey`).
    private var spare: (key: SurfaceKey, surface: OverlaySurface)?
    /// The spare last taken by a toast: the next spare's buffer is made ahead at the size of its first.
    private weak var spareTaken: OverlaySurface?
    private var hudSurfaces: [UInt32?: OverlaySurface] = [:]
    /// The output a `focused` HUD shows on, chosen when it appears and at each new bar value.
    private var hudFocusOutput: UInt32?
    /// The bars last shown: a new value is the HUD's "next update", when it follows the focus.
    private var lastBars: [HudView] = []

    struct SurfaceKey: Hashable {
        var stack: StackKey
        var output: UInt32?
    }
    private var scene = Scene()
    /// Recomputes the scene at the current time (the daemon's animator over its model).
    var sceneProvider: () -> Scene = { Scene() }
    /// The opt-in `clickable-actions` mode: toasts take clicks (their pills and their bodies).
    /// Off, the toast surface's input region stays empty and every click passes through.
    var clickableActions = false {
        didSet { if clickableActions != oldValue { update() } }
    }
    /// Whether a toast takes clicks without `clickable-actions`: a rule binds a button for it
    /// (`on-button-*`). Its body takes them; every other toast lets them through.
    var takesClicks: (NotificationID) -> Bool = { _ in false }
    /// A pill was clicked with the left button: the toast's id, the index of the action in its
    /// `buttonActions`, and the press (an activation token is asked with it).
    var onActionClicked: (NotificationID, Int, PointerPress) -> Void = { _, _, _ in }
    /// A toast was clicked off its pills, or with another button than the left one anywhere on it.
    var onToastClicked: (NotificationID, PointerPress) -> Void = { _, _ in }
    /// Toasts were drawn into a frame (their timeouts start: the specification counts from display).
    var onToastsDrawn: ([Scene.Toast]) -> Void = { _ in }
    /// Both overlays have just gone (the last toast and the HUD are gone): a moment to free memory.
    var onNothingShown: () -> Void = {}
    /// An overlay showed its last frame and has nothing more to draw: a moment to trim the heap.
    var onSettled: () -> Void = {}
    /// The surface toast `id` is drawn on (the first, when it shows on several outputs); nil: none.
    func toastSurface(showing id: NotificationID) -> OverlaySurface? {
        toastSurfaces.values.first { $0.shows(id) }?.surface
    }

    /// Whether no overlay exists.
    var isShowingNothing: Bool { toastSurfaces.isEmpty && hudSurfaces.isEmpty }
    /// What the screen last followed of the focus (foreign-toplevel): a change redraws.
    private var focus = FocusTracker.Summary()

    init(wayland: WaylandConnection, renderer: ToastRenderer) {
        self.wayland = wayland
        self.renderer = renderer
        hudPainter = HudPainter(renderer: renderer, column: Self.defaultHudPlacement.anchor.column)
        wayland.onOutputRemoved = { [unowned self] output in
            // Surfaces on an unplugged output go; their toasts are drawn on a remaining one (a
            // `focused` toast whose output is gone goes to the focused output) at the update below.
            self.toastSurfaces = self.toastSurfaces.filter { $0.key.output != output.globalName }
            if self.spare?.key.output == output.globalName { self.spare = nil }
            self.hudSurfaces = self.hudSurfaces.filter { $0.key != output.globalName }
            if self.hudFocusOutput == output.globalName { self.hudFocusOutput = nil }
            self.update()
        }
        wayland.onOutputsChanged = { [unowned self] in
            // An output's scale may have changed under a surface that stays on it (no enter/leave).
            for surface in self.allSurfaces { self.followScale(of: surface) }
            // The spare's scale was guessed from the outputs when it was made: made again (below) with the new one.
            self.spare = nil
            self.update()
        }
        wayland.onFocusChanged = { [unowned self] in
            let focus = self.wayland.toplevels?.tracker.summary(among: self.wayland.outputs.map(\.globalName))
                ?? FocusTracker.Summary()
            guard focus != self.focus else { return }
            self.focus = focus
            // Held toasts may show now; the next toast and HUD value go to the new focused output.
            self.update()
        }
        wayland.onPointerPress = { [unowned self] press in
            // Only toasts that take clicks are in the input region, so a press here is meant for one.
            guard let toasts = self.toastSurfaces.values.first(where: { $0.surface.owns(press.surface) }) else { return }
            switch ActionButtons.target(at: press.x, press.y, buttons: toasts.actionButtons, bodies: toasts.bodies) {
            case .button(let button) where press.button == .left: self.onActionClicked(button.id, button.index, press)
            case .button(let button): self.onToastClicked(button.id, press)
            case .body(let id): self.onToastClicked(id, press)
            case nil: break
            }
        }
    }

    /// New look or placement (configuration reload): the overlays are remade with it at once.
    /// `defaultStack`: where toasts go unless a rule says otherwise.
    func reconfigure(renderer: ToastRenderer, hudOutput: OutputChoice, defaultStack: StackKey,
                     toasts: OverlaySurface.Placement, hud: OverlaySurface.Placement) {
        self.renderer = renderer
        self.hudOutput = hudOutput
        self.defaultStack = defaultStack
        toastPlacement = toasts
        hudPlacement = hud
        spare = nil
        // New painters (one per surface): no toast picture drawn in the old look is reused.
        hudPainter = HudPainter(renderer: renderer, column: hud.anchor.column)
        toastSurfaces = [:]
        hudSurfaces = [:]
        update()
    }

    private var allSurfaces: [OverlaySurface] { toastSurfaces.values.map(\.surface) + hudSurfaces.values }

    /// Brings the overlays in line with the current scene.
    func update() {
        deferredUntil = nil
        let wasShowing = !isShowingNothing
        scene = sceneProvider()
        updateToasts()
        updateHud()
        keepSpare()
        if wasShowing && isShowingNothing { onNothingShown() }
    }

    /// A change to the toasts waits for the next frame callback until then: see `updateSoon`.
    private(set) var deferredUntil: Instant?

    /// Like `update`, for a change to the toasts only: while every overlay waits for a frame callback
    /// asked for lately, the scene is made at that callback (`onFrame` updates) instead of now
    /// (`FrameDeferral`). By `deferredUntil` the daemon updates anyway.
    func updateSoon(now: Instant) {
        // A HUD that asked for no frame callback (a steady bar) draws at once: it holds nothing back.
        let asked = toastSurfaces.values.map(\.surface.frameAskedAt) + hudSurfaces.values.compactMap(\.frameAskedAt)
        if let due = FrameDeferral.until(framesAskedAt: asked, now: now, deferred: deferredUntil) {
            deferredUntil = due
        } else {
            update()
        }
    }

    // MARK: - Toast stacks

    /// The outputs the surfaces of `choice` go on (nil: the compositor's choice); `focused` says which
    /// output `.focused` means for the caller.
    private func outputs(of choice: OutputChoice, focused: @autoclosure () -> UInt32?) -> [UInt32?] {
        switch choice {
        case .compositor: return [nil]
        case .named(let name): return [wayland.output(named: name)?.globalName]
        case .all: return wayland.outputs.isEmpty ? [nil] : wayland.outputs.map(\.globalName)
        case .focused: return [focused()]
        }
    }

    /// The outputs a stack's surfaces go on. A focused stack's output was chosen at arrival; gone
    /// (unplugged), its toasts move to where the focus is now.
    private func outputs(for place: StackPlace) -> [UInt32?] {
        outputs(of: place.key.output,
                focused: (place.output.flatMap { wayland.output(named: $0) } ?? wayland.focusedOutput)?.globalName)
    }

    private func updateToasts() {
        // Each stack's toasts go to the surface of each output it shows on. Toasts chosen for
        // outputs since gone meet others on a remaining one: one surface per stack and output, its
        // toasts in scene order (newest first).
        var wanted: [SurfaceKey: Scene] = [:]
        var keysOfToast: [NotificationID: [SurfaceKey]] = [:]
        for stack in scene.stacks {
            for output in outputs(for: stack.place) {
                let key = SurfaceKey(stack: stack.place.key, output: output)
                wanted[key, default: Scene(morePill: scene.morePill, isAnimating: scene.isAnimating)].hiddenCount += stack.hiddenCount
                wanted[key]!.totalCount += stack.totalCount
                for toast in stack.toasts { keysOfToast[toast.id, default: []].append(key) }
            }
        }
        for toast in scene.toasts {
            for key in keysOfToast[toast.id] ?? [] { wanted[key]?.toasts.append(toast) }
        }
        toastSurfaces = toastSurfaces.filter { wanted[$0.key] != nil }
        for (key, stackScene) in wanted {
            let stack = toastSurfaces[key] ?? makeToastSurface(key)
            toastSurfaces[key] = stack
            stack.update(stackScene, clicks: clickableActions ? .all : .only(Set(stackScene.toasts.map(\.id).filter(takesClicks))))
        }
    }

    private func toastPlacement(of stack: StackKey) -> OverlaySurface.Placement {
        var placement = toastPlacement
        placement.anchor = stack.anchor
        placement.layer = stack.layer
        return placement
    }

    private func makeToastSurface(_ key: SurfaceKey) -> ToastStackSurface {
        let surface: OverlaySurface
        if let spare, spare.key == key {
            surface = spare.surface
            spareTaken = surface
            self.spare = nil  // `keepSpare` makes the next one at the end of this update
        } else {
            // Nothing is drawn before the first configure; by then the stack below draws.
            surface = makeSurface(output: key.output, placement: toastPlacement(of: key.stack)) { _, _ in nil }
        }
        let stack = ToastStackSurface(surface: surface, renderer: renderer, anchor: key.stack.anchor)
        stack.onDrawn = { [unowned self] toasts in self.onToastsDrawn(toasts) }
        surface.draw = { [unowned stack] buffer, scale in stack.draw(into: buffer, scale: scale) }
        // Weak: the stack may be gone (its toasts all closed) when its surface's last frame is shown.
        surface.onSettled = { [unowned self, weak stack] in
            stack?.settled()
            self.onSettled()
        }
        return stack
    }

    /// Where the spare surface goes now: the default stack's surface, when its output is certain
    /// ahead. Without an output named, the compositor picks one when the surface is made (sway: the
    /// focused one), so a spare made earlier could be on another output than a surface made when the
    /// toast comes: only with a single output, or the output named and there.
    private func spareKey() -> SurfaceKey? {
        guard let stack = defaultStack else { return nil }
        let named = if case .named = stack.output { true } else { false }
        let outputs = outputs(of: stack.output, focused: wayland.focusedOutput?.globalName)
        guard outputs.count == 1, let output = outputs.first,
              wayland.outputs.count == 1 || (named && output != nil) else { return nil }
        return SurfaceKey(stack: stack, output: output)
    }

    /// Makes the spare surface if there is none for where it goes now (and drops one that is stale).
    private func keepSpare() {
        let key = spareKey()
        guard spare?.key != key else { return }
        spare = key.map { key in
            let surface = makeSurface(output: key.output, placement: toastPlacement(of: key.stack)) { _, _ in nil }
            surface.askForFirstConfigure()
            // Its buffer too, at the size the last toast on a spare had: the next one on its own likely
            // has it (a toast of another size reshapes it). With its pages: a fresh page costs ~3 µs
            // here, and a toast after idle waited ~0.1 ms for its buffer's (~150 KB at scale 1, 600 KB
            // at scale 2, held while idle from the first toast on; none before it, as no size is known).
            if let first = spareTaken?.lastDrawn { surface.prepareBuffer(width: first.width, height: first.height) }
            spareTaken = nil
            return (key, surface)
        }
    }

    // MARK: - HUD

    private func updateHud() {
        guard !scene.huds.isEmpty else {
            hudSurfaces = [:]
            lastBars = []
            hudShown = nil
            return
        }
        // A new bar value (or a HUD appearing) is the HUD's next update: a `focused` HUD moves to the
        // output with the focus then, never while a value stays.
        let bars = scene.huds.filter { if case .bar = $0 { true } else { false } }
        if case .focused = hudOutput, hudSurfaces.isEmpty || bars != lastBars
            || !wayland.outputs.contains(where: { $0.globalName == hudFocusOutput }) {
            hudFocusOutput = wayland.focusedOutput?.globalName
        }
        let outputs = outputs(of: hudOutput, focused: hudFocusOutput)
        lastBars = bars
        if hudSurfaces.keys.contains(where: { !outputs.contains($0) }) { hudSurfaces = hudSurfaces.filter { outputs.contains($0.key) } }
        let shown = HudContent(huds: scene.huds, opacity: scene.hudOpacity)
        for output in outputs {
            let existing = hudSurfaces[output]
            let surface = existing ?? makeHudSurface(output: output)
            hudSurfaces[output] = surface
            surface.move(to: hudMargins(on: output))
            // A change to the toasts alone leaves the HUD as it is: no redraw, no commit. Not while
            // anything animates: frames drive animations, and a frame skipped asks for no next one.
            if existing != nil, !scene.isAnimating, shown == hudShown, surface.drawnScale == surface.scale { continue }
            let size = hudPainter.size(of: scene.huds, scale: surface.scale)
            surface.setNeedsDraw(size: (size.width, size.height))
        }
        hudShown = shown
    }

    /// The HUD's margins on `output`: past the toast stacks at its anchor there (`HudClearance`). With
    /// one output, a surface left to the compositor's choice (nil) is on it too.
    private func hudMargins(on output: UInt32?) -> Margins {
        let single = wayland.outputs.count <= 1
        let stacks = toastSurfaces.filter { $0.key.output == output || (single && ($0.key.output == nil || output == nil)) }
            .map { key, stack in
                HudClearance.Stack(anchor: key.stack.anchor, margins: stack.surface.margins, height: stack.surface.size.height)
            }
        return HudClearance.margins(hudPlacement.margins, anchor: hudPlacement.anchor, stacks: stacks,
                                    bleed: renderer.style.shadowExtent, gap: renderer.style.gap)
    }

    /// Takes `bar`, the new view of the value bar on screen, into the scene shown when its value is all
    /// that changed (`HudValuePath`), and redraws the bar row; returns false, touching nothing, when the
    /// daemon must `update` instead: a step that needs a scene, a surface whose scale moved, or a
    /// `focused` HUD whose next value goes to another output.
    func showBarValue(_ bar: HudBarView) -> Bool {
        guard !hudSurfaces.isEmpty else { return false }
        // The focus as last told (`onFocusChanged`), not asked of the toplevels again: the same answer
        // while nothing moved, without a list of the outputs made per value.
        if case .focused = hudOutput, focus.focused != hudFocusOutput { return false }
        switch HudValuePath.step(from: scene, to: bar) {
        case .fullPath:
            return false
        case .unchanged:
            return true
        case .barValue:
            guard hudSurfaces.values.allSatisfy({ $0.drawnScale == $0.scale }) else { return false }
            // In place: the arrays stay those of the last value, no copies.
            let hud = HudView.bar(bar)
            scene.huds[0] = hud
            lastBars.makeOnly(hud)
            hudShown?.huds.makeOnly(hud)
            for surface in hudSurfaces.values { surface.setNeedsDraw(size: surface.size) }
            return true
        }
    }

    private func makeHudSurface(output: UInt32?) -> OverlaySurface {
        let surface = makeSurface(output: output, placement: hudPlacement) { [unowned self] buffer, scale in
            self.drawHud(into: buffer, scale: scale)
        }
        surface.settles = false  // see `OverlaySurface.settles`
        surface.asksFrame = { [unowned self] since in HudFramePacing.asksFrame(animating: self.scene.isAnimating, sinceLastCommit: since) }
        return surface
    }

    /// What the HUD surfaces were last asked to draw.
    private struct HudContent: Equatable {
        var huds: [HudView]
        var opacity: Double
    }
    private var hudShown: HudContent?

    private func drawHud(into buffer: ShmBuffer, scale: PixelScale) -> OverlaySurface.Damage? {
        let painting = hudPainter.paint(scene.huds, opacity: scene.hudOpacity, scale: scale,
                                        into: Canvas(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride),
                                        over: buffer.content?.hud)
        buffer.content = .hud(painting.frame)
        return painting.damage.map(OverlaySurface.Damage.init)
    }

    // MARK: - Surfaces

    private func makeSurface(output globalName: UInt32?, placement: OverlaySurface.Placement,
                             draw: @escaping OverlaySurface.Draw) -> OverlaySurface {
        let output = wayland.outputs.first { $0.globalName == globalName }
        // Until the compositor says which output the surface is on, guess: the pinned output's scale,
        // else the largest, so the first frame is never blurry (a smaller one is only downscaled).
        let scale = output?.scale ?? wayland.outputs.map(\.scale).max() ?? 1
        let surface = OverlaySurface(wayland: wayland, output: output, placement: placement, scale: scale, draw: draw)
        surface.onClosed = { [unowned self, unowned surface] in
            // The compositor closed it (its output went away): drop it; the next update makes a new one.
            self.toastSurfaces = self.toastSurfaces.filter { $0.value.surface !== surface }
            self.hudSurfaces = self.hudSurfaces.filter { $0.value !== surface }
            if self.spare?.surface === surface { self.spare = nil }
            self.update()
        }
        surface.onOutputsChanged = { [unowned self, unowned surface] in
            if self.followScale(of: surface) { self.update() }
        }
        surface.onSettled = { [unowned self] in self.onSettled() }
        surface.onFrame = { [unowned self] in
            if self.scene.isAnimating || self.deferredUntil != nil || self.toastSurfaces.values.contains(where: \.isPending) {
                self.update()
            }
        }
        return surface
    }

    /// Sets `surface`'s output scale to the largest of the outputs it is on; returns whether it must be
    /// laid out and drawn at another scale than its last buffer's (a preferred fractional scale, when
    /// the compositor sends one, wins over the outputs'). Before its first buffer, always: it was laid
    /// out at a guess, and text measured at another scale may be a pixel wider or taller.
    @discardableResult
    private func followScale(of surface: OverlaySurface) -> Bool {
        surface.outputScale = surface.entered.compactMap { wayland.output(for: $0)?.scale }.max() ?? surface.outputScale
        return surface.drawnScale.map { $0 != surface.scale } ?? true
    }
}
