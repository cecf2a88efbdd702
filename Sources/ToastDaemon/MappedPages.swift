import Glibc

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
/// is done once after start and when the screen empties after a burst, never after every toast.
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

    /// The mappings of `smaps` (the text of `/proc/self/smaps`) that are private, read-only (`r--p`,
    /// `r-xp`), backed by a file (a path, not `[vdso]` or an anonymous region) and hold no anonymous
    /// page, with pages resident.
    static func droppable(smaps: String) -> [Mapping] {
        var found: [Mapping] = []
        var current: Mapping?
        var currentResident = 0
        func finish() {
            if var mapping = current, currentResident > 0 {
                mapping.residentKiB = currentResident
                found.append(mapping)
            }
            current = nil
            currentResident = 0
        }
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if !first.hasSuffix(":") {
                // A mapping's header: "start-end perms offset dev inode path".
                finish()
                guard fields.count >= 6, fields[1] == "r--p" || fields[1] == "r-xp", fields[4] != "0",
                      fields[5].hasPrefix("/") else { continue }
                let bounds = first.split(separator: "-")
                guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                      end > start else { continue }
                current = Mapping(start: start, length: Int(end - start), residentKiB: 0)
            } else if current != nil, fields.count >= 2 {
                if first == "Rss:" {
                    currentResident = Int(fields[1]) ?? 0
                } else if first == "Anonymous:", fields[1] != "0" {
                    current = nil  // the process's own copies: never dropped
                }
            }
        }
        finish()
        return found
    }

    /// The `droppable` mappings of this process now (empty if `/proc/self/smaps` cannot be read).
    static func current() -> [Mapping] {
        readProcFile("/proc/self/smaps").map(droppable(smaps:)) ?? []
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

    /// The whole of a /proc file (its size is not known ahead: read until the end).
    private static func readProcFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes.append(contentsOf: chunk[..<n])
        }
    }
}

extension Daemon {
    /// After start, and after a burst once the screen emptied (`mappedPagesDue`), when the screen is
    /// empty and the loop is about to sleep: drops the pages they mapped (`MappedPages`). If a toast
    /// is shown (the bus started the daemon for it), this waits until the screen empties.
    func releaseMappedPages() {
        guard screen.isShowingNothing else { return }
        mappedPagesDue = false
        saveHistoryNow()
        let mappings = MappedPages.current()
        // Reading /proc/self/smaps took a few hundred KiB of heap, now free: back with the rest.
        // Before the pages go, so that the trim's code is not mapped back right after.
        _ = HeapTrim.trimIfWorthIt(keeping: HeapTrim.keptWhenEmpty)
        Log.info("idle: unmapping \(mappings.reduce(0) { $0 + $1.residentKiB }) KiB of code and read-only data")
        _ = MappedPages.release(mappings)
    }
}
