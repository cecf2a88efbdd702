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

    /// The mappings of `smaps` (the bytes of `/proc/self/smaps`) that are private, read-only (`r--p`,
    /// `r-xp`), backed by a file (a path, not `[vdso]` or an anonymous region) and hold no anonymous
    /// page, with pages resident. Works on the bytes, one pass: the file has ~20 lines per mapping and
    /// a few hundred mappings, and this runs on the loop.
    static func droppable(smaps: [UInt8]) -> [Mapping] {
        smaps.withUnsafeBufferPointer { droppable(smaps: $0) }
    }

    /// `droppable` over bytes in place.
    static func droppable(smaps bytes: UnsafeBufferPointer<UInt8>) -> [Mapping] {
        var found: [Mapping] = []
        var current: Mapping?
        var resident = 0
        guard let base = bytes.baseAddress else { return found }
        var lineStart = 0
        while lineStart <= bytes.count {
            let newline = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), bytes.count - lineStart)
            let lineEnd = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
            let line = bytes[lineStart..<lineEnd]
            lineStart = lineEnd + 1
            let first = line.first ?? UInt8(ascii: "0")  // the end: a header closes the last mapping
            // Headers start with a lowercase hex address; fields with a capitalised name ("Rss:").
            let isHeader = (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
                || (first >= UInt8(ascii: "a") && first <= UInt8(ascii: "f"))
            if isHeader {
                if var mapping = current, resident > 0 {
                    mapping.residentKiB = resident
                    found.append(mapping)
                }
                current = nil
                resident = 0
                if let header = Header(line), header.isCandidate {
                    current = Mapping(start: header.start, length: header.length, residentKiB: 0)
                }
            } else if current != nil {
                if first == UInt8(ascii: "R"), let kib = field(line, named: "Rss:") {
                    resident = kib
                } else if first == UInt8(ascii: "A"), let kib = field(line, named: "Anonymous:"), kib != 0 {
                    current = nil  // the process's own copies: never dropped
                }
            }
        }
        return found
    }

    /// A mapping's header line: "start-end perms offset dev inode path".
    private struct Header {
        var start: UInt
        var length: Int
        var isCandidate: Bool

        init?(_ line: Slice<UnsafeBufferPointer<UInt8>>) {
            // Field lines start with a name and a colon ("Rss:"); headers with a hex address and '-'.
            guard let dash = line.firstIndex(of: UInt8(ascii: "-")),
                  let space = line[dash...].firstIndex(of: UInt8(ascii: " ")),
                  let start = UInt(String(decoding: line[line.startIndex..<dash], as: UTF8.self), radix: 16),
                  let end = UInt(String(decoding: line[(dash + 1)..<space], as: UTF8.self), radix: 16), end > start
            else { return nil }
            self.start = start
            length = Int(end - start)
            let fields = line[(space + 1)...].split(separator: UInt8(ascii: " "), maxSplits: 4, omittingEmptySubsequences: true)
            let perms = fields.first.map { String(decoding: $0, as: UTF8.self) }
            isCandidate = fields.count == 5 && (perms == "r--p" || perms == "r-xp")
                && !(fields[3].count == 1 && fields[3].first == UInt8(ascii: "0"))  // inode 0: not a file
                && fields[4].first(where: { $0 != UInt8(ascii: " ") }) == UInt8(ascii: "/")
        }
    }

    /// The number of a field line `name  <n> kB`, or nil if the line is another field.
    private static func field(_ line: Slice<UnsafeBufferPointer<UInt8>>, named name: StaticString) -> Int? {
        let count = name.utf8CodeUnitCount
        guard line.count > count else { return nil }
        var i = line.startIndex
        for k in 0..<count {
            if line[i] != name.utf8Start[k] { return nil }
            i += 1
        }
        var value = 0
        while i < line.endIndex && line[i] == UInt8(ascii: " ") { i += 1 }
        while i < line.endIndex, line[i] >= UInt8(ascii: "0"), line[i] <= UInt8(ascii: "9") {
            value = value * 10 + Int(line[i] - UInt8(ascii: "0"))
            i += 1
        }
        return value
    }

    /// The `droppable` mappings of this process now (empty if `/proc/self/smaps` cannot be read).
    static func current() -> [Mapping] {
        withProcFile("/proc/self/smaps") { droppable(smaps: $0) } ?? []
    }

    /// Drops the page-table entries of `mappings`; returns the KiB that were resident in them.
    static func release(_ mappings: [Mapping]) -> Int {
        var released = 0
        for mapping in mappings {
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(address, mapping.length, MADV_DONTNEED) == 0 { released += mapping.residentKiB }
        }
        return released
    }

    /// Calls `body` with the whole of a /proc file (its size is not known ahead: read until the end),
    /// or returns nil if it cannot be read. Read into one malloc'd block: no per-byte copies.
    private static func withProcFile<T>(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var capacity = 256 << 10, used = 0
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

/// Whether a burst came since the mapped pages last went: more notifications arrived than a stack
/// shows. A burst runs code a single toast does not (every toast's first layout, the stack's reflow,
/// the "+N more" pill), so its pages go once the stack settles (its last frame shown, nothing more to
/// draw) even while its toasts are still shown: they may stay for minutes, or until dismissed, and
/// nothing runs meanwhile. The next change maps back what it runs, once per burst (~0.15 ms). Single
/// toasts, or a few, never drop anything: the next toast would pay for it every time.
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
        mappedPagesDue = false
        burstSettledDue = false
        burstArrivals.released(openNow: service.model.all.count)
        saveHistoryNow()
        // The timer set for what is still due: one left from a change that is over (a frame the screen
        // waited for, then got) would wake the loop right after the drop and map its code back.
        armTimer()
        let started = MonotonicClock.nanoseconds()
        let mappings = MappedPages.current()
        // Reading /proc/self/smaps took a few hundred KiB of heap, now free: back with the rest (but
        // for what the toasts still shown may take again). The trim and the log line before the pages
        // go, so that their code is not mapped back right after.
        _ = HeapTrim.trimIfWorthIt(keeping: whileShown ? HeapTrim.keptWhileShown : HeapTrim.keptWhenEmpty)
        let kib = mappings.reduce(0) { $0 + $1.residentKiB }
        Log.info("idle: unmapping \(kib) KiB of code and read-only data\(whileShown ? ", a burst still shown" : "") "
                 + "(found in \((MonotonicClock.nanoseconds() - started) / 1000) µs)")
        _ = MappedPages.release(mappings)
    }
}
