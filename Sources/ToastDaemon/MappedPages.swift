import CLinux
import Glibc
import ToastVocabulary

/// Letting go of the code and read-only data mapped for work that is over: starting, or a burst.
///
/// Why: starting runs code no toast runs again (the configuration's parser, the Wayland registry,
/// the bus handshake, fontconfig reading its configuration, the fonts' prewarm), a burst runs code a
/// single toast does not (the "+N more" pill, the stack's reflow), and the kernel maps every faulted
/// file page with its neighbours (a whole 64 KiB folio here, more for some libraries). Those pages
/// stayed mapped for the life of the daemon: at idle ~2.5 MB of toastd's own text and read-only data
/// (its private memory) and ~10 MB of the libraries' (shared with other programs). `MADV_DONTNEED` on
/// a private file mapping that holds no page of its own only drops the daemon's page-table entries:
/// the pages stay in the page cache, and the next toast maps back what it runs in a minor fault per
/// folio. That costs the next toast ~0.15 ms (docs/benchmarks.md, "toastd's memory at idle"), so it
/// is done once after start, when the screen first empties after start (what the first toast ran the
/// first time), and after a burst (once its stack settles, and when the screen empties), never after
/// every toast.
///
/// Only mappings that can hold nothing but the file's own bytes are touched: private, read-only,
/// backed by a file, and without a single anonymous page (relocated data — RELRO — is read-only too,
/// but its pages are the process's own copies, which `MADV_DONTNEED` would throw away).
enum MappedPages {
    /// A mapping whose pages may be dropped.
    struct Mapping: Equatable {
        var start: UInt
        var length: Int
        var residentKiB: Int
    }

    /// The mappings of `maps` (the bytes of `/proc/self/maps`) that may hold nothing but a file's
    /// bytes: private, read-only (`r--p`, `r-xp`) and backed by a file (a path and an inode, not
    /// `[vdso]` or an anonymous region); `residentKiB` is not known yet (0). Whether one holds a page
    /// of the process's own is for `residentPages(pagemap:)`: `maps` costs the kernel a line per
    /// mapping, where `smaps` walked every mapping's page tables and summed each page's sharing. One
    /// pass over the bytes: this runs on the loop.
    static func candidates(maps: [UInt8]) -> [Mapping] {
        maps.withUnsafeBufferPointer { candidates(maps: $0) }
    }

    /// `candidates` over bytes in place.
    static func candidates(maps bytes: UnsafeBufferPointer<UInt8>) -> [Mapping] { MapsSummary(maps: bytes).candidates }

