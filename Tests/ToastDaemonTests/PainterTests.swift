@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastCore
import ToastRender
import XCTest
import ToastVocabulary

/// A canvas over memory the test owns, so a test can plant a marker pixel and see afterwards whether a
/// painter touched it: what a partial repaint leaves alone keeps the marker.
private final class MarkedCanvas {
    let canvas: Canvas
    private let memory: UnsafeMutableRawPointer
    private static let marker: UInt32 = 0xff12_3456

    init(size: Size, scale: PixelScale) {
        let width = size.width * scale, height = size.height * scale
        memory = .allocate(byteCount: width * height * 4, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: width * height * 4)
        canvas = Canvas(data: memory, width: width, height: height, stride: width * 4)
    }

    deinit { memory.deallocate() }

    /// Plants the marker at buffer pixel (`x`, `y`).
    func mark(_ x: Int, _ y: Int) {
        memory.storeBytes(of: Self.marker, toByteOffset: (y * canvas.width + x) * 4, as: UInt32.self)
    }

    /// Whether both hold the same pixels.
    func hasSamePixels(as other: MarkedCanvas) -> Bool {
        canvas.width == other.canvas.width && canvas.height == other.canvas.height
            && memcmp(memory, other.memory, canvas.width * canvas.height * 4) == 0
    }

    /// Whether the marker is still at buffer pixel (`x`, `y`).
    func isMarked(_ x: Int, _ y: Int) -> Bool {
        canvas.rawPixel(x: x, y: y) == Self.marker
    }
}

private extension Rect {
    var center: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
    /// Every buffer pixel the rect touches at `scale` (what damage must cover).
    func scaled(by scale: PixelScale) -> Rect { scale.pixelsCovering(self) }
}

private extension ToastStackPainter {
    /// A first frame of `scene` by a painter holding no pictures yet.
    func paintingFresh(_ scene: Scene, scale: PixelScale = 1, into canvas: Canvas, blank: Bool) -> ToastStackFrame {
        var painter = self
        return painter.paint(scene, scale: scale, into: canvas, over: nil, blank: blank).frame
    }
}

/// `ToastStackPainter`: which part of a buffer a frame repairs, and what the compositor is told.
final class ToastStackPainterTests: XCTestCase {
    private let renderer = ToastRenderer()

    private func toast(_ id: NotificationID, _ summary: String) -> Scene.Toast {
        Scene.Toast(id: id, view: ToastView(summary: summary, body: "Body of \(summary)"), opacity: 1)
    }

    private var stackOfThree: Scene {
        Scene(toasts: [toast(3, "Three"), toast(2, "Two, with a longer summary"), toast(1, "One")])
    }

    func testAFirstFrameIsAFullRepaint() {
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        let scene = stackOfThree
        let target = MarkedCanvas(size: painter.arrangement(of: scene, scale: 1).size, scale: 1)
        target.mark(0, 0)

        let painting = painter.paint(scene, scale: 1, into: target.canvas, over: nil)
        XCTAssertEqual(painting.repaired, Rect(x: 0, y: 0, width: target.canvas.width, height: target.canvas.height))
        XCTAssertFalse(target.isMarked(0, 0), "an unknown buffer is cleared whole")
        XCTAssertNil(ToastStackPainter.damage(from: nil, to: painting.frame), "a new surface is damaged whole")
    }

