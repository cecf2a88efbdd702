import ToastConfig
import ToastCore
import ToastRender
import ToastVocabulary

/// What a toast stack buffer holds: its size and each toast as drawn. Two frames tell what changed
/// between them, so a frame that differs little from what a buffer holds repairs only that.
package struct ToastStackFrame: Hashable {
    /// One toast as drawn into a buffer.
    package struct DrawnToast: Hashable {
        package var id: NotificationID
        package var view: ToastView
        package var opacity: Double
        /// Where it was drawn, in buffer pixels (after sliding).
        package var rect: Rect
    }

    /// In buffer pixels.
    package var width: Int
    package var height: Int
    /// Top to bottom as drawn (newest nearest the anchored edge).
    package var toasts: [DrawnToast]
    /// The count on the "+N more" pill; 0 for no pill.
    package var more: Int
    /// Where the pill was drawn, in buffer pixels.
    package var moreRect: Rect?
    /// How the pill was drawn (`[hidden]` sections); nil: its own look.
    package var moreLook: MorePillLook? = nil
    /// How far each toast's shadow reaches past its rect, in buffer pixels: what changes with a toast.
    package var bleed = 0
    /// What logical pixels were multiplied by: frames drawn at two scales share no pixels, even when
    /// their buffers happen to be the same size.
    package var scale: PixelScale = 1

    /// All of the buffer, in buffer pixels.
    package var whole: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The bounding box of what differs between two frames (empty when nothing does); nil when they
    /// cannot be compared (another size, another "+N more"): all of it changed.
    package static func changedArea(from old: ToastStackFrame, to new: ToastStackFrame) -> Rect? {
        guard old.width == new.width, old.height == new.height, old.more == new.more, old.bleed == new.bleed,
              old.moreLook == new.moreLook, old.scale == new.scale else { return nil }
        let changed = new.toasts.filter { !old.toasts.contains($0) } + old.toasts.filter { !new.toasts.contains($0) }
        guard let first = changed.first?.rect else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let area = changed.dropFirst().reduce(first) { $0.union($1.rect) }
        guard new.bleed > 0 else { return area }
        return area.inset(by: -new.bleed).intersection(new.whole)
    }

    /// What to draw again, in buffer pixels, over a buffer holding `old` when the two frames differ only
    /// in toasts replaced in place and in the "+N more" pill: each such toast's own rect (not its shadow's
    /// reach: the one it replaced cast the same), and the pill's rects old and new; nil when anything else
    /// differs. In a burst every frame is such a frame (the newest toasts, all of one size, where the
    /// last frame's were, and a new count on the pill), which `changedArea` took for a whole repaint.
    ///
    /// A toast is replaced in place when the one drawn there had the same rect, neither is fading
    /// (opacity 1) and `castsTheSame` says their shadows and corners are alike: then no pixel outside
    /// the rect changes.
    package static func replacedInPlace(from old: ToastStackFrame, to new: ToastStackFrame,
                                castsTheSame: (DrawnToast, DrawnToast) -> Bool) -> [Rect]? {
        guard old.width == new.width, old.height == new.height, old.bleed == new.bleed, old.scale == new.scale,
              old.toasts.count == new.toasts.count, (old.moreRect == nil) == (new.moreRect == nil) else { return nil }
        var rects: [Rect] = []
        for (was, now) in zip(old.toasts, new.toasts) where was != now {
            guard was.rect == now.rect, was.opacity >= 1, now.opacity >= 1, castsTheSame(was, now) else { return nil }
            rects.append(now.rect)
        }
        if let was = old.moreRect, let now = new.moreRect, was != now || old.more != new.more || old.moreLook != new.moreLook {
            let pill = was.union(now)
            // The pill is drawn whole, never clipped: no toast's repair may reach into it.
            guard !rects.contains(where: { $0.intersects(pill) }) else { return nil }
            rects.append(pill)
        }
        return rects
    }
}

