import ToastConfig
import ToastCore
import ToastPlatform
import ToastRender
import ToastScene
import Wayland

/// One overlay: a zwlr_layer_surface_v1 (the overlay layer unless a rule says `top`) with no keyboard
/// interactivity, sized to its content. Its input region is empty unless the person asked for clicks
/// (`clickable-actions`): then only the drawn buttons and toasts take them. This is the Wayland form of
/// the iOS cover window whose hitTest returns nil: drawn above everything, fullscreen windows included,
/// and every click and key it was not asked to take goes to the window below.
///
/// Drawing is pull-based: `setNeedsDraw` marks it dirty, and the surface asks its owner to draw when
/// the compositor is ready (paced by frame callbacks). Nothing is requested from the compositor while
/// nothing changes, so an idle surface costs no wakeups. The first buffer waits for the first configure:
/// it is drawn meanwhile (`PreparedFrame.swift`), so the round trip and the drawing overlap instead of
/// adding up. Once configured, a buffer of any size is attached at once, its size sent in the same
/// commit (layer-shell's size is double-buffered state, applied with the buffer): a stack that grows
/// waits for no round trip, and a surface made ahead (`Screen`'s spare) shows its first toast at once.
final class OverlaySurface {
    /// A rectangle that changed, in buffer pixels.
    struct Damage {
        var rect: Rect

        init(_ rect: Rect) { self.rect = rect }
    }

    /// Draws the content into `buffer` at `scale` (logical coordinates times `scale` are buffer
    /// pixels); returns what changed (nil: the whole buffer).
    typealias Draw = (_ buffer: ShmBuffer, _ scale: PixelScale) -> Damage?

    private let surface: WlSurface
    private let compositor: WlCompositor
    /// The input region last set, in surface-local logical pixels (empty: all clicks pass through).
    private var inputRegion: [Rect] = []
    private let layerSurface: ZwlrLayerSurfaceV1
    private let shm: WlShm
    private let display: WaylandDisplay
    private var pool = BufferPool()
    /// A buffer drawn while the configure for its size was awaited, attached once it comes.
    private var prepared: PreparedFrame?
    /// A frame drawn ahead was dropped unseen: the next one damages the whole buffer.
    private var droppedFrame = false
    /// Whether the compositor has configured the surface (once is enough: see the type's comment).
    private var configured = false
    private var frameCallback: WlCallback?
    /// The buffer scale last sent (nil before the first buffer).
    private var committedScale: Int32?
    /// wp_viewport and wp_fractional_scale_v1, when the compositor offers both: buffers drawn at its
    /// preferred fractional scale, shown at the logical size (`SurfaceScale`).
    private let viewport: WpViewport?
    private let fractionalScale: WpFractionalScaleV1?
    /// The last preferred_scale (120ths); nil until the compositor sends one.
    private var preferredScale: Int?
    /// The viewport destination last sent (nil before the first viewported buffer).
    private var committedDestination: (width: Int32, height: Int32)?
    private var needsDraw = false
    /// The size last sent with set_size; nil before the first commit.
    private var sizeSent: (width: Int, height: Int)?
    private(set) var entered: [WlOutput] = []

    /// The output this surface was created for (nil: the compositor's choice).
    let output: Output?
    /// Logical size of the content.
    private(set) var size: (width: Int, height: Int)
    /// The integer scale of the outputs the surface is on (wl_output.scale); the owner follows it.
    /// Drawn at unless the compositor prefers a fractional scale.
    var outputScale: Int
    /// How buffers relate to the logical size now: the preferred fractional scale through the
    /// viewport once the compositor sent one, else `outputScale` as a buffer scale.
    var surfaceScale: SurfaceScale {
        if let preferredScale, viewport != nil { return .fractional(preferredScale) }
        return .integer(outputScale)
    }
    /// What logical coordinates are multiplied by in the next buffer.
    var scale: PixelScale { surfaceScale.drawing }
    /// What the last buffer was drawn at (nil before the first): when `scale` differs, the content must be
    /// laid out and drawn again.
    private(set) var drawnScale: PixelScale?
    /// Called when the surface wants pixels.
    var draw: Draw
    /// The compositor closed the surface (its output went away): the owner drops it and makes a new one.
    var onClosed: () -> Void = {}
    /// The set of outputs the surface is on, or its preferred fractional scale, changed (the owner
    /// updates the scale and redraws when `scale` moved).
    var onOutputsChanged: () -> Void = {}