    func testABlankBufferIsDrawnWithoutClearingAndLooksLikeAClearedOne() throws {
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        let scene = stackOfThree
        let size = painter.surfaceSize(of: painter.arrangement(of: scene, scale: 1))
        let cleared = MarkedCanvas(size: size, scale: 1)
        cleared.mark(0, 0)
        _ = painter.paint(scene, scale: 1, into: cleared.canvas, over: nil)
        let blank = MarkedCanvas(size: size, scale: 1)
        _ = ToastStackPainter(renderer: renderer, anchor: .topRight)
            .paintingFresh(scene, into: blank.canvas, blank: true)
        XCTAssertTrue(blank.hasSamePixels(as: cleared), "a blank buffer drawn without clearing looks the same")

        // A pixel nothing is drawn on keeps what it held: the painter trusted the buffer to be blank.
        let spot = try XCTUnwrap((0..<cleared.canvas.height).lazy.flatMap { y in
            (0..<cleared.canvas.width).lazy.map { (x: $0, y: y) } }.first { cleared.canvas.rawPixel(x: $0.x, y: $0.y) == 0 })
        let trusted = MarkedCanvas(size: size, scale: 1)
        trusted.mark(spot.x, spot.y)
        _ = ToastStackPainter(renderer: renderer, anchor: .topRight)
            .paintingFresh(scene, into: trusted.canvas, blank: true)
        XCTAssertTrue(trusted.isMarked(spot.x, spot.y), "a blank buffer is not cleared again")
        let untrusted = MarkedCanvas(size: size, scale: 1)
        untrusted.mark(spot.x, spot.y)
        _ = ToastStackPainter(renderer: renderer, anchor: .topRight)
            .paintingFresh(scene, into: untrusted.canvas, blank: false)
        XCTAssertFalse(untrusted.isMarked(spot.x, spot.y), "a buffer not known blank is cleared")
    }

    func testARepaintOfABufferHoldingAnythingClearsAllButTheToastsItCopies() {
        for scale: PixelScale in [1, 2] {
            var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
            var scene = stackOfThree
            scene.toasts[1].opacity = 0.6  // blended over what is cleared under it, not copied
            let size = painter.surfaceSize(of: painter.arrangement(of: scene, scale: scale))
            let dirty = MarkedCanvas(size: size, scale: scale)
            for y in 0..<dirty.canvas.height { for x in 0..<dirty.canvas.width { dirty.mark(x, y) } }
            _ = painter.paint(scene, scale: scale, into: dirty.canvas, over: nil)
            let fresh = MarkedCanvas(size: size, scale: scale)
            _ = ToastStackPainter(renderer: renderer, anchor: .topRight).paintingFresh(scene, scale: scale, into: fresh.canvas,
                                                                                        blank: true)
            XCTAssertTrue(dirty.hasSamePixels(as: fresh), "scale \(scale): nothing of what the buffer held shows")
        }
    }

    func testPicturesOfToastsThatLeftAreDrawnOverByTheNextOnes() {
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        let before = stackOfThree
        let after = Scene(toasts: [toast(6, "Six"), toast(5, "Five, with a longer summary"), toast(4, "Four")])
        let size = painter.surfaceSize(of: painter.arrangement(of: before, scale: 1))
        let target = MarkedCanvas(size: size, scale: 1)
        let first = painter.paint(before, scale: 1, into: target.canvas, over: nil)
        XCTAssertEqual(painter.pictureCounts.rendered, 3)
        // Three others of the same sizes replace them (a burst): each is drawn over a picture that left.
        _ = painter.paint(after, scale: 1, into: target.canvas, over: first.frame)
        XCTAssertEqual(painter.pictureCounts.rendered, 3)
        XCTAssertEqual(painter.pictureCounts.spare, 0, "every picture that left was drawn over")
        let fresh = MarkedCanvas(size: size, scale: 1)
        _ = ToastStackPainter(renderer: renderer, anchor: .topRight).paintingFresh(after, into: fresh.canvas, blank: false)
        XCTAssertTrue(target.hasSamePixels(as: fresh), "nothing of the pictures drawn over shows")

        _ = painter.paint(Scene(toasts: [toast(7, "Seven")]), scale: 1, into: target.canvas, over: nil)
        XCTAssertEqual(painter.pictureCounts.spare, 2, "kept (one was drawn over) until the stack settles")
        XCTAssertGreaterThan(renderer.cachedBoxCount, 0)
        painter.settled()
        XCTAssertEqual(painter.pictureCounts.spare, 0)
        XCTAssertEqual(renderer.cachedBoxCount, 0, "the boxes go too; the shown toast keeps its picture")
        XCTAssertEqual(painter.pictureCounts.rendered, 1)
    }