    /// Calls `body` with each line of `bytes` (without its newline), in place.
    static func forEachLine(of bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var lineStart = 0
        while lineStart < bytes.count {
            let newline = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), bytes.count - lineStart)
            let lineEnd = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
            body(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
            lineStart = lineEnd + 1
        }
    }

    /// Where the main thread's stack is mapped now (the `[stack]` line of `maps`; its start moves down
    /// as the stack grows), nil if `maps` has no such line.
    static func stack(maps: [UInt8]) -> Range<UInt>? {
        maps.withUnsafeBufferPointer { stack(maps: $0) }
    }

    /// `stack` over bytes in place.
    static func stack(maps bytes: UnsafeBufferPointer<UInt8>) -> Range<UInt>? { MapsSummary(maps: bytes).stack }

    /// The mapping of a line of `maps`, if a candidate.
    fileprivate static func candidate(_ parsed: MapsLine) -> Mapping? {
        // Inode 0: not a file ("[vdso]", anonymous code); a file's path starts with '/'.
        guard parsed.permissions == .readOnly || parsed.permissions == .readExecute,
              parsed.isFile, parsed.path.first == UInt8(ascii: "/")
        else { return nil }
        return Mapping(start: parsed.addresses.lowerBound, length: Int(parsed.addresses.count), residentKiB: 0)
    }

    /// One page's entry in `/proc/self/pagemap`: its bits that tell whose the page is.
    enum PagemapBit {
        static let present: UInt64 = 1 << 63
        static let swapped: UInt64 = 1 << 62
        /// A page of a file (or shared anonymous memory): clear for a present or swapped page, it is
        /// the process's own copy.
        static let file: UInt64 = 1 << 61
    }

    /// The pages a mapping holds, from its pages' `pagemap` entries; nil if one of them is the
    /// process's own (an anonymous page: relocated data, a debugger's breakpoint in the text),
    /// which `MADV_DONTNEED` would throw away.
    static func residentPages(pagemap entries: UnsafeBufferPointer<UInt64>) -> Int? {
        var present = 0
        for entry in entries where entry & (PagemapBit.present | PagemapBit.swapped) != 0 {
            if entry & PagemapBit.file == 0 { return nil }
            if entry & PagemapBit.present != 0 { present += 1 }
        }
        return present
    }

    /// The mappings of this process whose pages may be dropped now (`candidates` holding pages, none
    /// of them the process's own), with what they hold resident; empty if `/proc/self/maps` or
    /// `/proc/self/pagemap` cannot be read.
    static func current() -> [Mapping] { found().mappings }

    /// What an idle moment may let go of, from one read of `maps`.
    struct Found {
        /// `current`.
        var mappings: [Mapping]
        /// Where the main thread's stack is (`stack(maps:)`).
        var stack: Range<UInt>?
        /// `IdlePages.regions(maps:)`; none while another thread runs (`IdlePages.release` says why).
        var idle: [IdlePages.Region]
        /// What this read of `maps` found that a later drop may look at again (nil: none read).
        var known: Known?
    }

    /// The candidates and the main thread's stack as a drop last read them from `maps`. A drop while a
    /// burst is still shown looks at these again instead of reading `maps` (`found(among:)`): reading it
    /// cost ~0.5 ms a drop (~1.7 µs a mapping, 290 of them), and the idle pages, which need it, ~0.4 ms
    /// more; the drop when the screen empties reads it all again.
    ///
    /// Why a list that may be stale is safe: each mapping is checked in the pagemap before it goes
    /// (`current(candidates:)`), and `MADV_DONTNEED` drops only what reads back the same: a range that
    /// now holds a page of the process's own is left alone, one unmapped since holds nothing, and a
    /// file's or shared memory's pages are read again at their next touch. What such a list misses (a
    /// font or library mapped since) stays until that next drop. Idle pages are never looked for in a
    /// list read earlier: a region that was anonymous then may be a file's now, whose zeroed page of
    /// its own would read back as the file.
    struct Known: Equatable {
        var candidates: [Mapping]
        var stack: Range<UInt>?
    }

    /// `current`, the main thread's stack and the regions that may hold idle pages, these only when
    /// `alone` (`runsAlone`, counted by the caller before: only the caller's thread starts others,
    /// Pango's while it lays text out, and the first use of the parsing that counting takes would map
    /// back code and metadata right after the drop).
    static func found(alone: Bool = false) -> Found {
        guard let maps = withProcFile("/proc/self/maps", { MapsSummary(maps: $0) }) else {
            return Found(mappings: [], stack: nil, idle: [], known: nil)
        }
        return Found(mappings: current(candidates: maps.candidates), stack: maps.stack, idle: alone ? maps.idle : [],
                     known: Known(candidates: maps.candidates, stack: maps.stack))
    }

    /// `found` from what an earlier read of `maps` found (`Known`, which says why that is safe): the
    /// candidates that hold pages now, none of them the process's own, and the stack; no idle pages.
    static func found(among known: Known) -> Found {
        Found(mappings: current(candidates: known.candidates), stack: known.stack, idle: [], known: nil)
    }

    /// Whether this process runs one thread now (`/proc/self/stat`): the idle pages may go only then.
    static func runsAlone() -> Bool {
        withProcFile("/proc/self/stat") { IdlePages.threads(stat: $0) } == 1
    }

    /// Which of `candidates` hold pages, none of them the process's own, read from `/proc/self/pagemap`.
    private static func current(candidates: [Mapping]) -> [Mapping] {
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return [] }
        defer { close(pagemap) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let entrySize = MemoryLayout<UInt64>.stride
        // 64 KiB of entries at a time: 32 MiB of address space.
        let chunk = 8192
        let widestGap = Self.widestGap
        guard let buffer = malloc(chunk * entrySize) else { return [] }
        defer { free(buffer) }
        let entries = buffer.bindMemory(to: UInt64.self, capacity: chunk)
        func pageRange(of mapping: Mapping) -> Range<Int> {
            Int(mapping.start) / pageSize ..< Int(mapping.start) / pageSize + mapping.length / pageSize
        }
        // The pages whose entries `entries` holds.
        var window = 0..<0
        var found: [Mapping] = []
        candidates: for (index, var mapping) in candidates.enumerated() {
            let pages = pageRange(of: mapping)
            var resident = 0
            var page = pages.lowerBound
            while page < pages.upperBound {
                if !window.contains(page) {
                    // Up to the end of this mapping, and of those after it that start close to the last.
                    var end = pages.upperBound
                    for next in candidates[(index + 1)...] {
                        let nextPages = pageRange(of: next)
                        guard nextPages.lowerBound >= end, nextPages.lowerBound - end <= widestGap,
                              nextPages.upperBound - page <= chunk else { break }
                        end = nextPages.upperBound
                    }
                    let count = min(chunk, end - page)
                    guard pread(pagemap, buffer, count * entrySize, off_t(page * entrySize)) == count * entrySize else {
                        window = 0..<0
                        continue candidates  // unmapped meanwhile: left alone
                    }
                    window = page..<(page + count)
                }
                let upTo = min(pages.upperBound, window.upperBound)
                let inWindow = UnsafeBufferPointer(start: entries + (page - window.lowerBound), count: upTo - page)
                // A page of its own: left alone.
                guard let held = residentPages(pagemap: inWindow) else { continue candidates }
                resident += held
                page = upTo
            }
            guard resident > 0 else { continue }
            mapping.residentKiB = resident * pageSize / 1024
            found.append(mapping)
        }
        return found
    }

    /// The most pages between two mappings whose pagemap entries one read takes, the gap's included. A
    /// library's segments lie close together (its writable data between them), and so do many small
    /// mappings: one read covers them all, gaps included, while the gap costs less than a system call
    /// (~200 candidates; a page's entry in a gap costs the kernel a few ns).
    static let widestGap = 256

    /// `mappings` (in address order) with each run of mappings that adjoin one another made one: a
    /// library's headers, code and read-only data are three mappings end to end, and one `madvise`
    /// drops all three (36 calls a drop → 20).
    static func joined(_ mappings: [Mapping]) -> [Mapping] {
        var joined: [Mapping] = []
        joined.reserveCapacity(mappings.count)
        for mapping in mappings {
            if let last = joined.last, last.start + UInt(last.length) == mapping.start {
                joined[joined.count - 1].length += mapping.length
                joined[joined.count - 1].residentKiB += mapping.residentKiB
            } else {
                joined.append(mapping)
            }
        }
        return joined
    }

    /// Drops the page-table entries of `mappings`; returns the KiB that were resident in them.
    static func release(_ mappings: [Mapping]) -> Int {
        var released = 0
        for mapping in joined(mappings) {
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(address, mapping.length, MADV_DONTNEED) == 0 { released += mapping.residentKiB }
        }
        return released
    }

    /// The pages of the main thread's stack (mapped at `stack`) that lie more than `margin` bytes below
    /// `frame` (an address in the running function's frame), page-aligned; empty if none.
    ///
    /// Why they may go: what lies below the running frame is dead (the frames of calls that returned;
    /// the next calls write their frames before reading them), and a page of anonymous memory dropped
    /// with `MADV_DONTNEED` comes back zeroed at its next touch. The margin keeps the pages the calls
    /// this one still makes use (the `madvise` itself, the C library's wrapper, a signal's frame).
    static func unusedStack(_ stack: Range<UInt>, frame: UInt, margin: Int, pageSize: Int) -> Range<UInt> {
        guard stack.contains(frame), frame - stack.lowerBound > UInt(margin) else { return stack.lowerBound..<stack.lowerBound }
        let end = (frame - UInt(margin)) & ~UInt(pageSize - 1)
        return stack.lowerBound..<max(stack.lowerBound, end)
    }

    /// Drops the pages of the main thread's stack below the caller's frame (`unusedStack`): start ran
    /// ~100 KiB deep (the configuration's parser, fontconfig and Pango's set-up) and those pages stayed
    /// resident, while the loop runs a few KiB deep. Only for the main thread, whose stack `stack` is.
    @inline(never)
    static func releaseUnusedStack(_ stack: Range<UInt>) {
        var here = 0
        let frame = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let unused = unusedStack(stack, frame: frame, margin: 4 * pageSize, pageSize: pageSize)
        guard !unused.isEmpty, let address = UnsafeMutableRawPointer(bitPattern: unused.lowerBound) else { return }
        madvise(address, Int(unused.upperBound - unused.lowerBound), MADV_DONTNEED)
    }

    /// Calls `body` with the whole of a /proc file (its size is not known ahead: read until the end),
    /// or returns nil if it cannot be read. Read into one malloc'd block: no per-byte copies.
    static func withProcFile<T>(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // maps: ~100 bytes a mapping, a few hundred mappings; grown if not enough.
        var capacity = 64 << 10, used = 0
        guard var buffer = malloc(capacity) else { return nil }
        defer { free(buffer) }
        while true {
            if used == capacity {
                guard let grown = realloc(buffer, capacity * 2) else { return nil }
                buffer = grown
                capacity *= 2
            }
            let n = read(fd, buffer + used, capacity - used)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { break }
            used += n
        }
        return body(UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self), count: used))
    }
}

