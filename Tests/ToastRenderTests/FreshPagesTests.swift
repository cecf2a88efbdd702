import CCairo
import Glibc
import XCTest
@testable import ToastRender

final class FreshPagesTests: XCTestCase {
    private let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Which of the `pages` pages at `base` are present (mincore).
    private func present(_ base: UnsafeMutableRawPointer, pages: Int) -> [Bool] {
        var vector = [UInt8](repeating: 0, count: pages)
        XCTAssertEqual(mincore(base, pages * page, &vector), 0)
        return vector.map { $0 & 1 == 1 }
    }

    /// Exactly the pages that hold the bytes are brought in, the first and last ones partly covered
    /// included; the pages around them stay out, and what the bytes held is kept.
    func testPopulatesThePagesHoldingTheBytesAndNoOthers() throws {
        let pages = 8
        let mapping = mmap(nil, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let base = try XCTUnwrap(mapping == MAP_FAILED ? nil : mapping)
        defer { munmap(base, pages * page) }
        XCTAssertEqual(present(base, pages: pages), Array(repeating: false, count: pages), "a fresh mapping has no pages")
        base.storeBytes(of: 0x5A, toByteOffset: page + 200, as: UInt8.self)  // page 1 present, with a byte to keep

        // Bytes from the middle of page 1 to the middle of page 4.
        FreshPages.populate(base + page + 100, count: 3 * page)

        XCTAssertEqual(present(base, pages: pages), [false, true, true, true, true, false, false, false])
        XCTAssertEqual(base.load(fromByteOffset: page + 200, as: UInt8.self), 0x5A)
    }

    /// A picture's memory is present once the canvas exists, before anything is drawn into it. 36 MB:
    /// beyond what malloc ever takes from its heap (its mmap threshold stops growing at 32 MB), so the
    /// memory is a fresh mapping whatever ran before in this process.
    func testAnUninitializedCanvasHasItsPagesPresent() throws {
        let canvas = try XCTUnwrap(Canvas(uninitializedWidth: 4096, height: 2200))
        let data = try XCTUnwrap(cairo_image_surface_get_data(canvas.surface))
        let start = Int(bitPattern: data) & ~(page - 1)
        let end = Int(bitPattern: data) + canvas.stride * canvas.height
        let pages = (end - start + page - 1) / page
        let absent = present(UnsafeMutableRawPointer(bitPattern: start)!, pages: pages).filter { !$0 }.count
        XCTAssertEqual(absent, 0, "of \(pages) pages")
    }
}