    /// A stack going away hands its largest picture's memory to the renderer, which draws the next
    /// toast's picture into it.
    func testAStackGoingAwayLeavesItsLargestPicturesMemoryForTheNextToast() throws {
        let renderer = ToastRenderer()
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        let scene = stackOfThree
        let target = MarkedCanvas(size: painter.surfaceSize(of: painter.arrangement(of: scene, scale: 1)), scale: 1)
        _ = painter.paint(scene, scale: 1, into: target.canvas, over: nil)
        XCTAssertEqual(renderer.keptPictureByteCount, 0)
        painter.handOverPictureMemory()
        // ARGB32 rows: 4 bytes a pixel, no padding at these widths.
        let largest = scene.toasts.map { renderer.measure($0.view, scale: 1) }.map { $0.width * 4 * $0.height }.max()
        XCTAssertEqual(renderer.keptPictureByteCount, largest, "not the largest picture's memory")
    }

    func testAFadeOfOneToastInAStackOfThreeRepairsAndDamagesThatToastOnly() {
        for scale: PixelScale in [1, 2] {
            var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
            let still = stackOfThree
            let arrangement = painter.arrangement(of: still, scale: scale)
            let target = MarkedCanvas(size: painter.surfaceSize(of: arrangement), scale: scale)
            let first = painter.paint(still, scale: scale, into: target.canvas, over: nil)

            var fading = still
            fading.toasts[1].opacity = 0.5
            let sizes = still.toasts.map { renderer.measure($0.view, scale: scale) }
            // The toast and its shadow, which reaches `bleed` past it (the surface has that much room).
            let bleed = painter.bleed * scale
            XCTAssertGreaterThan(bleed, 0, "the default style has a shadow")
            let middle = StackLayout.arrange(sizes: sizes, hiddenCount: 0, gap: renderer.style.gap, moreSize: nil)
                .rects[1].scaled(by: scale).offsetBy(dx: bleed, dy: bleed).inset(by: -bleed)
                .intersection(Rect(x: 0, y: 0, width: target.canvas.width, height: target.canvas.height))
            let top = first.frame.toasts[0].rect.center, bottom = first.frame.toasts[2].rect.center
            target.mark(top.x, top.y)
            target.mark(bottom.x, bottom.y)
            target.mark(middle.center.x, middle.center.y)

            let second = painter.paint(fading, scale: scale, into: target.canvas, over: first.frame)
            XCTAssertEqual(second.repaired, middle, "at scale \(scale)")
            XCTAssertEqual(ToastStackPainter.damage(from: first.frame, to: second.frame), middle)
            XCTAssertTrue(target.isMarked(top.x, top.y), "the toast above is not redrawn")
            XCTAssertTrue(target.isMarked(bottom.x, bottom.y), "the toast below is not redrawn")
            XCTAssertFalse(target.isMarked(middle.center.x, middle.center.y), "the fading toast is redrawn")
        }
    }

    /// The surface has room for the shadows on every side: the toasts, their pills and the input
    /// region are moved in by it, and the frame says how far shadows reach.
    func testToastsSitInsideTheShadowsRoom() throws {
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        let bleed = painter.bleed
        XCTAssertEqual(bleed, renderer.style.shadowExtent)
        var scene = stackOfThree
        scene.toasts[0].view.actions = ["OK"]
        let arrangement = painter.arrangement(of: scene, scale: 1)
        let surface = painter.surfaceSize(of: arrangement)
        XCTAssertEqual(surface, Size(width: arrangement.size.width + 2 * bleed, height: arrangement.size.height + 2 * bleed))
        let bodies = painter.bodies(of: scene, in: arrangement)
        XCTAssertEqual(bodies.first?.rect.x, bleed)
        XCTAssertEqual(bodies.first?.rect.y, bleed)
        let pill = try XCTUnwrap(painter.actionButtons(of: scene, in: arrangement, scale: 1).first)
        XCTAssertEqual(pill.rect.x, bleed + renderer.actionRects(scene.toasts[0].view, scale: 1)[0].x)
        let target = MarkedCanvas(size: surface, scale: 1)
        let painting = painter.paint(scene, scale: 1, into: target.canvas, over: nil)
        XCTAssertEqual(painting.frame.toasts.first?.rect.origin, Point(x: bleed, y: bleed))
        XCTAssertEqual(painting.frame.bleed, bleed)
        XCTAssertGreaterThan(target.canvas.pixel(x: bleed + 100, y: bleed + painting.frame.toasts[0].rect.height + 2).a, 0,
                             "the shadow is drawn under the first toast")
    }

