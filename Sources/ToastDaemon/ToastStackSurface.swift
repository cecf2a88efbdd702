import ToastConfig
import ToastCore
import ToastRender
import ToastScene
import ToastVocabulary

/// Which toasts of a stack take pointer clicks (the rest of the surface lets them through).
enum ToastClicks: Equatable {
    /// Every toast, bodies and action pills (`clickable-actions`).
    case all
    /// The bodies of these toasts (a rule binds `on-button-*` for them).
    case only(Set<NotificationID>)
}

/// One toast stack on one output: its layer surface, the painter that keeps its toasts' pictures at
/// that output's scale, the frame the compositor shows, and where its toasts that take clicks
/// are (and their pills with `clickable-actions`). `Screen` keeps one per stack and output (`output = all` makes several of the
/// same stack; a click on any copy acts once, as it reaches only the surface under the pointer).
final class ToastStackSurface {
    let surface: OverlaySurface
    private var painter: ToastStackPainter
    /// The stack's toasts as last laid out.
    private(set) var scene = Scene()
    /// The toasts changed while the surface waited for a frame callback: updated at that frame.
    var isPending = false
    /// What the stack was last laid out for.
    private var laidOut: (scene: Scene, clicks: ToastClicks, scale: PixelScale)?

    /// Whether toast `id` is drawn on this surface now.
    func shows(_ id: NotificationID) -> Bool { laidOut?.scene.toasts.contains { $0.id == id } ?? false }
    /// The last frame committed: what the compositor shows.
    private var frameOnScreen: ToastStackFrame?
    /// The pills on the surface now (empty unless clickable).
    private(set) var actionButtons: [ActionButton] = []
    /// The toasts on the surface now (empty unless clickable).
    private(set) var bodies: [ToastBody] = []
    /// Toasts were drawn into a frame (their timeouts start), as the scene has them (with their groups).
    var onDrawn: ([Scene.Toast]) -> Void = { _ in }

    init(surface: OverlaySurface, renderer: ToastRenderer, anchor: ScreenAnchor) {
        self.surface = surface
        painter = ToastStackPainter(renderer: renderer, anchor: anchor)
    }

    /// The stack is gone (its toasts all left): the next toast's picture is drawn into its last one's memory.
    deinit { painter.handOverPictureMemory() }

    /// Lays `scene` (this stack's toasts) out for the next frame. While the compositor has not shown the
    /// last frame, the next draw is at least that frame away: lay the stack out then (in a burst,
    /// toasts pushed under "+N more" before any frame shows them are never measured).
    func update(_ scene: Scene, clicks: ToastClicks) {
        // A change elsewhere (a HUD value, another stack) leaves this stack as it is: no layout, no
        // commit. Not while anything animates: frames drive animations, and a frame skipped asks for no next one.
        if !isPending, !scene.isAnimating, let laidOut, laidOut.scene == scene, laidOut.clicks == clicks,
           laidOut.scale == surface.scale {
            return
        }
        if surface.isWaitingForFrame {
            isPending = true
            self.scene = scene
            return
        }
        isPending = false
        self.scene = scene
        let arrangement = painter.arrangement(of: scene, scale: surface.scale)
        actionButtons = clicks == .all ? painter.actionButtons(of: scene, in: arrangement, scale: surface.scale) : []
        bodies = switch clicks {
        case .all: painter.bodies(of: scene, in: arrangement)
        case .only(let ids) where ids.isEmpty: []
        case .only(let ids): painter.bodies(of: scene, in: arrangement).filter { ids.contains($0.id) }
        }
        surface.setInputRegion(bodies.map(\.rect))
        let size = painter.surfaceSize(of: arrangement)
        laidOut = (scene, clicks, surface.scale)
        surface.setNeedsDraw(size: (size.width, size.height))
    }

    /// The stack stopped changing: what served its changes goes (`ToastStackPainter.settled`), before
    /// the heap is trimmed.
    func settled() { painter.settled() }

    func draw(into buffer: ShmBuffer, scale: PixelScale) -> OverlaySurface.Damage? {
        let canvas = Canvas(data: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
        // The buffer drawn last, if another of this size: its rows may be copied.
        let latest = surface.lastDrawn.flatMap { last -> ToastStackPainter.HeldFrame? in
            guard last !== buffer, last.width == buffer.width, last.height == buffer.height,
                  let held = last.content?.toastStack else { return nil }
            return (Canvas(data: last.data, width: last.width, height: last.height, stride: last.stride), held)
        }
        let frame = painter.paint(scene, scale: scale, into: canvas, over: buffer.content?.toastStack,
                                  latest: latest, blank: buffer.isBlank).frame
        buffer.content = .toastStack(frame)
        // The frame's toasts are the scene's, in its order: the scene says what each stands for.
        onDrawn(scene.toasts)
        // The compositor is told only what differs from the frame it shows now.
        defer { frameOnScreen = frame }
        return ToastStackPainter.damage(from: frameOnScreen, to: frame).map(OverlaySurface.Damage.init)
    }
}
