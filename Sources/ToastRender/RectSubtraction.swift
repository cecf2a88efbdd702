extension Rect {
    /// What is left of this rect once `holes` are taken out: disjoint rects, in horizontal bands from
    /// top to bottom, left to right within a band. A repaint clears only what its opaque toasts will
    /// not cover anyway: clearing a whole stack and then copying each toast over it wrote most of its
    /// bytes twice.
    public func subtracting(_ holes: [Rect]) -> [Rect] {
        let holes = holes.map { $0.intersection(self) }.filter { !$0.isEmpty }
        guard !isEmpty else { return [] }
        guard !holes.isEmpty else { return [self] }
        // Bands between every top and bottom edge of a hole: within one, each hole covers all rows or none.
        let edges = Set([y, maxY] + holes.flatMap { [$0.y, $0.maxY] }).sorted()
        var left: [Rect] = []
        for (top, bottom) in zip(edges, edges.dropFirst()) {
            var x = self.x
            for hole in holes.filter({ $0.y <= top && $0.maxY >= bottom }).sorted(by: { $0.x < $1.x }) {
                if hole.x > x { left.append(Rect(x: x, y: top, width: hole.x - x, height: bottom - top)) }
                x = max(x, hole.maxX)
            }
            if x < maxX { left.append(Rect(x: x, y: top, width: maxX - x, height: bottom - top)) }
        }
        return left
    }
}