    func testAFrameLikeTheHeldOneRepairsNothing() {
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        let scene = stackOfThree
        let target = MarkedCanvas(size: painter.arrangement(of: scene, scale: 1).size, scale: 1)
        let first = painter.paint(scene, scale: 1, into: target.canvas, over: nil)
        let again = painter.paint(scene, scale: 1, into: target.canvas, over: first.frame)
        XCTAssertTrue(again.repaired.isEmpty)
        XCTAssertEqual(ToastStackPainter.damage(from: first.frame, to: again.frame)?.isEmpty, true)
    }

    func testAChangedHiddenCountRedrawsThePillsRowsOnly() throws {
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        var scene = Scene(toasts: [toast(9, "Nine"), toast(8, "Eight")], hiddenCount: 3)
        let size = painter.surfaceSize(of: painter.arrangement(of: scene, scale: 1))
        let target = MarkedCanvas(size: size, scale: 1)
        let first = painter.paint(scene, scale: 1, into: target.canvas, over: nil)

        scene.hiddenCount = 4
        XCTAssertEqual(painter.surfaceSize(of: painter.arrangement(of: scene, scale: 1)), size, "the same buffer: only the count differs")
        let top = first.frame.toasts[0].rect.center
        target.mark(top.x, top.y)
        let second = painter.paint(scene, scale: 1, into: target.canvas, over: first.frame)
        let pill = try XCTUnwrap(second.frame.moreRect)
        XCTAssertLessThanOrEqual(second.repaired.y, pill.y)
        XCTAssertGreaterThanOrEqual(second.repaired.maxY, pill.maxY, "the pill is redrawn whole")
        XCTAssertTrue(target.isMarked(top.x, top.y), "the unchanged toast far from the pill is not redrawn")
        XCTAssertNil(ToastStackPainter.damage(from: first.frame, to: second.frame))
    }