    /// `scale` is the integer scale to draw at until the surface's outputs or preferred scale are known.
    init(wayland: WaylandConnection, output: Output?, placement: Placement, scale: Int, draw: @escaping Draw) {
        guard let compositor = wayland.compositor, let layerShell = wayland.layerShell, let shm = wayland.shm else {
            preconditionFailure("WaylandConnection checks these globals at connect")
        }
        self.shm = shm
        self.display = wayland.display
        self.compositor = compositor
        self.output = output
        self.size = (1, 1)
        self.outputScale = scale
        self.draw = draw
        surface = compositor.createSurface()
        if let viewporter = wayland.viewporter, let manager = wayland.fractionalScaleManager {
            viewport = viewporter.getViewport(surface: surface)
            fractionalScale = manager.getFractionalScale(surface: surface)
        } else {
            (viewport, fractionalScale) = (nil, nil)
        }
        layerSurface = layerShell.getLayerSurface(surface: surface, output: output?.proxy,
                                                  layer: placement.layer == .top ? .top : .overlay,
                                                  namespace: "toastd")
        // Pass-through: an empty input region, set before the first buffer.
        let region = compositor.createRegion()
        surface.setInputRegion(region: region)
        region.destroy()
        layerSurface.setKeyboardInteractivity(keyboardInteractivity: .none)
        layerSurface.setExclusiveZone(zone: 0)
        // Placement (Placement.swift): the compositor ignores the margins of edges not anchored.
        margins = placement.margins
        layerSurface.setAnchor(anchor: placement.anchor.edges)
        sendMargins()
        // Handlers may lead the owner to drop this surface (onClosed): stay alive until they return.
        layerSurface.onEvent = { [unowned self] event in withExtendedLifetime(self) { self.handle(event) } }
        surface.onEvent = { [unowned self] event in withExtendedLifetime(self) { self.handle(event) } }
        fractionalScale?.onEvent = { [unowned self] event in
            guard case .preferredScale(let numerator) = event, Int(numerator) != self.preferredScale else { return }
            self.preferredScale = Int(numerator)
            withExtendedLifetime(self) { self.onOutputsChanged() }
        }
    }

    deinit {
        frameCallback = nil  // dropping it destroys the proxy: no `done` reaches a freed surface
        // Both must go before the wl_surface (the protocols make any later request an error).
        fractionalScale?.destroy()
        viewport?.destroy()
        layerSurface.destroy()
        surface.destroy()
    }

    /// Content changed: resize if needed and draw at the next opportunity.
    func setNeedsDraw(size newSize: (width: Int, height: Int)) {
        needsDraw = true
        size = newSize
        if sizeSent == nil { askForFirstConfigure() }
        drawIfReady()
    }

    /// The first commit (no buffer) asks for the first configure, at the content's size if it has one.
    /// A surface made ahead of its content (`Screen`'s spare) asks it with nothing to draw.
    func askForFirstConfigure() {
        guard sizeSent == nil else { return }
        sendSize(size)
        surface.commit()
        // Sent now, so the compositor answers while the buffer is drawn.
        _ = try? display.flush()
    }

    /// Makes a buffer of `width`×`height` pixels ahead of the first draw, with its pages: a surface
    /// made ahead (`Screen`'s spare) so draws its first frame into memory it already has.
    func prepareBuffer(width: Int, height: Int) {
        pool.prepare(shm: shm, width: width, height: height)
    }

    private func sendSize(_ newSize: (width: Int, height: Int)) {
        sizeSent = newSize
        layerSurface.setSize(width: UInt32(newSize.width), height: UInt32(newSize.height))
    }

