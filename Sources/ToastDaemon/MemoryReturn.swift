import CLinux
import CMallocSlices
import Glibc
import ToastCore
import ToastPlatform
import ToastRender
import ToastVocabulary

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

    /// Trims (`trim`) when more than `kept` bytes are free; nil when it did not.
    static func trimIfWorthIt(keeping kept: Int) -> (before: Usage, after: Usage)? {
        let before = Usage.now
        guard before.free > kept else { return nil }
        return trim(before: before)
    }
}

/// Process-wide allocator choices, made once at start.
enum MemoryRelease {
    /// Whether malloc serves the whole process from one arena (`Sources/CMallocSlices/malloc_arenas.c`:
    /// set at load unless MALLOC_ARENA_MAX or GLIBC_TUNABLES is in the environment).
    static var arenasLimitedAtLoad: Bool { toastd_malloc_arenas_limited() != 0 }

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

/// When the daemon gives memory back, decided from what the screen did: pure, tested on a hand clock.
///
/// Two moments, never a timer of its own: the screen **emptied** (the last toast and the HUD gone), when the
/// renderer's caches beyond `cacheBytesKept` and the allocator's free pages beyond `keptWhenEmpty` go; and
/// the screen **settled** (a surface showed its last frame), when free heap beyond `keptWhileShown` goes —
/// a burst pushed under "+N more" leaves its pictures' room behind. A settle comes after every fade, so
/// trims while shown are at most one per `settledInterval`; the next settle or the emptying catches up.
struct MemoryReturnPolicy {
    /// What to give back now.
    enum Step: Equatable {
        /// Renderer caches (if over their bound), then free heap beyond `keeping` bytes.
        case emptied(keeping: Int)
        /// Free heap beyond `keeping` bytes.
        case settled(keeping: Int)
    }

    /// Renderer caches up to this size stay when the screen empties: a toast or two come and go all
    /// day, and their few hundred KiB of layouts and boxes make the next one fast (dropping them cost
    /// the next toast ~0.5 ms).
    static let cacheBytesKept = 512 << 10
    /// Free heap kept while toasts are shown (a toast's picture is ~100 KiB: a few come and go without
    /// the pages going back and forth).
    static let keptWhileShown = 256 << 10
    /// Free heap kept once the screen is empty: little, as nothing is drawn until the next toast.
    static let keptWhenEmpty = 64 << 10
    /// Trims while shown are at least this far apart.
    static let settledInterval: Milliseconds = 1000

    private var emptied = false
    private var settled = false
    private var lastSettledTrim: Instant?

    mutating func screenEmptied() { emptied = true }
    /// Start-up is over: what it freed (fontconfig's and Pango's set-up on their threads, the prewarm's
    /// scratch layouts; ~180 KiB of free heap measured) goes back as when the screen empties.
    mutating func started() { emptied = true }
    mutating func screenSettled() { settled = true }

    /// Called once per loop turn, before sleeping: the step due now, if any. `showingNothing`: the screen
    /// as it is now (an emptying that something new followed within the turn gives back nothing).
    mutating func due(showingNothing: Bool, now: Instant) -> Step? {
        defer { emptied = false; settled = false }
        if emptied, showingNothing { return .emptied(keeping: Self.keptWhenEmpty) }
        guard settled || emptied else { return nil }
        if let last = lastSettledTrim, now < last + Self.settledInterval { return nil }
        lastSettledTrim = now
        return .settled(keeping: Self.keptWhileShown)
    }
}

extension Daemon {
    /// Gives back what `memoryPolicy` says is due; called once per loop turn, before it sleeps.
    func returnMemoryIfDue() {
        guard let step = memoryPolicy.due(showingNothing: screen.isShowingNothing, now: Self.now()) else { return }
        switch step {
        case .emptied(let kept):
            // What a burst or other scripts left in the renderer's caches goes, and with the fallback
            // fonts cairo's font caches — but only while the picture worker is idle: that reset also
            // clears cairo's shared pools, which a PNG being decoded on the worker thread uses.
            var freshFonts = false
            if renderer.cachedBytes > MemoryReturnPolicy.cacheBytesKept || renderer.mayHoldFallbackFonts {
                freshFonts = renderer.releaseCaches(scale: PixelScale(wayland.outputs.map(\.scale).max() ?? 1),
                                                    resetCairoFontCaches: service.pictureWorker.isIdle)
            }
            guard let (before, after) = freshFonts ? HeapTrim.trim() : HeapTrim.trimIfWorthIt(keeping: kept) else { return }
            let returned = max(0, before.free - after.free)
            if freshFonts || returned >= 1 << 20 {
                Log.info("idle: released \(freshFonts ? "fallback fonts and " : "")\(returned >> 10) KiB of free heap "
                         + "(heap: \(after.inUse >> 10) KiB in use, \(after.free >> 10) KiB free)")
            }
        case .settled(let kept):
            _ = HeapTrim.trimIfWorthIt(keeping: kept)
        }
    }
}