/// The process's writable memory that reads back the same if dropped: pages of its own that hold only
/// zeros, and pages of its writable file mappings (a program's and its libraries' data) never written.
///
/// Why: at idle the heap held ~100 KiB of zeroed pages (FreeType's hinting contexts and other
/// blocks cleared at allocation and never filled), and the binary's data segment ~50 KiB read but
/// never written (the backtracer's buffers, read with their neighbours); `MADV_DONTNEED` gives both
/// back, and a later touch maps a zero page or the file's page again. Only while the process runs a
/// single thread: a page found zeroed or unwritten must not be written before it goes, and the loop
/// that finds and drops them (`clinux_drop_idle_pages`, in C) writes nothing else.
enum IdlePages {
    struct Region: Equatable {
        var addresses: Range<UInt>
        var kind: clinux_idle_pages_kind
    }

    /// The regions of `maps` whose idle pages may go: private anonymous memory (the heap, malloc's
    /// arenas, the binary's zero-initialised data) for zeroed pages, private writable file mappings
    /// for unwritten ones. Never the main thread's stack (the loop runs on it) nor a device's mapping.
    static func regions(maps: [UInt8]) -> [Region] {
        maps.withUnsafeBufferPointer { regions(maps: $0) }
    }

    /// `regions` over bytes in place.
    static func regions(maps bytes: UnsafeBufferPointer<UInt8>) -> [Region] { MapsSummary(maps: bytes).idle }

