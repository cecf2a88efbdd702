import Foundation
import XCTest
@testable import ToastPictures
@testable import ToastRender

final class SVGFileTests: XCTestCase {
    private func svg(_ body: String, size: String = ##"width="16" height="16""##) -> [UInt8] {
        Array(##"<svg xmlns="http://www.w3.org/2000/svg" \##(size)>\##(body)</svg>"##.utf8)
    }

    /// A 16 px SVG asked for at 96 px is rendered at 96 px (sharp at scale 2), not scaled up afterwards.
    func testRendersAtTheSizeAskedFor() throws {
        let data = svg(##"<rect width="16" height="8" fill="#ff0000"/><rect y="8" width="16" height="8" fill="#0000ff"/>"##)
        let image = try SVGFile.render(data, side: 96).get()
        XCTAssertEqual([image.width, image.height], [96, 96])
        XCTAssertEqual(Array(image.pixels[0..<4]), [255, 0, 0, 255])
        let bottom = (95 * 96 + 95) * 4
        XCTAssertEqual(Array(image.pixels[bottom..<bottom + 4]), [0, 0, 255, 255])
    }

    func testAspectIsKeptFromTheViewBox() throws {
        let data = svg(##"<rect width="40" height="20" fill="#00ff00"/>"##, size: ##"viewBox="0 0 40 20""##)
        let image = try SVGFile.render(data, side: 48).get()
        XCTAssertEqual([image.width, image.height], [48, 24])
    }

    /// A symbolic icon keeps its shape (the alpha) and takes the tint colour.
    func testTintKeepsTheCoverageOnly() throws {
        let data = svg(##"<rect width="8" height="16" fill="#bebebe"/>"##)
        let image = try SVGFile.render(data, side: 16, tint: Color(rgb: 0x123456)).get()
        XCTAssertEqual(Array(image.pixels[0..<4]), [0x12, 0x34, 0x56, 255])
        XCTAssertEqual(image.pixels[(15 * 4) + 3], 0, "the uncovered half stays transparent")
    }

    func testBrokenAndHugeFilesAreRefused() {
        guard case .failure(.unreadable) = SVGFile.render(Array("<svg><rect".utf8), side: 48) else {
            return XCTFail("a broken SVG rendered")
        }
        guard case .failure(.tooLarge) = SVGFile.render(svg("", size: ##"width="100000" height="100000""##), side: 48) else {
            return XCTFail("a 100000 px SVG was not refused")
        }
        guard case .failure(.noSize) = SVGFile.render(svg("", size: ""), side: 48) else {
            return XCTFail("an SVG without size or viewBox rendered")
        }
        XCTAssertFalse(SVGFile.looksLikeSVG(Array("\u{89}PNG".utf8)))
        XCTAssertTrue(SVGFile.looksLikeSVG(Array("\n<?xml version=\"1.0\"?><svg/>".utf8)))
    }

    /// The SVG "billion laughs": ten levels of ten `<use>` each. librsvg would stop at its reference
    /// limit after seconds of drawing; it is refused before, from its count of `<use>` (the error
    /// carries the count, which only the scan before drawing makes).
    func testAUseBombIsRefusedAtOnce() {
        let data = Self.useBomb()
        XCTAssertFalse(SVGFile.isSimple(data))
        XCTAssertEqual(SVGFile.render(data, side: 96).map(\.width), .failure(.tooManyReferences(101)))
    }

    /// Near the worst nesting `maxUseElements` allows (15 levels of 2, 2^16 shapes) still renders: the
    /// bound refuses bombs, not pictures built this way. (How long it takes is for a benchmark, not a
    /// test: under load any time bound fails.)
    func testTheLargestAllowedNestingRenders() throws {
        var body = ##"<defs><path id="l0" d="M0 0h1v1z"/>"##
        for level in 1...15 {
            body += ##"<g id="l\##(level)">"## + String(repeating: ##"<use href="#l\##(level - 1)"/>"##, count: 2) + "</g>"
        }
        body += ##"</defs><use href="#l15"/>"##
        XCTAssertEqual(try SVGFile.render(svg(body), side: 96).get().width, 96)
    }

    /// Deep nesting: libxml2's depth limit refuses it while parsing.
    func testDeepNestingIsRefused() {
        let depth = 5000
        let data = svg(String(repeating: "<g>", count: depth) + String(repeating: "</g>", count: depth))
        guard case .failure = SVGFile.render(data, side: 48) else { return XCTFail("5000 nested groups rendered") }
    }

    static func useBomb() -> [UInt8] {
        var body = ##"<defs><path id="l0" d="M0 0h1v1z"/>"##
        for level in 1...10 {
            body += ##"<g id="l\##(level)">"## + String(repeating: ##"<use href="#l\##(level - 1)"/>"##, count: 10) + "</g>"
        }
        body += ##"</defs><use href="#l10"/>"##
        return Array(##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16">\##(body)</svg>"##.utf8)
    }
}
