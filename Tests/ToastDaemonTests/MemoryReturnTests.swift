import CMallocSlices
import Glibc
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastCore
import ToastRender
import XCTest

/// What serves GLib's slices, and so whether toastd warns that a storm's memory may stay.
final class SliceAllocatorTests: XCTestCase {
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

    /// The load-time choice of one malloc arena took in this process (which links it too): a new
    /// thread's block comes from the main heap (below the program break), not from an arena of its own
    /// mapped high up, unless the environment named the arenas itself.
    func testANewThreadAllocatesFromTheMainHeap() throws {
        try XCTSkipIf(getenv("MALLOC_ARENA_MAX") != nil || getenv("GLIBC_TUNABLES") != nil, "the environment decides")
        XCTAssertTrue(MemoryRelease.arenasLimitedAtLoad)
        var thread = pthread_t()
        var address: UInt = 0
        let created = withUnsafeMutablePointer(to: &address) { slot in
            pthread_create(&thread, nil, { slot in
                let block = malloc(64)
                slot?.assumingMemoryBound(to: UInt.self).pointee = UInt(bitPattern: block)
                free(block)
                return nil
            }, slot)
        }
        XCTAssertEqual(created, 0)
        pthread_join(thread, nil)
        let programBreak = UInt(bitPattern: sbrk(0))
        XCTAssertNotEqual(address, 0)
        XCTAssertLessThan(address, programBreak, "the thread's block is in an arena of its own")
    }
}

/// When memory goes back, on a hand clock.
final class MemoryReturnPolicyTests: XCTestCase {
    private func at(_ ms: Int64) -> Instant { Instant(milliseconds: ms) }

    func testNothingIsDueUntilTheScreenEmptiesOrSettles() {
        var policy = MemoryReturnPolicy()
        XCTAssertNil(policy.due(showingNothing: true, now: at(0)))
        XCTAssertNil(policy.due(showingNothing: false, now: at(5_000)))
    }

    func testAnEmptiedScreenGivesBackAtOnceAndOnlyOnce() {
        var policy = MemoryReturnPolicy()
        policy.screenEmptied()
        XCTAssertEqual(policy.due(showingNothing: true, now: at(0)), .emptied(keeping: MemoryReturnPolicy.keptWhenEmpty))
        XCTAssertNil(policy.due(showingNothing: true, now: at(1)), "one emptying, one return")
    }

    func testTheEndOfStartUpGivesBackLikeAnEmptiedScreen() {
        var policy = MemoryReturnPolicy()
        policy.started()
        XCTAssertEqual(policy.due(showingNothing: true, now: at(0)), .emptied(keeping: MemoryReturnPolicy.keptWhenEmpty))
        XCTAssertNil(policy.due(showingNothing: true, now: at(1)))
    }

    func testAnEmptyingThatANewToastFollowedOnlyTrimsAsASettle() {
        var policy = MemoryReturnPolicy()
        policy.screenEmptied()
        XCTAssertEqual(policy.due(showingNothing: false, now: at(0)), .settled(keeping: MemoryReturnPolicy.keptWhileShown),
                       "the caches the new toast uses stay")
    }

    func testSettledTrimsWhileShownAreRateLimited() {
        var policy = MemoryReturnPolicy()
        policy.screenSettled()
        XCTAssertEqual(policy.due(showingNothing: false, now: at(0)), .settled(keeping: MemoryReturnPolicy.keptWhileShown))
        policy.screenSettled()
        XCTAssertNil(policy.due(showingNothing: false, now: at(999)), "a fade settling a frame later walks no free list")
        policy.screenSettled()
        XCTAssertEqual(policy.due(showingNothing: false, now: at(1_000)), .settled(keeping: MemoryReturnPolicy.keptWhileShown))
    }

    func testTheEmptyingIsNeverRateLimited() {
        var policy = MemoryReturnPolicy()
        policy.screenSettled()
        _ = policy.due(showingNothing: false, now: at(0))
        policy.screenEmptied()
        XCTAssertEqual(policy.due(showingNothing: true, now: at(10)), .emptied(keeping: MemoryReturnPolicy.keptWhenEmpty))
    }
}