    /// A buffer painted frame after frame holds exactly what one painted from scratch would: through
    /// arrivals that push the stack down (and raise the "+N more" count), a close in the middle that
    /// moves the rest up, a fade, and a toast replaced in place by a taller one; for both vertical
    /// directions, at scales 1 and 2 and at the fractional 1.25 and 1.5 (where rects and the pill are
    /// rounded to buffer pixels), and with a shadow whose reach rounds down at 1.25 (9 × 1.25 = 11.25).
    func testFramesPaintedOverHeldOnesMatchFreshOnes() {
        let steps: [Scene] = {
            var scenes: [Scene] = []
            var toasts = [toast(1, "One"), toast(2, "Two")]
            scenes.append(Scene(toasts: toasts))
            toasts.insert(toast(3, "Three"), at: 0)
            scenes.append(Scene(toasts: toasts))
            toasts.insert(toast(4, "Four"), at: 0)
            scenes.append(Scene(toasts: Array(toasts.prefix(3)), hiddenCount: 1))
            toasts.insert(toast(5, "Five"), at: 0)
            scenes.append(Scene(toasts: Array(toasts.prefix(3)), hiddenCount: 2))
            toasts.remove(at: 1)  // four closes: three moves up
            scenes.append(Scene(toasts: Array(toasts.prefix(3)), hiddenCount: 1))
            var fading = Scene(toasts: Array(toasts.prefix(3)), hiddenCount: 1)
            fading.toasts[0].opacity = 0.4
            scenes.append(fading)
            toasts[1].view.body = "A longer body that wraps onto a second line, and then onto a third one as well"
            scenes.append(Scene(toasts: Array(toasts.prefix(3)), hiddenCount: 1))
            toasts.insert(toast(6, "Six"), at: 0)
            scenes.append(Scene(toasts: Array(toasts.prefix(3)), hiddenCount: 2))
            // A burst: the newest replace every shown one where it was (of its size), and the pill counts on.
            for (step, hidden) in [(7, 4), (10, 6), (13, 9)] as [(NotificationID, Int)] {
                var newest = [toast(step + 2, "Newer \(step + 2)"), toast(step + 1, "Newer \(step + 1)"), toast(step, "Newer \(step)")]
                newest[2].view.body = toasts[2].view.body
                toasts.replaceSubrange(0..<3, with: newest)
                scenes.append(Scene(toasts: Array(toasts.prefix(3)), hiddenCount: hidden))
            }
            return scenes
        }()
        var narrowShadow = ToastStyle()
        narrowShadow.shadow = ToastStyle.Shadow(radius: 9)
        let fractional = [PixelScale(numerator: 150), PixelScale(numerator: 180)]
        let cases: [(renderer: ToastRenderer, scales: [PixelScale])] = [
            (renderer, [1, 2] + fractional), (ToastRenderer(style: narrowShadow), fractional),
        ]
        for (renderer, scales) in cases {
            for anchor in [ScreenAnchor.topRight, .bottomRight] {
                for scale in scales {
                    for bufferCount in [1, 2] {
                        // As a surface keeps them: buffers of the frame's size taking turns, each remembering
                        // the frame it holds; the one drawn last is offered as `latest`.
                        var painter = ToastStackPainter(renderer: renderer, anchor: anchor)
                        var buffers: [(target: MarkedCanvas, frame: ToastStackFrame?)] = []
                        var last: Int?
                        var reused = 0
                        for (index, scene) in steps.enumerated() {
                            let size = painter.surfaceSize(of: painter.arrangement(of: scene, scale: scale))
                            if buffers.first?.target.canvas.width != size.width * scale
                                || buffers.first?.target.canvas.height != size.height * scale {
                                buffers = (0..<bufferCount).map { _ in (MarkedCanvas(size: size, scale: scale), nil) }
                                last = nil
                            }
                            let turn = last.map { ($0 + 1) % bufferCount } ?? 0
                            let latest = last.flatMap { last in
                                buffers[last].frame.map { (canvas: buffers[last].target.canvas, frame: $0) }
                            }
                            let held = buffers[turn].frame
                            let painting = painter.paint(scene, scale: scale, into: buffers[turn].target.canvas, over: held,
                                                         latest: last == turn ? nil : latest)
                            if let newest = latest?.frame ?? held, StackReuse.plan(from: newest, to: painting.frame) != nil {
                                reused += 1
                            }
                            buffers[turn].frame = painting.frame
                            last = turn

                            var freshPainter = ToastStackPainter(renderer: renderer, anchor: anchor)
                            let fresh = MarkedCanvas(size: size, scale: scale)
                            _ = freshPainter.paint(scene, scale: scale, into: fresh.canvas, over: nil)
                            XCTAssertTrue(buffers[turn].target.hasSamePixels(as: fresh),
                                          "step \(index), \(anchor), scale \(scale), \(bufferCount) buffers, "
                                              + "shadow \(renderer.style.shadowExtent)")
                        }
                        XCTAssertGreaterThanOrEqual(reused, 3,
                                                    "rows were reused (\(anchor), scale \(scale), \(bufferCount) buffers)")
                    }
                }
            }
        }
    }

