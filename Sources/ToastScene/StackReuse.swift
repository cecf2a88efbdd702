import ToastConfig
import ToastRender
import ToastVocabulary

/// How a new stack frame reuses a buffer's pixels when the toasts it holds moved up or down together:
/// a toast arrives at the top and the others move down by its height, or one closes and those after
/// it move up. Their pixels are moved as whole rows (a memory move); only the rows around what
/// appeared, left or changed are drawn again. In a burst every frame is such a frame, and compositing
/// the whole stack again (each toast and its shadow) was most of the CPU a notification cost.
///
/// Pure: two frames in, the rows to move and the rows to redraw out.
package struct StackReuse: Equatable {
    /// The rows of the held frame that move (buffer pixels, before the move).
    package var rows: Range<Int>
    /// How far they move, in rows; down when positive.
    package var dy: Int
    /// Bands of whole rows to draw from scratch after the move, top to bottom, not overlapping.
    package var repairs: [Range<Int>]

    /// The plan for drawing `new` into a buffer that holds `old`; nil when nothing can be moved
    /// (another buffer size, scale or shadow reach, no toast that moved alone and unchanged, or nothing
    /// moved: then `ToastStackFrame.changedArea` knows better what to repair).
    package static func plan(from old: ToastStackFrame, to new: ToastStackFrame) -> StackReuse? {
        guard old.width == new.width, old.height == new.height, old.bleed == new.bleed, old.scale == new.scale else { return nil }
        let before = Dictionary(old.toasts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Toasts drawn the same way in both frames, each with how far it moved down.
        let kept: [(id: NotificationID, dy: Int)] = new.toasts.compactMap { toast in
            guard let was = before[toast.id], was.view == toast.view, was.opacity == toast.opacity,
                  was.rect.x == toast.rect.x, was.rect.size == toast.rect.size else { return nil }
            return (toast.id, toast.rect.y - was.rect.y)
        }
        // The move most of them made (the smaller one on a tie): those toasts' pixels are moved.
        let counts = Dictionary(kept.map { ($0.dy, 1) }, uniquingKeysWith: +)
        guard let dy = counts.max(by: { ($0.value, -abs($0.key)) < ($1.value, -abs($1.key)) })?.key else { return nil }
        guard dy != 0 || old.more != new.more else { return nil }
        let moved = Set(kept.filter { $0.dy == dy }.map(\.id))

        let all = 0..<new.height
        let reach = new.bleed
        func rows(_ rect: Rect, inflatedBy amount: Int) -> Range<Int> {
            (rect.y - amount..<rect.maxY + amount).clamped(to: all)
        }
        let movedRows = old.toasts.filter { moved.contains($0.id) }.map { rows($0.rect, inflatedBy: reach) }
        guard let top = movedRows.map(\.lowerBound).min(), let bottom = movedRows.map(\.upperBound).max() else { return nil }
        let source = top..<bottom
        let target = (source.lowerBound + dy..<source.upperBound + dy).clamped(to: all)
        guard !target.isEmpty else { return nil }

        var repairs: [Range<Int>] = []
        // Everything the move does not cover.
        repairs.append(0..<target.lowerBound)
        repairs.append(target.upperBound..<new.height)
        // What the moved rows carry along that is not in the new frame there: other toasts of the held
        // frame (and their shadows) and its pill.
        var carried = old.toasts.filter { !moved.contains($0.id) }.map { rows($0.rect, inflatedBy: reach) }
        if let pill = old.moreRect { carried.append(rows(pill, inflatedBy: 0)) }
        for band in carried {
            let inside = band.clamped(to: source)
            if !inside.isEmpty { repairs.append((inside.lowerBound + dy..<inside.upperBound + dy).clamped(to: all)) }
        }
        // What the new frame has there that was not moved: new or changed toasts, and the pill.
        repairs += new.toasts.filter { !moved.contains($0.id) }.map { rows($0.rect, inflatedBy: reach) }
        let pill = new.moreRect.map { rows($0, inflatedBy: 0) }
        if let pill { repairs.append(pill) }

        var merged = Self.merge(repairs)
        // The pill is drawn whole, never clipped: a band that reaches it takes all of it.
        if let pill {
            merged = Self.merge(merged.map { $0.overlaps(pill) ? min($0.lowerBound, pill.lowerBound)..<max($0.upperBound, pill.upperBound) : $0 })
        }
        return StackReuse(rows: target.lowerBound - dy..<target.upperBound - dy, dy: dy, repairs: merged)
    }

    /// `ranges` without empty ones, sorted, with overlapping or touching ones joined.
    package static func merge(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for r in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, r.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                result.append(r)
            }
        }
        return result
    }
}
