import XCTest
@testable import ToastRender

/// `Rect.subtracting`: what a repaint clears around the toasts it copies whole.
final class RectSubtractionTests: XCTestCase {
    /// Every pixel of `rect` is in exactly one of `parts` or in a hole, and no part touches a hole.
    private func assertPartition(_ rect: Rect, holes: [Rect], file: StaticString = #filePath, line: UInt = #line) {
        let parts = rect.subtracting(holes)
        for py in rect.y..<rect.maxY {
            for px in rect.x..<rect.maxX {
                let pixel = Rect(x: px, y: py, width: 1, height: 1)
                let inParts = parts.filter { $0.intersects(pixel) }.count
                let inHole = holes.contains { $0.intersects(pixel) }
                XCTAssertEqual(inParts, inHole ? 0 : 1, "pixel (\(px), \(py))", file: file, line: line)
            }
        }
        for part in parts {
            XCTAssertFalse(part.isEmpty, file: file, line: line)
            XCTAssertEqual(part.intersection(rect), part, "inside the rect", file: file, line: line)
        }
    }

    func testNoHolesLeavesTheRect() {
        XCTAssertEqual(Rect(x: 2, y: 3, width: 10, height: 4).subtracting([]), [Rect(x: 2, y: 3, width: 10, height: 4)])
        XCTAssertEqual(Rect(x: 0, y: 0, width: 10, height: 4).subtracting([Rect(x: 20, y: 0, width: 5, height: 5)]),
                       [Rect(x: 0, y: 0, width: 10, height: 4)])
    }

    func testAHoleCoveringAllLeavesNothing() {
        XCTAssertEqual(Rect(x: 0, y: 0, width: 10, height: 4).subtracting([Rect(x: -1, y: -1, width: 20, height: 20)]), [])
    }

    func testAStackOfToastInteriorsLeavesTheirFramesAndGaps() {
        // A repair across a stack: three toast interiors, one cut by the repair's top.
        let repair = Rect(x: 0, y: 5, width: 30, height: 40)
        let holes = [Rect(x: 4, y: 0, width: 22, height: 8), Rect(x: 4, y: 14, width: 22, height: 10),
                     Rect(x: 4, y: 30, width: 22, height: 10)]
        assertPartition(repair, holes: holes)
        XCTAssertEqual(repair.subtracting(holes).first, Rect(x: 0, y: 5, width: 4, height: 3), "top band's left edge")
    }

    func testOverlappingAndSideBySideHoles() {
        assertPartition(Rect(x: 0, y: 0, width: 16, height: 12),
                        holes: [Rect(x: 2, y: 2, width: 6, height: 6), Rect(x: 5, y: 4, width: 6, height: 6),
                                Rect(x: 11, y: 0, width: 5, height: 3)])
    }
}