    /// Makes `rects` (surface-local logical pixels) the only part of the surface that takes pointer
    /// input; `[]` makes it pass-through again. Sent only when it changes; it applies with the next commit,
    /// so set it before the `setNeedsDraw` of the frame that draws those pills.
    func setInputRegion(_ rects: [Rect]) {
        guard rects != inputRegion else { return }
        inputRegion = rects
        let region = compositor.createRegion()
        for rect in rects {
            region.add(x: Int32(rect.x), y: Int32(rect.y), width: Int32(rect.width), height: Int32(rect.height))
        }
        surface.setInputRegion(region: region)
        region.destroy()
    }

    /// Makes the overlay take the keyboard (`on_demand`: until the user focuses another window; the
    /// compositor's layer shell older than v4 knows only `exclusive`) or not (`none`, the default). Set
    /// before the first commit (the notification center, an alert: the only overlays that take keys).
    /// `exclusive`: it keeps the keyboard until it goes (an alert, answered or not).
    func takeKeyboard(_ on: Bool, exclusive: Bool = false, layerShellVersion: UInt32) {
        layerSurface.setKeyboardInteractivity(
            keyboardInteractivity: !on ? .none : exclusive || layerShellVersion < 4 ? .exclusive : .onDemand)
    }

    /// Sends state set since the last commit (keyboard interactivity) without a new buffer; nothing
    /// before the first configure (the first commit carries it then).
    func commitState() {
        guard configured else { return }
        surface.commit()
    }

    /// The distances from the output's edges the surface is placed at (or will be, at its next commit).
    private(set) var margins: Margins

    /// Moves the surface to `margins`: at once, without a new buffer, once configured; before that, at
    /// its first commit.
    func move(to margins: Margins) {
        guard margins != self.margins else { return }
        self.margins = margins
        sendMargins()
        commitState()
    }

    private func sendMargins() {
        layerSurface.setMargin(top: Int32(margins.top), right: Int32(margins.right),
                               bottom: Int32(margins.bottom), left: Int32(margins.left))
    }

    /// Pins the overlay to `edges` instead of its placement's (a panel spanning the output's height).
    func pin(to edges: ZwlrLayerSurfaceV1.Anchor) {
        layerSurface.setAnchor(anchor: edges)
    }

    /// The compositor's size in a configure (a side of 0: the surface's own choice); called before the
    /// surface draws for it, so the owner may give the content that size.
    var onConfigure: (_ width: Int, _ height: Int) -> Void = { _, _ in }

    /// The first commit for a surface whose size the compositor chooses (0 for a side pinned to both
    /// of its edges): nothing is drawn until its configure says the size (`onConfigure`).
    func askForFirstConfigure(size: (width: Int, height: Int)) {
        self.size = size
        askForFirstConfigure()
    }

    /// Whether `proxy` is this overlay's wl_surface (pointer events name the surface they are for).
    func owns(_ proxy: WlSurface?) -> Bool { proxy === surface }

    /// The buffer drawn last: what the compositor shows or is about to. Its pixels may be read (not
    /// written) while the compositor holds it, e.g. to copy what the next frame shares with it.
    private(set) var lastDrawn: ShmBuffer?

    /// Whether a frame callback is outstanding (the daemon is animating this surface).
    var isWaitingForFrame: Bool { frameCallback != nil }
    /// When the outstanding frame callback was asked for (nil: none is).
    private(set) var frameAskedAt: Instant?

    private func drawIfReady() {
        guard frameCallback == nil else { return }
        if needsDraw {
            switch PreparedFrame.step(configured: configured, holdsPrepared: prepared != nil) {
            case .draw:
                prepared = nil
                let scaling = surfaceScale
                let pixels = scaling.bufferSize(logical: size)
                guard let buffer = pool.next(shm: shm, width: pixels.width, height: pixels.height) else {
                    return  // out of memory: keep the last frame, try again on the next change
                }
                needsDraw = false
                let damage = draw(buffer, scaling.drawing)
                buffer.isBlank = false
                // After a dropped frame the owner's idea of what is on screen is that frame's: damage all.
                prepared = PreparedFrame(buffer: buffer, scaling: scaling, size: size,
                                         damage: droppedFrame ? nil : damage)
                droppedFrame = false
                drawnScale = scaling.drawing
                lastDrawn = buffer
            case .dropAndWait:
                // Changed again before the compositor answered: draw once, when it has.
                prepared = nil
                droppedFrame = true
                return
            }
        }
        guard configured, let frame = prepared else { return }
        prepared = nil
        present(frame)
    }