    /// The region of a line of `maps`, if its idle pages may go.
    fileprivate static func region(_ parsed: MapsLine) -> Region? {
        guard parsed.permissions == .readWrite else { return nil }
        if !parsed.isFile, parsed.path.isEmpty || parsed.path.elementsEqual("[heap]".utf8) {
            return Region(addresses: parsed.addresses, kind: CLINUX_IDLE_PAGES_ZEROED)
        } else if parsed.isFile, parsed.path.first == UInt8(ascii: "/"), !parsed.path.starts(with: "/dev/".utf8) {
            return Region(addresses: parsed.addresses, kind: CLINUX_IDLE_PAGES_UNWRITTEN)
        }
        return nil
    }

    /// The number of threads `/proc/self/stat` counts (its 20th field, the 18th after the command's
    /// closing parenthesis); nil if it cannot be read.
    static func threads(stat bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 17 else { return nil }
        return Int(String(decoding: fields[17], as: UTF8.self))
    }

    /// Drops the idle pages of `regions` (`clinux_drop_idle_pages`); returns the bytes dropped. Only
    /// while no other thread runs (`MappedPages.found` counts them): another might write a page between
    /// the look and the drop.
    static func release(_ regions: [Region]) -> Int {
        guard !regions.isEmpty else { return 0 }
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return 0 }
        defer { close(pagemap) }
        let capacity = 8192
        guard let entries = malloc(capacity * MemoryLayout<UInt64>.stride)?.bindMemory(to: UInt64.self, capacity: capacity)
        else { return 0 }
        defer { free(entries) }
        let cRegions = regions.map {
            clinux_idle_region(start: $0.addresses.lowerBound, end: $0.addresses.upperBound, kind: $0.kind)
        }
        return cRegions.withUnsafeBufferPointer {
            clinux_drop_idle_pages($0.baseAddress, $0.count, pagemap, entries, capacity, MappedPages.widestGap)
        }
    }
}

/// What the drop looks for in `/proc/self/maps`, from one pass over its lines (each parsed once): the
/// candidates (`MappedPages.candidates`), the main thread's stack (`MappedPages.stack`) and the
/// regions that may hold idle pages (`IdlePages.regions`).
struct MapsSummary {
    var candidates: [MappedPages.Mapping] = []
    var stack: Range<UInt>?
    var idle: [IdlePages.Region] = []