    /// A burst's frame: new toasts of the same size where the last frame's were, and a new count on the
    /// pill. Only their rects and the pill are drawn again (their shadows are the ones already there),
    /// over what the buffer holds or over a copy of the latest buffer, and the result is a fresh frame's.
    func testToastsReplacedInPlaceRedrawOnlyTheirRectsAndThePill() throws {
        for scale: PixelScale in [1, 2, PixelScale(numerator: 150)] {
            var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
            let before = Scene(toasts: [toast(3, "Three"), toast(2, "Two"), toast(1, "One")], hiddenCount: 2)
            let after = Scene(toasts: [toast(6, "Six"), toast(5, "Five"), toast(4, "Four")], hiddenCount: 5)
            let size = painter.surfaceSize(of: painter.arrangement(of: before, scale: scale))
            XCTAssertEqual(painter.surfaceSize(of: painter.arrangement(of: after, scale: scale)), size)
            let fresh = MarkedCanvas(size: size, scale: scale)
            _ = ToastStackPainter(renderer: renderer, anchor: .topRight).paintingFresh(after, scale: scale, into: fresh.canvas,
                                                                                        blank: false)

            // Over the buffer's own frame: a pixel of the shadows between two toasts is not drawn again.
            let held = MarkedCanvas(size: size, scale: scale)
            let first = painter.paint(before, scale: scale, into: held.canvas, over: nil).frame
            let gap = (x: first.toasts[0].rect.center.x, y: (first.toasts[0].rect.maxY + first.toasts[1].rect.y) / 2)
            held.mark(gap.x, gap.y)
            let over = painter.paint(after, scale: scale, into: held.canvas, over: first)
            XCTAssertTrue(held.isMarked(gap.x, gap.y), "scale \(scale): the shadows between toasts are left as they are")
            XCTAssertNotEqual(over.repaired, over.frame.whole)
            let unmarked = MarkedCanvas(size: size, scale: scale)
            _ = painter.paint(before, scale: scale, into: unmarked.canvas, over: nil)
            _ = painter.paint(after, scale: scale, into: unmarked.canvas, over: first)
            XCTAssertTrue(unmarked.hasSamePixels(as: fresh), "scale \(scale): over the buffer's own frame")

            // Over a buffer that holds nothing known, with the latest frame in another: that one is copied.
            let latest = MarkedCanvas(size: size, scale: scale)
            _ = painter.paint(before, scale: scale, into: latest.canvas, over: nil)
            let other = MarkedCanvas(size: size, scale: scale)
            for y in 0..<other.canvas.height { for x in 0..<other.canvas.width { other.mark(x, y) } }
            let copied = painter.paint(after, scale: scale, into: other.canvas, over: nil, latest: (latest.canvas, first))
            XCTAssertNotEqual(copied.repaired, copied.frame.whole)
            XCTAssertTrue(other.hasSamePixels(as: fresh), "scale \(scale): over a copy of the latest frame")
        }
    }

    func testAChangeReachingTheMorePillRepaintsTheWholeBuffer() throws {
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        let scene = Scene(toasts: [toast(9, "Nine"), toast(8, "Eight")], hiddenCount: 3)
        let arrangement = painter.arrangement(of: scene, scale: 1)
        let pill = try XCTUnwrap(arrangement.moreRect)
        let target = MarkedCanvas(size: arrangement.size, scale: 1)
        let first = painter.paint(scene, scale: 1, into: target.canvas, over: nil)

        // A buffer that held the lower toast over the pill's place: the repair reaches the pill, which
        // is never drawn clipped.
        var held = first.frame
        held.toasts[1].rect.y = pill.y
        let again = painter.paint(scene, scale: 1, into: target.canvas, over: held)
        XCTAssertNotEqual(ToastStackFrame.changedArea(from: held, to: first.frame), first.frame.whole,
                          "only the pill makes this change a full repaint")
        XCTAssertEqual(again.repaired, first.frame.whole)
    }
}

