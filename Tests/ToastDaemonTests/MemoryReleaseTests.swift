@testable import ToastDaemon
import XCTest

/// When toastd runs itself again to have GLib's slices served by malloc.
final class MemoryReleaseTests: XCTestCase {
    func testOnlyGLibBefore276WithoutGSliceIsReexecuted() {
        XCTAssertTrue(MemoryRelease.needsMallocSlices(gSlice: nil, glib: (2, 74)), "Debian 12's GLib: magazines")
        XCTAssertTrue(MemoryRelease.needsMallocSlices(gSlice: nil, glib: (2, 75)))
        XCTAssertFalse(MemoryRelease.needsMallocSlices(gSlice: "always-malloc", glib: (2, 74)), "already set: no exec")
        XCTAssertFalse(MemoryRelease.needsMallocSlices(gSlice: "", glib: (2, 74)), "set, even empty: left alone")
        XCTAssertFalse(MemoryRelease.needsMallocSlices(gSlice: nil, glib: (2, 76)), "2.76: slices are malloc")
        XCTAssertFalse(MemoryRelease.needsMallocSlices(gSlice: nil, glib: (2, 82)))
        XCTAssertFalse(MemoryRelease.needsMallocSlices(gSlice: nil, glib: (3, 0)))
    }
}
