import ToastRender
import Wayland

/// One pass-through overlay: a zwlr_layer_surface_v1 on the overlay layer with an empty input region
/// and no keyboard interactivity, sized to its content. This is the Wayland form of the iOS cover
/// window whose hitTest returns nil: it is drawn above everything, fullscreen windows included, and
/// every click and key goes to the window below.
///
/// Drawing is pull-based: `setNeedsDraw` marks it dirty, and the surface asks its owner to draw when
/// the compositor is ready (after the first configure, then paced by frame callbacks). Nothing is
/// requested from the compositor while nothing changes, so an idle surface costs no wakeups.
final class OverlaySurface {
    /// A rectangle that changed, in buffer pixels.
    struct Damage {
        var x, y, width, height: Int32

        init(_ rect: Rect) {
            (x, y, width, height) = (Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        }
    }

    /// Draws the content into `buffer` at `scale`; returns what changed (nil: the whole buffer).
    typealias Draw = (_ buffer: ShmBuffer, _ scale: Int) -> Damage?

    private let surface: WlSurface
    private let compositor: WlCompositor
    /// The input region last set, in surface-local logical pixels (empty: all clicks pass through).
    private var inputRegion: [Rect] = []
    private let layerSurface: ZwlrLayerSurfaceV1
    private let shm: WlShm
    private var pool = BufferPool()
    private var configured = false
    private var frameCallback: WlCallback?
    /// The buffer scale last sent (nil before the first buffer).
    private var committedScale: Int?
    private var needsDraw = false
    /// The size last sent with set_size; nil before the first commit.
    private var requestedSize: (width: Int, height: Int)?
    private(set) var entered: [WlOutput] = []

    /// The output this surface was created for (nil: the compositor's choice).
    let output: Output?
    /// Logical size of the content.
    private(set) var size: (width: Int, height: Int)
    /// Buffer scale used for drawing; follows the outputs the surface is on.
    var scale: Int
    /// Called when the surface wants pixels.
    var draw: Draw
    /// The compositor closed the surface (its output went away): the owner drops it and makes a new one.
    var onClosed: () -> Void = {}
    /// The set of outputs the surface is on changed (the owner updates the scale).
    var onOutputsChanged: () -> Void = {}

    init(wayland: WaylandConnection, output: Output?, placement: Placement, scale: Int, draw: @escaping Draw) {
        guard let compositor = wayland.compositor, let layerShell = wayland.layerShell, let shm = wayland.shm else {
            preconditionFailure("WaylandConnection checks these globals at connect")
        }
        self.shm = shm
        self.compositor = compositor
        self.output = output
        self.size = (1, 1)
        self.scale = scale
        self.draw = draw
        surface = compositor.createSurface()
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
        let margins = placement.margins
        layerSurface.setAnchor(anchor: placement.anchor.edges)
        layerSurface.setMargin(top: Int32(margins.top), right: Int32(margins.right),
                               bottom: Int32(margins.bottom), left: Int32(margins.left))
        // Handlers may lead the owner to drop this surface (onClosed): stay alive until they return.
        layerSurface.onEvent = { [unowned self] event in withExtendedLifetime(self) { self.handle(event) } }
        surface.onEvent = { [unowned self] event in withExtendedLifetime(self) { self.handle(event) } }
    }

    deinit {
        frameCallback = nil  // dropping it destroys the proxy: no `done` reaches a freed surface
        layerSurface.destroy()
        surface.destroy()
    }

    /// Content changed: resize if needed and draw at the next opportunity.
    func setNeedsDraw(size newSize: (width: Int, height: Int)) {
        needsDraw = true
        size = newSize
        if requestedSize.map({ $0 != newSize }) ?? true {
            // The first commit (no buffer) asks for the first configure; a new size takes effect with
            // a configure too. Draw when it arrives.
            requestedSize = newSize
            layerSurface.setSize(width: UInt32(newSize.width), height: UInt32(newSize.height))
            configured = false
            surface.commit()
            return
        }
        drawIfReady()
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

    /// Whether `proxy` is this overlay's wl_surface (pointer events name the surface they are for).
    func owns(_ proxy: WlSurface?) -> Bool { proxy === surface }

    /// The buffer drawn last: what the compositor shows or is about to. Its pixels may be read (not
    /// written) while the compositor holds it, e.g. to copy what the next frame shares with it.
    private(set) var lastDrawn: ShmBuffer?

    /// Whether a frame callback is outstanding (the daemon is animating this surface).
    var isWaitingForFrame: Bool { frameCallback != nil }

    private func drawIfReady() {
        guard needsDraw, configured, frameCallback == nil else { return }
        let width = size.width * scale, height = size.height * scale
        guard let buffer = pool.next(shm: shm, width: width, height: height) else {
            return  // out of memory: keep the last frame, try again on the next change
        }
        needsDraw = false
        let damage = draw(buffer, scale)
        lastDrawn = buffer
        // Sent only when it changes: one request less per frame (wl_surface keeps it across commits).
        if committedScale != scale {
            surface.setBufferScale(scale: Int32(scale))
            committedScale = scale
        }
        surface.attach(buffer: buffer.attach(), x: 0, y: 0)
        if let damage {
            surface.damageBuffer(x: damage.x, y: damage.y, width: damage.width, height: damage.height)
        } else {
            surface.damageBuffer(x: 0, y: 0, width: Int32.max, height: Int32.max)
        }
        let callback = surface.frame()
        callback.onEvent = { [unowned self] event in
            // The owner may drop this surface from onFrame: stay alive until the handler returns.
            withExtendedLifetime(self) {
                if case .done = event {
                    self.frameCallback = nil
                    self.onFrame()
                    self.drawIfReady()
                }
            }
        }
        frameCallback = callback
        surface.commit()
    }

    /// Called after each frame the compositor showed; the owner may mark the next animation step.
    var onFrame: () -> Void = {}

    private func handle(_ event: ZwlrLayerSurfaceV1.Event) {
        switch event {
        case .configure(let serial, _, _):
            layerSurface.ackConfigure(serial: serial)
            configured = true
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
