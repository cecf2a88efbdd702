/// Pure arithmetic of a toast stack: a column anchored at its top-right, newest on top, going down.
public enum StackLayout {
    /// The result of `arrange`. All rects are relative to the stack's top-left.
    public struct Arrangement: Hashable, Sendable {
        /// One rect per visible toast, in the order given (newest first = topmost).
        public var rects: [Rect]
        /// How many toasts are not shown.
        public var hiddenCount: Int
        /// Where the "+N more" pill goes, when there is one.
        public var moreRect: Rect?
        /// The bounding size of everything.
        public var size: Size
    }

    /// Arranges visible toasts of `sizes` (newest first) top to bottom with `gap` between them,
    /// each right-aligned to the widest; then, if `hiddenCount > 0` and `moreSize` is given, the
    /// "+N more" pill right-aligned under them.
    public static func arrange(sizes: [Size], hiddenCount: Int, gap: Int, moreSize: Size?) -> Arrangement {
        let pill = hiddenCount > 0 ? moreSize : nil
        let width = max(sizes.map(\.width).max() ?? 0, pill?.width ?? 0)
        var y = 0
        var rects: [Rect] = []
        for size in sizes {
            if !rects.isEmpty { y += gap }
            rects.append(Rect(x: width - size.width, y: y, width: size.width, height: size.height))
            y += size.height
        }
        var moreRect: Rect?
        if let pill {
            if !rects.isEmpty { y += gap }
            moreRect = Rect(x: width - pill.width, y: y, width: pill.width, height: pill.height)
            y += pill.height
        }
        return Arrangement(rects: rects, hiddenCount: hiddenCount, moreRect: moreRect, size: Size(width: width, height: y))
    }

    /// Convenience: splits `sizes` (all toasts, newest first) at `maxVisible` (at least 1) and arranges them.
    public static func arrange(sizes: [Size], gap: Int, maxVisible: Int, moreSize: Size?) -> Arrangement {
        let visible = min(sizes.count, max(1, maxVisible))
        return arrange(sizes: Array(sizes.prefix(visible)), hiddenCount: sizes.count - visible, gap: gap,
                       moreSize: moreSize)
    }
}