/// Draws a scene's toast stack into a buffer: arranges the stack for the anchor, keeps each toast's
/// picture, and repairs only what differs from what the buffer held. No surface and no clock: the
/// scene, the canvas and the buffer's previous frame come in, the new frame goes out.
package struct ToastStackPainter {
    /// How far (logical pixels) a toast slides while it fades in or out.
    package static let slideDistance = 32

    package let renderer: ToastRenderer
    /// The corner or edge the stack is pinned to: the newest toast goes nearest it, and entering and
    /// leaving toasts slide from (and to) its side.
    package let anchor: ScreenAnchor

    package init(renderer: ToastRenderer, anchor: ScreenAnchor) {
        self.renderer = renderer
        self.anchor = anchor
    }

    /// The room left around the stack for the toasts' shadows, in logical pixels on every side.
    package var bleed: Int { renderer.style.shadowExtent }

    /// The surface's logical size for `arrangement`: the stack with room for its shadows.
    package func surfaceSize(of arrangement: StackLayout.Arrangement) -> Size {
        Size(width: arrangement.size.width + 2 * bleed, height: arrangement.size.height + 2 * bleed)
    }

    /// `rect` of the arrangement where it is on the surface: oriented for the anchor, moved in past the
    /// shadows' room.
    private func placed(_ rect: Rect, in arrangement: StackLayout.Arrangement) -> Rect {
        let r = anchor.oriented(rect, in: arrangement.size)
        return Rect(x: r.x + bleed, y: r.y + bleed, width: r.width, height: r.height)
    }

    /// A toast rendered once at one scale. Fades and slides only composite it, so an animation frame
    /// costs a blit per toast, not a Pango layout and a redraw.
    private struct Picture {
        var view: ToastView
        var scale: PixelScale
        var size: Size
        /// Rendered at the first draw: a toast measured but pushed under "+N more" before any frame
        /// showed it is never rendered.
        var image: Canvas?
    }

    /// Pictures of the toasts in the scene, by id; pruned to the scene at each paint.
    private var pictures: [NotificationID: Picture] = [:]

    /// Pictures of toasts that left the stack, kept until the stack settles to be drawn over by the next
    /// toasts of their size (`ToastRenderer.image(of:scale:reusing:)`): in a burst each frame's toasts
    /// replace the last frame's, and fresh memory for each picture was most of a burst's page faults.
    private var sparePictures: [Canvas] = []

    /// Frees every picture (the stack is empty: no memory held while idle).
    package mutating func forgetPictures() {
        pictures = [:]
        sparePictures = []
    }

    /// How many toasts of the scene have their picture rendered, and how many spare pictures are kept.
    package var pictureCounts: (rendered: Int, spare: Int) {
        (pictures.values.filter { $0.image != nil }.count, sparePictures.count)
    }

    /// The stack stopped changing: the pictures kept for reuse go, and the renderer's boxes (both serve
    /// toasts arriving faster than frames, and none is arriving now). The shown toasts keep their
    /// pictures and shadows, which their close fades blend.
    package mutating func settled() {
        sparePictures = []
        renderer.releaseBoxes()
    }

    /// Offers the renderer its pictures' memory for the next toast's picture (`ToastRenderer.keepPictureMemory`
    /// keeps the largest it may): the stack is going away.
    package func handOverPictureMemory() {
        renderer.keepPictureMemory((pictures.values.compactMap(\.image) + sparePictures).compactMap(\.memory))
    }

    /// A spare picture of `size` (logical) at `scale`, taken out of the spares; nil when none has it.
    private mutating func takeSparePicture(size: Size, scale: PixelScale) -> Canvas? {
        let (width, height) = (max(1, size.width * scale), max(1, size.height * scale))
        guard let i = sparePictures.firstIndex(where: { $0.width == width && $0.height == height }) else { return nil }
        return sparePictures.remove(at: i)
    }

    private mutating func picture(of toast: Scene.Toast, scale: PixelScale) -> Picture {
        if let cached = pictures[toast.id], cached.view == toast.view, cached.scale == scale { return cached }
        let entry = Picture(view: toast.view, scale: scale, size: renderer.measure(toast.view, scale: scale))
        pictures[toast.id] = entry
        return entry
    }

    /// The stack's layout (logical pixels, before orienting for the anchor) from the cached sizes: only
    /// new or changed toasts are measured.
    package mutating func arrangement(of scene: Scene, scale: PixelScale) -> StackLayout.Arrangement {
        let hidden = scene.morePill.invisible ? 0 : scene.hiddenCount
        return StackLayout.arrange(sizes: scene.toasts.map { picture(of: $0, scale: scale).size },
                                   hiddenCount: hidden, gap: renderer.style.gap,
                                   moreSize: hidden > 0 ? renderer.measureMorePill(count: hidden, scale: scale,
                                                                                   look: pillLook(of: scene)) : nil)
    }

    /// How `scene`'s pill is drawn: its `[hidden]` sections' look, for its counts.
    private func pillLook(of scene: Scene) -> MorePillLook? {
        scene.morePill.pillLook(hidden: scene.hiddenCount, total: scene.totalCount)
    }

    /// The action pills of the stack laid out as `arrangement`, in surface-local logical pixels.
    package func actionButtons(of scene: Scene, in arrangement: StackLayout.Arrangement, scale: PixelScale) -> [ActionButton] {
        ActionButtons.place(zip(scene.toasts, arrangement.rects).map { toast, rect in
            (toast.id, placed(rect, in: arrangement),
             toast.view.actions.isEmpty ? [] : renderer.actionRects(toast.view, scale: scale))
        })
    }

    /// The toasts of the stack laid out as `arrangement`, in surface-local logical pixels.
    package func bodies(of scene: Scene, in arrangement: StackLayout.Arrangement) -> [ToastBody] {
        zip(scene.toasts, arrangement.rects).map { toast, rect in
            ToastBody(id: toast.id, rect: placed(rect, in: arrangement))
        }
    }

    /// What `paint` did: the frame the canvas now holds and the part of it that was redrawn.
    package struct Painting {
        package var frame: ToastStackFrame
        /// In buffer pixels; empty when the canvas already held this frame.
        package var repaired: Rect
    }

    /// A buffer and the frame it holds.
    package typealias HeldFrame = (canvas: Canvas, frame: ToastStackFrame)

    /// Draws the stack of `scene` into `canvas` (a buffer of the arrangement's size at `scale`), which
    /// holds `previous` (nil: unknown, e.g. a fresh buffer). Only what differs from `previous` is
    /// redrawn: during a fade, that is the one toast fading, not the whole stack. `latest` is the buffer
    /// drawn last, when another one: with buffers taking turns, it holds a newer frame than `canvas`,
    /// so more of its rows can be copied when toasts arrive or leave faster than frames go by. `blank`:
    /// every pixel of `canvas` is zero (a fresh buffer), so what is drawn whole needs no clearing first.
    package mutating func paint(_ scene: Scene, scale: PixelScale, into canvas: Canvas, over previous: ToastStackFrame?,
                        latest: HeldFrame? = nil, blank: Bool = false) -> Painting {
        let arrangement = arrangement(of: scene, scale: scale)
        // Forget toasts that left the scene, first: their pictures may be drawn over by this frame's new ones.
        let shown = Set(scene.toasts.map(\.id))
        for (id, left) in pictures where !shown.contains(id) {
            if let image = left.image, sparePictures.count < max(1, renderer.style.maxVisible) {
                sparePictures.append(image)
            }
        }
        pictures = pictures.filter { shown.contains($0.key) }
        var drawn: [ToastStackFrame.DrawnToast] = []
        var images: [Canvas] = []
        var shadows: [ShadowMask?] = []
        for (toast, rect) in zip(scene.toasts, arrangement.rects) {
            let rect = placed(rect, in: arrangement)
            var entry = picture(of: toast, scale: scale)
            let image = entry.image ?? {
                let image = renderer.image(of: toast.view, scale: scale,
                                           reusing: takeSparePicture(size: entry.size, scale: scale))
                entry.image = image
                pictures[toast.id] = entry
                return image
            }()
            let slide = Int((toast.slide * Double(Self.slideDistance * scale)).rounded())
            let dx = switch anchor.column {
            case .left: -slide
            case .center: 0
            case .right: slide
            }
            let pixels = Rect(x: rect.x * scale + dx, y: rect.y * scale, width: image.width, height: image.height)
            drawn.append(.init(id: toast.id, view: toast.view, opacity: toast.opacity, rect: pixels))
            images.append(image)
            shadows.append(renderer.shadowImage(of: toast.view, size: entry.size, scale: scale))
        }
        let more = arrangement.moreRect.map { placed($0, in: arrangement) }
        let frame = ToastStackFrame(width: canvas.width, height: canvas.height, toasts: drawn,
                                    more: arrangement.hiddenCount,
                                    // Every pixel the pill touches: at a fractional scale its edges fall inside pixels.
                                    moreRect: more.map { scale.pixelsCovering($0) },
                                    moreLook: pillLook(of: scene), bleed: bleed * scale, scale: scale)
        let whole = frame.whole
        let stack = DrawnStack(frame: frame, images: images, shadows: shadows, morePill: more)

        // The buffer may be a frame or two old. When its toasts all moved together (one arrived or
        // left), their rows are moved and only the rows around what changed are drawn again.
        let reusable = latest.flatMap { held in StackReuse.plan(from: held.frame, to: frame).map { (held.canvas, $0) } }
            ?? previous.flatMap { held in StackReuse.plan(from: held, to: frame).map { (canvas, $0) } }
        if let (source, reuse) = reusable {
            canvas.copyRows(reuse.rows, by: reuse.dy, from: source)
            for band in reuse.repairs {
                repair(Rect(x: 0, y: band.lowerBound, width: whole.width, height: band.count), of: stack, scale: scale,
                       into: canvas)
            }
            let touched = StackReuse.merge(reuse.repairs + [reuse.rows.lowerBound + reuse.dy..<reuse.rows.upperBound + reuse.dy])
            let rows = (touched.first?.lowerBound ?? 0)..<(touched.last?.upperBound ?? 0)
            return Painting(frame: frame, repaired: Rect(x: 0, y: rows.lowerBound, width: whole.width, height: rows.count)
                .intersection(whole))
        }
        // Toasts replaced where others were (a burst's frames): only their rects and the pill, over what
        // this buffer holds, or else over a copy of what the latest one holds.
        let inPlace = previous.flatMap { held in ToastStackFrame.replacedInPlace(from: held, to: frame, castsTheSame: castsTheSame) }
            ?? latest.flatMap { held in
                guard held.canvas.stride == canvas.stride else { return nil }  // what copyRows asks, besides the size
                return ToastStackFrame.replacedInPlace(from: held.frame, to: frame, castsTheSame: castsTheSame).map { rects in
                    canvas.copyRows(0..<canvas.height, by: 0, from: held.canvas)
                    return rects
                }
            }
        if let inPlace {
            for rect in inPlace { self.repair(rect, of: stack, scale: scale, into: canvas) }
            return Painting(frame: frame, repaired: inPlace.reduce(Rect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) })
        }
        // Otherwise, repair everything that differs from what it holds.
        var repair = previous.flatMap { ToastStackFrame.changedArea(from: $0, to: frame) } ?? whole
        if let pill = frame.moreRect, pill.intersects(repair) {
            repair = whole  // the pill is drawn whole, never clipped: repaint everything around it
        }
        self.repair(repair, of: stack, scale: scale, into: canvas, clearing: !blank)
        return Painting(frame: frame, repaired: repair)
    }

    /// A frame with what it is drawn from.
    private struct DrawnStack {
        var frame: ToastStackFrame
        var images: [Canvas]
        var shadows: [ShadowMask?]
        /// The "+N more" pill's place, in logical pixels.
        var morePill: Rect?
    }

    /// Clears `repair` (buffer pixels; not when `clearing` is false: it is clear already) and draws into
    /// it all of `stack` that reaches it. The pill is drawn only when `repair` holds all of it.
    private func repair(_ repair: Rect, of stack: DrawnStack, scale: PixelScale, into canvas: Canvas,
                        clearing: Bool = true) {
        let drawn = stack.frame.toasts, images = stack.images, shadows = stack.shadows
        if repair.width > 0 && repair.height > 0 {
            let reach = stack.frame.bleed
            if clearing {
                // Not where an opaque toast is copied below, whatever is there: a stack's toasts are most
                // of its area, and clearing them first wrote those bytes twice.
                let copied = zip(drawn, images).filter { $0.0.opacity >= 1 && $0.0.rect.intersects(repair) }.map { toast, image in
                    reach > 0 ? Canvas.interior(of: image, atPixelX: toast.rect.x, y: toast.rect.y,
                                                blendingOnly: blendEdge(of: toast.view, reach: reach, scale: scale))
                        : toast.rect
                }
                for part in repair.subtracting(copied) { canvas.clear(part, scale: 1) }
            }
            // Shadows first, all of them: a toast's shadow reaches under its neighbours' edges.
            for (toast, shadow) in zip(drawn, shadows) where toast.rect.inset(by: -reach).intersects(repair) {
                guard let shadow else { continue }
                // Held to `reach` around the toast, which is what the frames count as its shadow's: at a
                // fractional scale the shadow's picture, rounded as one size, may be a pixel larger.
                let clip = repair.intersection(toast.rect.inset(by: -reach))
                if toast.opacity >= 1 {
                    // Knocked out under its own box (inside the rounded corners): nothing to blend there. When
                    // the box's straight edges fall on whole pixels (an integer scale, the shadow `reach`
                    // around the toast), only its corners hold shadow inside it; else a band as deep as
                    // the corners is blended all along.
                    let corners = cornerPixels(of: toast.view, scale: scale)
                    let wholePixels = scale.isInteger && shadow.width == toast.rect.width + 2 * reach
                        && shadow.height == toast.rect.height + 2 * reach
                    canvas.composite(shadow, atPixelX: toast.rect.x - reach, y: toast.rect.y - reach, clip: clip,
                                     blendingOnly: wholePixels ? reach : reach + corners, corners: wholePixels ? corners : 0)
                } else {
                    canvas.composite(shadow, atPixelX: toast.rect.x - reach, y: toast.rect.y - reach,
                                     opacity: toast.opacity, clip: clip)
                }
            }
            for (toast, image) in zip(drawn, images) where toast.rect.intersects(repair) {
                // Toasts never overlap and their area was just cleared: an opaque one is a plain copy,
                // but for its edge, where its rounded corners and a neighbour's shadow may meet.
                if toast.opacity >= 1 && reach > 0 {
                    canvas.composite(image, atPixelX: toast.rect.x, y: toast.rect.y, clip: repair,
                                     blendingOnly: blendEdge(of: toast.view, reach: reach, scale: scale))
                } else {
                    canvas.composite(image, atPixelX: toast.rect.x, y: toast.rect.y, opacity: toast.opacity, clip: repair,
                                     replacing: reach == 0)
                }
            }
            if let more = stack.morePill, let pill = stack.frame.moreRect, repair.intersection(pill) == pill {
                renderer.drawMorePill(count: stack.frame.more, in: canvas, at: Point(x: more.x, y: more.y), scale: scale,
                                      look: stack.frame.moreLook)
            }
        }
    }

    /// Whether two toasts drawn at the same rect cast the same shadow and have the same corners: what
    /// is drawn outside a toast's rect (and under its rounded corners) is then the same for both.
    private func castsTheSame(_ a: ToastStackFrame.DrawnToast, _ b: ToastStackFrame.DrawnToast) -> Bool {
        let (styleA, styleB) = (a.view.style ?? renderer.style, b.view.style ?? renderer.style)
        return styleA.shadow == styleB.shadow && styleA.cornerRadius == styleB.cornerRadius
    }

    /// How wide a band along an opaque toast's border is blended over what is under it (its neighbours'
    /// shadows reach `reach` in, its rounded corners let them show): inside it the toast is copied.
    private func blendEdge(of view: ToastView, reach: Int, scale: PixelScale) -> Int {
        max(reach, cornerPixels(of: view, scale: scale))
    }

    /// The rounded corners of `view`'s box, in buffer pixels (rounded up).
    private func cornerPixels(of view: ToastView, scale: PixelScale) -> Int {
        Int(((view.style ?? renderer.style).cornerRadius * scale.factor).rounded(.up))
    }

    /// What the compositor must be told changed when `frame` replaces `shown`, the frame it shows now
    /// (nil: none, e.g. a new surface); nil when all of it did.
    package static func damage(from shown: ToastStackFrame?, to frame: ToastStackFrame) -> Rect? {
        shown.flatMap { ToastStackFrame.changedArea(from: $0, to: frame) }
    }
}
