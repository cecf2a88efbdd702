import CLinux
import CMallocSlices
import Glibc
import ToastRender

/// The C allocator's view of the heap, and giving its free pages back to the system.
///
/// Why the daemon trims at all: glibc serves large blocks (a notification's pixels, a D-Bus message
/// carrying them) with mmap at first, but after the first of them is freed it raises its mmap
/// threshold and serves the next ones from the heap. A burst of big pictures so leaves tens of
/// megabytes of free heap that glibc keeps for good; `malloc_trim` hands them back. (Pinning the
/// threshold instead was measured to keep no less, and cost an mmap, munmap and fresh page faults
/// for every toast picture cairo allocates.)
enum HeapTrim {
    /// Bytes the allocator holds for the program: in use, and free but kept.
    struct Usage {
        var inUse: Int
        var free: Int

        static var now: Usage {
            let info = mallinfo2()
            return Usage(inUse: Int(info.uordblks) + Int(info.hblkhd), free: Int(info.fordblks))
        }
    }

    /// Returns every free page the allocator can to the system (`malloc_trim(0)`: every arena, pages
    /// inside the heap as well as its top). Costs a walk of the free lists, so the daemon calls it
    /// only when the screen has just emptied or stopped changing, never on a timer. `before`: the
    /// usage as the caller just read it (reading it walks every free list too).
    static func trim(before: Usage = .now) -> (before: Usage, after: Usage) {
        malloc_trim(0)
        return (before, Usage.now)
    }

    /// Free heap up to this size stays with the allocator while toasts are shown (a toast's picture
    /// is ~100 KiB: a few toasts come and go without the pages going back and forth).
    static let keptWhileShown = 256 << 10
    /// Free heap up to this size stays when the screen empties: little, as nothing is drawn until the
    /// next toast, and the trim then is one walk of the free lists.
    static let keptWhenEmpty = 64 << 10

    /// Trims (`trim`) when more than `kept` bytes are free; nil when it did not.
    static func trimIfWorthIt(keeping kept: Int) -> (before: Usage, after: Usage)? {
        let before = Usage.now
        guard before.free > kept else { return nil }
        return trim(before: before)
    }
}

/// Process-wide allocator choices, made once at start.
enum MemoryRelease {
    /// How GLib's slice allocator (Pango's layout lines, items and lists) serves this process.
    ///
    /// GLib before 2.76 keeps freed slices in magazines carved from whole pages, and a page goes back
    /// only when every slice on it is free: after a storm of notifications in many scripts, ~8 MB of
    /// such pages stayed resident for good, out of reach of `malloc_trim`. Through malloc the same
    /// slices are trimmed with the rest of the heap (measured: 13.3 → 4.7 MB kept after the seeded
    /// storm of 4,000 notifications). `Sources/CMallocSlices` sets that before GLib starts, from the
    /// executable's `.preinit_array`, unless `G_SLICE` is in the environment.
    enum SliceAllocator: Equatable {
        /// Slices are malloc'd blocks: GLib 2.76 or newer, or set so at load.
        case malloc
        /// `G_SLICE` in the environment decides (the user's choice, left alone).
        case environment(String)
        /// Magazines: memory a storm of text leaves behind may never go back.
        case magazines
    }

    /// What serves GLib's slices, given the `G_SLICE` of the environment, the running GLib and
    /// whether the load-time setting took.
    static func sliceAllocator(gSlice: String?, glib: (major: Int, minor: Int), setAtLoad: Bool) -> SliceAllocator {
        if (glib.major, glib.minor) >= (2, 76) { return .malloc }
        if let gSlice { return .environment(gSlice) }
        return setAtLoad ? .malloc : .magazines
    }

    /// Says at start when GLib's slices are served by magazines, which keep what they once held.
    static func warnIfSlicesAreKept() {
        let allocator = sliceAllocator(gSlice: getenv("G_SLICE").map { String(cString: $0) },
                                       glib: GLibVersion.running,
                                       setAtLoad: toastd_glib_slices_set_to_malloc() != 0)
        if allocator == .magazines {
            Log.warning("GLib's slices are not served by malloc: memory a burst of text uses may not come back "
                        + "(start toastd with G_SLICE=always-malloc)")
        }
    }
}

extension Daemon {
    /// Renderer caches up to this size stay when the screen empties.
    static let cacheBytesKept = 512 << 10

    /// Nothing is on screen any more (the last toast and the HUD are gone): lets go of what drawing
    /// them cached (layouts, pictures, fallback fonts; see `ToastRenderer.releaseCaches`) when that is
    /// much, then of the allocator's free pages. Runs once per emptying, as the loop goes back to
    /// sleep; while idle there is no wakeup for it.
    func releaseMemory() {
        memoryReleaseDue = false
        heapTrimDue = false
        guard screen.isShowingNothing else { return }  // something new came in meanwhile
        // A toast or two come and go all day: their few hundred KiB of layouts and boxes make the
        // next one fast (dropping them cost the next toast ~0.5 ms). What a burst or other scripts
        // left behind is worth giving back.
        var freshFonts = false
        if renderer.cachedBytes > Self.cacheBytesKept || renderer.mayHoldFallbackFonts {
            // The daemon's one renderer holds its only cairo fonts (a reload's old renderer is gone by
            // now, and pictures are decoded without fonts), so cairo's font caches may be emptied too —
            // but only while the picture worker is idle: the reset also clears cairo's shared pools,
            // which a PNG being decoded on the worker thread uses.
            freshFonts = renderer.releaseCaches(scale: PixelScale(wayland.outputs.map(\.scale).max() ?? 1),
                                                resetCairoFontCaches: service.pictureWorker.isIdle)
        }
        // After a burst (more toasts open at once than a stack shows), the code it ran beyond one
        // toast's (the pill, the reflow) and the libraries' pages go back too; the next toast maps
        // back what it runs (~0.15 ms, once). Not after every toast: that would be paid every time.
        // And after the first toast since start: what it ran the first time (each type's metadata
        // made, looked up through the conformance records) does not run again.
        if busiestSinceEmpty > renderer.style.maxVisible || !emptiedSinceStart { mappedPagesDue = true }
        busiestSinceEmpty = 0
        emptiedSinceStart = true
        guard let (before, after) = freshFonts ? HeapTrim.trim() : HeapTrim.trimIfWorthIt(keeping: HeapTrim.keptWhenEmpty)
        else { return }
        let returned = max(0, before.free - after.free)
        if freshFonts || returned >= 1 << 20 {
            Log.info("idle: released \(freshFonts ? "fallback fonts and " : "")\(returned >> 10) KiB of free heap "
                     + "(heap: \(after.inUse >> 10) KiB in use, \(after.free >> 10) KiB free)")
        }
    }

    /// The overlays showed their last frame and nothing is to be drawn: the heap's free pages go back
    /// if there are many. Toasts that arrived in a burst, pushed under "+N more" and freed, leave
    /// their pictures' room behind (~0.6 MB after a hundred), and nothing else would take it back
    /// until the screen empties. Once per change that settles, never on a timer. After a burst, the
    /// pages it mapped go too (`BurstArrivals`), and that drop trims.
    func trimHeapIfWorthIt() {
        heapTrimDue = false
        // After a burst, the drop of its pages trims once it has found them (finding takes heap of its
        // own), in this turn unless work came in: a trim here too walked the free lists and `madvise`d the
        // same free pages twice.
        if burstArrivals.isBurst(maxVisible: renderer.style.maxVisible) {
            burstSettledDue = true
            return
        }
        _ = HeapTrim.trimIfWorthIt(keeping: HeapTrim.keptWhileShown)
    }
}