    /// Attaches and commits a drawn frame, with its size (the surface has been configured).
    private func present(_ frame: PreparedFrame) {
        let (buffer, scaling, size) = (frame.buffer, frame.scaling, frame.size)
        let damage = frame.damage
        // Applied with this commit, with the buffer of that size: no configure is awaited.
        if sizeSent.map({ $0 != size }) ?? true { sendSize(size) }
        // Sent only when they change: a request less per frame (wl_surface and wp_viewport keep them).
        if committedScale != scaling.bufferScale {
            surface.setBufferScale(scale: scaling.bufferScale)
            committedScale = scaling.bufferScale
        }
        if let viewport, let destination = scaling.destination(logical: size),
           committedDestination.map({ $0 != destination }) ?? true {
            viewport.setDestination(width: destination.width, height: destination.height)
            committedDestination = destination
        }
        surface.attach(buffer: buffer.attach(), x: 0, y: 0)
        if let damage {
            if let rect = scaling.damage(damage.rect, logical: size) {
                surface.damageBuffer(x: Int32(rect.x), y: Int32(rect.y), width: Int32(rect.width), height: Int32(rect.height))
            }
        } else {
            surface.damageBuffer(x: 0, y: 0, width: Int32.max, height: Int32.max)
        }
        let now = MonotonicClock.nanoseconds()
        defer {
            lastCommit = now
            surface.commit()
        }
        guard asksFrame(lastCommit.map { now - $0 }) else { return }
        let callback = surface.frame()
        callback.onEvent = { [unowned self] event in
            // The owner may drop this surface from onFrame: stay alive until the handler returns.
            withExtendedLifetime(self) {
                if case .done = event {
                    self.frameCallback = nil
                    self.frameAskedAt = nil
                    self.onFrame()
                    self.drawIfReady()
                    if self.frameCallback == nil && !self.needsDraw && self.prepared == nil && self.settles { self.settle() }
                }
            }
        }
        frameCallback = callback
        frameAskedAt = Instant(milliseconds: now / 1_000_000)
    }

    /// Whether a commit asks for a frame callback, given the nanoseconds since the last commit (nil:
    /// none yet). Toast stacks always ask; the HUD as `HudFramePacing` says.
    var asksFrame: (_ sinceLastCommit: Int64?) -> Bool = { _ in true }
    /// When the last buffer was committed (monotonic nanoseconds).
    private var lastCommit: Int64?

    /// Called after each frame the compositor showed; the owner may mark the next animation step.
    var onFrame: () -> Void = {}
    /// Called when a frame was shown and nothing more is to be drawn: the surface keeps its last buffer only.
    var onSettled: () -> Void = {}
    /// Whether the surface lets its spare buffer go (and says so with `onSettled`) when it stops changing.
    /// Not for the HUD: its values come in streams and its spinner turns a step at a time, each a
    /// frame that settles, and a fresh buffer for each cost a value 0.3 ms and the spinner a third more CPU.
    var settles = true

    /// The content stopped changing: the spare buffer goes (the next change makes one again).
    private func settle() {
        pool.releaseSpares(keeping: lastDrawn)
        onSettled()
    }

    private func handle(_ event: ZwlrLayerSurfaceV1.Event) {
        switch event {
        case .configure(let serial, let width, let height):
            layerSurface.ackConfigure(serial: serial)
            configured = true
            onConfigure(Int(width), Int(height))
            drawIfReady()
        case .closed:
            onClosed()
        }
    }

    private func handle(_ event: WlSurface.Event) {
        switch event {
        case .enter(let output):
            if let output { entered.append(output) }
            onOutputsChanged()
        case .leave(let output):
            entered.removeAll { $0 === output }
            onOutputsChanged()
        }
    }
}
