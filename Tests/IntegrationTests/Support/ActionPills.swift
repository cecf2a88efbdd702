/// Where a toast with two action pills is, read from a screenshot of it over a plain background.
struct ActionPills {
    /// The toast's box.
    var box: Rect
    /// The pills, left to right.
    var pills: [Rect]

    /// Finds the one toast on `shot` (whatever differs from `background`) and its pills: the lowest row
    /// of the box that differs from the box's fill, each pill one run of such pixels. `inset` is the
    /// border and rounded corners to skip, in the screenshot's pixels (twice as many at scale 2).
    init(in shot: Image, background: RGB, inset: Int = 6) throws {
        guard let box = shot.boundingBox(notMatching: background) else { throw PillsNotFound(message: "no toast") }
        // Inside the border and the rounded corners, at the left padding: the plain fill.
        let fill = shot.pixel(box.x + inset, box.y + box.height / 2)
        let inner = (x0: box.x + inset, x1: box.x + box.width - inset, y0: box.y + inset, y1: box.y + box.height - inset)
        func isFill(_ x: Int, _ y: Int) -> Bool { shot.pixel(x, y).isClose(to: fill, tolerance: 2) }
        func rowHasContent(_ y: Int) -> Bool { (inner.x0..<inner.x1).contains { !isFill($0, y) } }
        // The lowest band of rows with something on them is the pill row.
        guard let bottom = (inner.y0..<inner.y1).reversed().first(where: rowHasContent) else {
            throw PillsNotFound(message: "an empty toast")
        }
        var top = bottom
        while top > inner.y0, rowHasContent(top - 1) { top -= 1 }
        let y = (top + bottom) / 2
        var runs: [(x: Int, width: Int)] = []
        var x = inner.x0
        while x < inner.x1 {
            if isFill(x, y) { x += 1; continue }
            let begin = x
            while x < inner.x1, !isFill(x, y) { x += 1 }
            runs.append((begin, x - begin))
        }
        guard runs.count == 2 else { throw PillsNotFound(message: "expected two pills in row \(y), found \(runs)") }
        self.box = box
        pills = runs.map { Rect(x: $0.x, y: top, width: $0.width, height: bottom - top + 1) }
    }
}

/// The screenshot shows no toast with two action pills.
struct PillsNotFound: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
