import ToastRender
import ToastScene

/// A frame drawn ahead of its configure. A new surface must wait for the compositor's first configure
/// before it attaches a buffer, but drawing the buffer needs no answer: the surface sends its size,
/// flushes, draws while the compositor answers, and attaches as soon as the configure comes. A toast
/// on a new surface so costs the round trip or the drawing, whichever is longer, not both one after
/// the other (later sizes need no configure: `OverlaySurface`).
struct PreparedFrame {
    let buffer: ShmBuffer
    /// The scale it was drawn at, and the logical size it was drawn for.
    let scaling: SurfaceScale
    let size: (width: Int, height: Int)
    /// What changed since the frame before it (nil: everything).
    let damage: OverlaySurface.Damage?

    /// What a surface with new content does now.
    enum Step: Equatable {
        /// Draw the content (and attach it now, if the surface is configured).
        case draw
        /// A frame drawn ahead is stale: drop it and draw once the configure came. At most one frame is
        /// drawn ahead per configure awaited, so a burst of changes before the answer costs one
        /// drawing more, not one per change.
        case dropAndWait
    }

    static func step(configured: Bool, holdsPrepared: Bool) -> Step {
        configured || !holdsPrepared ? .draw : .dropAndWait
    }
}