/// `HudPainter`: the motion-only frames redraw and damage just the moving part.
final class HudPainterTests: XCTestCase {
    private let renderer = ToastRenderer()
    private var painter: HudPainter { HudPainter(renderer: renderer, column: .center) }
    /// Integer scales and the fractional ones a compositor prefers at 125 % and 150 %, where a part's
    /// edges fall inside pixels and its damage must still cover it.
    private static let scales: [PixelScale] = [1, 2, PixelScale(numerator: 150), PixelScale(numerator: 180)]

    private func paintTwice(_ before: [HudView], _ after: [HudView], opacity: Double = 1, scale: PixelScale,
                            mark: (x: Int, y: Int)? = nil) -> (first: HudPainter.Painting, second: HudPainter.Painting,
                                                              markerKept: Bool) {
        let target = MarkedCanvas(size: painter.size(of: before, scale: scale), scale: scale)
        let first = painter.paint(before, opacity: opacity, scale: scale, into: target.canvas, over: nil)
        if let mark { target.mark(mark.x, mark.y) }
        let second = painter.paint(after, opacity: opacity, scale: scale, into: target.canvas,
                                   over: first.frame)
        return (first, second, mark.map { target.isMarked($0.x, $0.y) } ?? false)
    }

    func testAFirstFrameIsAFullRepaint() {
        let target = MarkedCanvas(size: painter.size(of: [.spinner(SpinnerView())], scale: 1), scale: 1)
        let painting = painter.paint([.spinner(SpinnerView())], opacity: 1, scale: 1, into: target.canvas, over: nil)
        XCTAssertNil(painting.damage)
        XCTAssertEqual(painting.frame, HudFrame(huds: [.spinner(SpinnerView())], opacity: 1, scale: 1))
    }

    func testABarValueChangeDamagesOnlyTheBarValueRect() {
        for scale in Self.scales {
            let bar = HudBarView(label: "Volume", iconName: "audio-volume-high", value: 30)
            var louder = bar
            louder.value = 60
            let bleed = painter.bleed * scale  // the room for the shadow around the box
            let valueRect = renderer.barValueRect(louder, scale: scale).scaled(by: scale).offsetBy(dx: bleed, dy: bleed)
            let result = paintTwice([.bar(bar)], [.bar(louder)], scale: scale, mark: (2 * scale, 2 * scale))
            XCTAssertNil(result.first.damage)
            XCTAssertEqual(result.second.damage, valueRect, "at scale \(scale)")
            XCTAssertTrue(result.markerKept, "the box corner is not redrawn")
        }
    }

    func testASpinnerPhaseChangeDamagesOnlyTheWheelRect() {
        for scale in Self.scales {
            let spinner = SpinnerView(label: "Building", phase: 0.1)
            var turned = spinner
            turned.phase = 0.35
            let bleed = painter.bleed * scale
            let wheel = renderer.spinnerRect(turned, scale: scale).scaled(by: scale).offsetBy(dx: bleed, dy: bleed)
            let result = paintTwice([.spinner(spinner)], [.spinner(turned)], scale: scale, mark: (2 * scale, 2 * scale))
            XCTAssertEqual(result.second.damage, wheel, "at scale \(scale)")
            XCTAssertTrue(result.markerKept, "the box and the label are not redrawn")
        }
    }

    func testASpinnerStepTheBufferAlreadyHoldsIsNotRedrawn() {
        let spinner = SpinnerView(label: "Building", phase: 3.0 / 12)
        let bleed = painter.bleed
        let wheel = renderer.spinnerRect(spinner, scale: 1).offsetBy(dx: bleed, dy: bleed)
        let same = paintTwice([.spinner(spinner)], [.spinner(spinner)], scale: 1, mark: wheel.center)
        XCTAssertTrue(same.markerKept, "the same step over a buffer holding it draws nothing")
        XCTAssertEqual(same.second.damage, wheel, "still damaged: the compositor may show the other buffer")
        var turned = spinner
        turned.phase = 4.0 / 12
        XCTAssertFalse(paintTwice([.spinner(spinner)], [.spinner(turned)], scale: 1, mark: wheel.center).markerKept,
                       "the next step is drawn")
    }