    init(maps bytes: UnsafeBufferPointer<UInt8>) {
        MappedPages.forEachLine(of: bytes) { line in
            guard let parsed = MapsLine(line) else { return }
            if let mapping = MappedPages.candidate(parsed) {
                candidates.append(mapping)
            } else if let region = IdlePages.region(parsed) {
                idle.append(region)
            } else if stack == nil, parsed.path.elementsEqual("[stack]".utf8) {
                stack = parsed.addresses
            }
        }
    }
}

/// A mapping's permissions in `/proc/self/maps` ("r-xp", "rw-p", "r--s"…), its four bytes in one word:
/// compared without a string made for each line.
struct MapsPermissions: Equatable {
    var word: UInt32

    init(_ bytes: some Sequence<UInt8>) {
        word = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    static let readOnly = MapsPermissions("r--p".utf8)
    static let readExecute = MapsPermissions("r-xp".utf8)
    static let readWrite = MapsPermissions("rw-p".utf8)
}

/// One line of `/proc/self/maps`, "start-end perms offset device inode   path", read in place.
struct MapsLine {
    var addresses: Range<UInt>
    var permissions: MapsPermissions
    /// Backed by a file (a non-zero inode), not anonymous memory or "[vdso]".
    var isFile: Bool
    /// The path, "[heap]" or "[stack]", or nothing (anonymous memory); after the spaces that pad it.
    var path: UnsafeBufferPointer<UInt8>

    init?(_ line: UnsafeBufferPointer<UInt8>) {
        var i = 0
        /// The hexadecimal number at `i`, up to `terminator`, which is skipped.
        func hex(until terminator: UInt8) -> UInt? {
            var value: UInt = 0, digits = 0
            while i < line.count, line[i] != terminator {
                let c = line[i] | 0x20  // lowercase
                guard (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f")),
                      digits < 16 else { return nil }
                value = value << 4 | UInt(c <= UInt8(ascii: "9") ? c - UInt8(ascii: "0") : c - UInt8(ascii: "a") + 10)
                digits += 1
                i += 1
            }
            guard digits > 0, i < line.count else { return nil }
            i += 1
            return value
        }
        /// Skips the field at `i` and the spaces after it; returns where the field was.
        @discardableResult func skipField() -> Range<Int> {
            let start = i
            while i < line.count, line[i] != UInt8(ascii: " ") { i += 1 }
            let field = start..<i
            while i < line.count, line[i] == UInt8(ascii: " ") { i += 1 }
            return field
        }
        // Beyond Int's range is the kernel's half of the address space ([vsyscall]): never the process's.
        guard let start = hex(until: UInt8(ascii: "-")), let end = hex(until: UInt8(ascii: " ")), end > start,
              end <= UInt(Int.max)
        else { return nil }
        let permissions = skipField()
        skipField()  // offset
        skipField()  // device
        let inode = skipField()
        guard permissions.count == 4, !inode.isEmpty else { return nil }
        addresses = start..<end
        self.permissions = MapsPermissions(line[permissions])
        isFile = !(inode.count == 1 && line[inode.lowerBound] == UInt8(ascii: "0"))
        path = UnsafeBufferPointer(rebasing: line[i...])
    }
}

/// Whether a burst came since the mapped pages last went: more notifications arrived than a stack
/// shows, and more were open at once than it shows. A burst runs code a single toast does not (every toast's first layout, the stack's reflow,
/// the "+N more" pill), so its pages go once the stack settles (its last frame shown, nothing more to
/// draw) even while its toasts are still shown: they may stay for minutes, or until dismissed, and
/// nothing runs meanwhile. The next change maps back what it runs, once per burst (~0.5 ms on the next
/// toast's first commit, measured). Toasts that come one at a time never drop anything: the next toast
/// would pay for it every time.
/// The first drop after start and Pango's threads: Pango sorts each new fontset's fonts on a thread
/// of its own, which the prewarm's layouts start and which runs ~10 ms after them (longer on a busy
/// machine), so when the loop first goes idle it often still runs, and the idle pages may not go while
/// it does (`IdlePages.release`). The drop is then put off and the loop's sleep cut short to try it
/// again, rather than the loop waiting (a client that came meanwhile would wait too): for `patience` at
/// most, after which the drop goes without the idle pages.
struct StartThreadsWait {
    /// How long the drop is put off at most, from the first time.
    static let patience: Int64 = 200_000_000
    /// How soon the loop tries again, in milliseconds.
    static let retryMilliseconds: Int32 = 5
    /// When the drop was first put off (monotonic ns).
    private var since: Int64?

