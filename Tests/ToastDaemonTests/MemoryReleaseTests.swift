import CMallocSlices
import Glibc
@testable import ToastDaemon
import ToastRender
import XCTest

/// What serves GLib's slices, and so whether toastd warns that a storm's memory may stay.
final class MemoryReleaseTests: XCTestCase {
    func testSlicesAreMallocWhenSetAtLoadOrOnNewGLib() {
        XCTAssertEqual(MemoryRelease.sliceAllocator(gSlice: nil, glib: (2, 74), setAtLoad: true), .malloc,
                       "Debian 12's GLib, set from .preinit_array")
        XCTAssertEqual(MemoryRelease.sliceAllocator(gSlice: nil, glib: (2, 76), setAtLoad: false), .malloc,
                       "2.76: slices are malloc whatever is asked")
        XCTAssertEqual(MemoryRelease.sliceAllocator(gSlice: "debug-blocks", glib: (3, 0), setAtLoad: false), .malloc)
    }

    func testTheEnvironmentDecidesWhenItNamesGSlice() {
        XCTAssertEqual(MemoryRelease.sliceAllocator(gSlice: "always-malloc", glib: (2, 74), setAtLoad: false),
                       .environment("always-malloc"))
        XCTAssertEqual(MemoryRelease.sliceAllocator(gSlice: "", glib: (2, 74), setAtLoad: false), .environment(""),
                       "set, even empty: left alone")
    }

    func testMagazinesOnlyWhenNothingSetThem() {
        XCTAssertEqual(MemoryRelease.sliceAllocator(gSlice: nil, glib: (2, 75), setAtLoad: false), .magazines)
    }

    /// This test binary links ToastDaemon, and with it the load-time setting: GLib's slices here are
    /// malloc'd unless this process was started with G_SLICE (then GLib follows it).
    func testTheLoadTimeSettingTookInThisProcess() throws {
        try XCTSkipIf(getenv("G_SLICE") != nil, "G_SLICE is set: GLib follows it")
        let allocator = MemoryRelease.sliceAllocator(gSlice: nil, glib: GLibVersion.running,
                                                     setAtLoad: toastd_glib_slices_set_to_malloc() != 0)
        XCTAssertEqual(allocator, .malloc)
    }
}