    /// Values going back and forth over two buffers: a buffer already holding the value needs no canvas
    /// at all (making one cost a cairo surface and a pixman image per value), only the damage.
    func testAValueTheBufferHoldsMakesNoCanvas() {
        let painter = painter
        let bar = HudBarView(label: "Volume", iconName: "audio-volume-high", value: 30)
        let target = MarkedCanvas(size: painter.size(of: [.bar(bar)], scale: 1), scale: 1)
        var made = 0
        func canvas() -> Canvas {
            made += 1
            return target.canvas
        }
        let first = painter.paint([.bar(bar)], opacity: 1, scale: 1, into: canvas(), over: nil)
        XCTAssertEqual(made, 1)
        let same = painter.paint([.bar(bar)], opacity: 1, scale: 1, into: canvas(), over: first.frame)
        XCTAssertEqual(made, 1, "nothing drawn, no canvas made")
        let bleed = painter.bleed
        XCTAssertEqual(same.damage, renderer.barValueRect(bar, scale: 1).offsetBy(dx: bleed, dy: bleed))
        var louder = bar
        louder.value = 70
        _ = painter.paint([.bar(louder)], opacity: 1, scale: 1, into: canvas(), over: same.frame)
        XCTAssertEqual(made, 2, "a new value is drawn")
    }

    /// One painter remembers its HUDs' geometry while only values and phases change, and works it out
    /// anew for another label, another set of HUDs or another scale.
    func testTheGeometryFollowsTheHudsLook() {
        let painter = painter
        let plain = [HudView.spinner(SpinnerView(phase: 0.1))]
        let labelled = [HudView.spinner(SpinnerView(label: "Building the whole project", phase: 0.1))]
        let both = [HudView.bar(HudBarView(label: "Volume", value: 30))] + plain
        let sizes = [plain, labelled, both].map { painter.size(of: $0, scale: 1) }
        XCTAssertEqual(Set(sizes.map { "\($0.width)x\($0.height)" }).count, 3, "\(sizes)")
        for (huds, size) in zip([plain, labelled, both, plain], sizes + [sizes[0]]) {
            XCTAssertEqual(painter.size(of: huds, scale: 1), size)
            XCTAssertEqual(painter.size(of: huds, scale: 1), HudPainter(renderer: renderer, column: .center).size(of: huds, scale: 1))
        }
        XCTAssertEqual(painter.size(of: both, scale: 2), HudPainter(renderer: renderer, column: .center).size(of: both, scale: 2))
        XCTAssertEqual(painter.geometry(of: both, scale: 1).origins,
                       HudPainter(renderer: renderer, column: .center).geometry(of: both, scale: 1).origins)
    }

    func testAHudBelowFullOpacityOrWithAnotherLabelIsRedrawnWhole() {
        let spinner = SpinnerView(label: "Building", phase: 0.1)
        var turned = spinner
        turned.phase = 0.35
        let fading = paintTwice([.spinner(spinner)], [.spinner(turned)], opacity: 0.5, scale: 1, mark: (2, 2))
        XCTAssertNil(fading.second.damage, "the wheel alone is redrawn only at full opacity")
        XCTAssertFalse(fading.markerKept)

        let target = MarkedCanvas(size: painter.size(of: [.spinner(spinner)], scale: 1), scale: 1)
        let faded = painter.paint([.spinner(spinner)], opacity: 0.9, scale: 1, into: target.canvas, over: nil)
        let last = painter.paint([.spinner(turned)], opacity: 1, scale: 1, into: target.canvas, over: faded.frame)
        XCTAssertNil(last.damage, "the last frame of a fade-in redraws the box at full opacity, not the wheel alone")

        var relabelled = turned
        relabelled.label = "Testing"
        XCTAssertNil(paintTwice([.spinner(spinner)], [.spinner(relabelled)], scale: 1).second.damage)
    }
}