    /// Whether to put the drop off now: other threads run (not `alone`), it is the drop after start
    /// (`atStart`), and it has not been put off for `patience` yet.
    mutating func putOff(alone: Bool, atStart: Bool, now: Int64) -> Bool {
        guard !alone, atStart else { return false }
        let first = since ?? now
        since = first
        return now - first < Self.patience
    }
}

struct BurstArrivals {
    /// The newest notification's id when the pages last went (nil: no notification seen since start).
    private var newestAtRelease: NotificationID?
    private var newest: NotificationID?
    /// The most notifications open at once since the pages last went.
    private(set) var mostOpen = 0

    /// Notes the newest open notification's id (ids are handed out in order, wrapping) and how many
    /// are open.
    mutating func saw(newest id: NotificationID, open: Int) {
        if newestAtRelease == nil { newestAtRelease = id &- 1 }
        newest = id
        mostOpen = max(mostOpen, open)
    }

    /// Notifications that arrived since the pages last went.
    var sinceRelease: Int {
        guard let newest, let newestAtRelease else { return 0 }
        return Int(newest &- newestAtRelease)
    }

    /// More arrived since the pages last went than a stack of `maxVisible` shows, and more were open
    /// at once than it shows: the stack overflowed. Toasts that come and go one at a time, however
    /// many over a day, are not a burst: their code stays mapped for the next one.
    func isBurst(maxVisible: Int) -> Bool { sinceRelease > maxVisible && mostOpen > maxVisible }

    /// The pages went: arrivals and the most open count from here.
    mutating func released(openNow: Int) {
        if let newest { newestAtRelease = newest }
        mostOpen = openNow
    }
}

extension Daemon {
    /// After start, and after a burst once the screen emptied (`mappedPagesDue`), when the screen is
    /// empty and the loop is about to sleep; or after a burst once the stack settled with its toasts
    /// shown (`burstSettledDue`, `BurstArrivals`): drops the pages they mapped (`MappedPages`). If a
    /// toast is shown at start (the bus started the daemon for it), this waits until the screen empties.
    func releaseMappedPages() {
        let whileShown = burstSettledDue && !screen.isShowingNothing
        guard screen.isShowingNothing || burstSettledDue else { return }
        // While a burst is still shown, only the mappings the last full drop found are looked at
        // (`MappedPages.Known`): no read of maps, no idle pages, so no thread to count or wait for.
        let known = whileShown ? knownMappings : nil
        let alone = known == nil && MappedPages.runsAlone()
        if known == nil, startThreadsWait.putOff(alone: alone, atStart: !emptiedSinceStart, now: MonotonicClock.nanoseconds()) {
            mappedPagesRetrySoon = true  // the flags stay: the next turn tries again
            return
        }
        mappedPagesDue = false
        burstSettledDue = false
        burstArrivals.released(openNow: service.model.all.count)
        saveHistoryNow()
        let started = MonotonicClock.nanoseconds()
        let found = known.map { MappedPages.found(among: $0) } ?? MappedPages.found(alone: alone)
        if let fresh = found.known { knownMappings = fresh }
        let mappings = found.mappings
        // Finding them took heap (the bytes of maps, pagemap's entries), now free: back with the rest (but
        // for what the toasts still shown may take again). The trim and the log line before the pages
        // go, so that their code is not mapped back right after.
        _ = HeapTrim.trimIfWorthIt(keeping: whileShown ? HeapTrim.keptWhileShown : HeapTrim.keptWhenEmpty)
        let idleKiB = IdlePages.release(found.idle) >> 10
        // Work that came in meanwhile (finding and trimming took a millisecond or two: a client that
        // connected as the daemon started) would map its code back right after the drop: it runs first,
        // and the pages go at the next idle turn.
        if loop.hasReadyEvents {
            if whileShown { burstSettledDue = true } else { mappedPagesDue = true }
            return
        }
        let kib = mappings.reduce(0) { $0 + $1.residentKiB }
        Log.info("idle: unmapping \(kib) KiB of code and read-only data\(whileShown ? ", a burst still shown" : ""), "
                 + "\(idleKiB) KiB of zeroed or unwritten data (found in \((MonotonicClock.nanoseconds() - started) / 1000) µs)")
        _ = MappedPages.release(mappings)
        if let stack = found.stack { MappedPages.releaseUnusedStack(stack) }
    }
}
