import CLinux
@testable import ToastDaemon
import ToastVocabulary
import XCTest

/// Which mappings the daemon drops once started: only those that hold nothing but a file's bytes.
final class MappedPagesTests: XCTestCase {
    /// The shape of /proc/self/maps.
    private static let maps = """
        55d0a0000000-55d0a01c7000 r--p 00000000 fe:00 16278532                   /usr/bin/toastd
        55d0a01c7000-55d0a07eb000 r-xp 001c6000 fe:00 16278532                   /usr/bin/toastd
        55d0a0829000-55d0a0965000 rw-p 00826000 fe:00 16278532                   /usr/bin/toastd
        55d0a1000000-55d0a1100000 rw-p 00000000 00:00 0                          [heap]
        7f0000000000-7f0000080000 r--p 00000000 fe:00 200                        /usr/share/fonts/DejaVu Sans.ttf
        7f0000080000-7f0000090000 ---p 00000000 00:00 0
        7f0000200000-7f0000300000 r--s 00000000 00:01 300                        /memfd:wayland-shm (deleted)
        7f0000300000-7f0000301000 rwxp 00000000 fe:00 201                        /usr/lib/libjit.so
        7f0000400000-7f0000401000 r-xp 00000000 00:00 0                          [vdso]
        7f0000500000-7f0000600000 r-xp 00028000 fe:00 400                        /usr/lib/libc.so.6
        7f0000600000-7f0000601000 r-xp 00000000 00:00 0
        7fffd0000000-7fffd0021000 rw-p 00000000 00:00 0                          [stack]
        ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
        """

    /// The whole of a /proc file (`String(contentsOfFile:)` reads only its first page).
    private static func procFile(_ path: String) throws -> String {
        String(decoding: try XCTUnwrap(FileHandle(forReadingAtPath: path)).readDataToEndOfFile(), as: UTF8.self)
    }

    func testTheCandidatesArePrivateReadOnlyFileMappings() {
        XCTAssertEqual(MappedPages.candidates(maps: Array(Self.maps.utf8)), [
            .init(start: 0x55d0_a000_0000, length: 0x1c7000, residentKiB: 0),  // headers, metadata
            .init(start: 0x55d0_a01c_7000, length: 0x624000, residentKiB: 0),  // text
            .init(start: 0x7f00_0000_0000, length: 0x80000, residentKiB: 0),  // a font (a space in its path)
            .init(start: 0x7f00_0050_0000, length: 0x100000, residentKiB: 0),  // a library's text
        ], "writable, shared and inaccessible mappings, [vdso], [vsyscall] and anonymous code are left alone")
    }

    func testALineCutShortOrGarbledIsNoCandidate() {
        for line in ["7f0000500000-7f0000600000 r-xp 00028000 fe:00 400",  // no path
                     "7f0000500000-7f0000600000 r-xp",
                     "7f0000500000 r-xp 00028000 fe:00 400 /usr/lib/libc.so.6",  // no end
                     "7f0000600000-7f0000500000 r-xp 00028000 fe:00 400 /usr/lib/libc.so.6",  // end before start
                     "7f00005g0000-7f0000600000 r-xp 00028000 fe:00 400 /usr/lib/libc.so.6",  // not hex
                     "10000000000000000-10000000000000001 r-xp 00000000 fe:00 400 /usr/lib/libc.so.6",  // > 64 bits
                     "ffffffffff600000-ffffffffff601000 r-xp 00000000 fe:00 400 /usr/lib/libc.so.6",  // the kernel's half
                     ""] {
            XCTAssertEqual(MappedPages.candidates(maps: Array(line.utf8)), [], line)
        }
        // The last line needs no newline, and a newline at the end adds nothing.
        let line = "7f0000500000-7f0000600000 r-xp 00028000 fe:00 400 /usr/lib/libc.so.6"
        XCTAssertEqual(MappedPages.candidates(maps: Array((line + "\n").utf8)), MappedPages.candidates(maps: Array(line.utf8)))
        XCTAssertEqual(MappedPages.candidates(maps: Array(line.utf8)).count, 1)
    }

    func testResidentPagesCountOnlyTheFilesPagesThatArePresent() {
        typealias Bit = MappedPages.PagemapBit
        let entries: [UInt64] = [
            0,  // not faulted in
            Bit.present | Bit.file | 0x1234,  // a page of the file (the frame number, hidden from us: 0 or not)
            Bit.file,  // a file page not present (no frame, no swap): nothing
            Bit.present | Bit.file | 1 << 56,  // mapped by this process only: still the file's
            Bit.swapped | Bit.file,  // a file page being moved (a migration entry): the file's, not present
        ]
        XCTAssertEqual(entries.withUnsafeBufferPointer { MappedPages.residentPages(pagemap: $0) }, 2)
        XCTAssertEqual([UInt64]().withUnsafeBufferPointer { MappedPages.residentPages(pagemap: $0) }, 0)
    }

    func testAPageOfTheProcesssOwnAnywhereKeepsTheMapping() {
        typealias Bit = MappedPages.PagemapBit
        // Relocated data, or a debugger's breakpoint in the text: a page copied on write, anonymous.
        for own in [Bit.present, Bit.swapped, Bit.present | 1 << 56] {
            let entries = [Bit.present | Bit.file, 0, own, Bit.present | Bit.file]
            XCTAssertNil(entries.withUnsafeBufferPointer { MappedPages.residentPages(pagemap: $0) }, "\(own)")
        }
    }

    func testMappingsEndToEndAreDroppedAsOne() {
        let mappings: [MappedPages.Mapping] = [
            .init(start: 0x1000, length: 0x2000, residentKiB: 4),  // a library's headers,
            .init(start: 0x3000, length: 0x5000, residentKiB: 8),  // its code right after them,
            .init(start: 0x8000, length: 0x1000, residentKiB: 0),  // and its read-only data
            .init(start: 0xA000, length: 0x1000, residentKiB: 4),  // past a gap (its data, left alone)
            .init(start: 0xB000, length: 0x3000, residentKiB: 12),
        ]
        XCTAssertEqual(MappedPages.joined(mappings), [
            .init(start: 0x1000, length: 0x8000, residentKiB: 12),
            .init(start: 0xA000, length: 0x4000, residentKiB: 16),
        ])
        XCTAssertEqual(MappedPages.joined([]), [])
    }

    func testThisProcessHasSuchMappings() throws {
        // The real file parses: the test binary's own text at least is a private read-only file mapping,
        // and holds pages (it runs).
        let maps = try Self.procFile("/proc/self/maps")
        XCTAssertFalse(MappedPages.candidates(maps: Array(maps.utf8)).isEmpty)
        XCTAssertGreaterThan(MappedPages.current().reduce(0) { $0 + $1.residentKiB }, 0)
    }

    func testWhatIsFoundAgreesWithSmaps() throws {
        // smaps says of each mapping how much of it is resident and how much the process's own
        // (what the kernel walked every mapping's page tables for, each drop, before pagemap).
        let found = MappedPages.current()
        let smaps = try Self.procFile("/proc/self/smaps")
        var anonymousKiB: [UInt: Int] = [:], residentKiB: [UInt: Int] = [:]
        var start: UInt?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), let address = UInt(range.prefix { $0 != "-" }, radix: 16) {
                start = address
                // Relocated data: a private read-only file mapping with pages of the process's own.
                if fields.count >= 6, fields[1] == "r--p", fields[5].hasPrefix("/") { anonymousKiB[address] = 0 }
            } else if let start, fields.count >= 2, let kib = Int(fields[1]) {
                if fields[0] == "Anonymous:" { anonymousKiB[start, default: 0] += kib }
                if fields[0] == "Rss:" { residentKiB[start] = kib }
            }
        }
        XCTAssertFalse(found.isEmpty)
        for mapping in found {
            XCTAssertEqual(anonymousKiB[mapping.start] ?? 0, 0, "a mapping with pages of its own: \(mapping)")
            XCTAssertGreaterThan(residentKiB[mapping.start] ?? 0, 0, "\(mapping)")
        }
        let relocated = anonymousKiB.filter { $0.value > 0 }.keys
        XCTAssertFalse(relocated.isEmpty, "the test binary and its libraries have relocated data")
        XCTAssertTrue(relocated.allSatisfy { start in !found.contains { $0.start == start } })
    }

    /// A private mapping, with `protection`, of a new file of `pages` pages of 7s (the file itself
    /// already unlinked; the mapping keeps it), none of its pages mapped in yet; at `address` if given
    /// (over what the caller mapped there).
    private static func mapFileOfSevens(named name: String, pages: Int, protection: Int32,
                                        at address: UnsafeMutableRawPointer? = nil) throws -> UnsafeMutableRawPointer {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())").path
        let length = pages * Int(getpagesize())
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: length)))
        defer { unlink(path) }
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        let mapped = try XCTUnwrap(mmap(address, length, protection, MAP_PRIVATE | (address == nil ? 0 : MAP_FIXED), fd, 0))
        XCTAssertNotEqual(mapped, UnsafeMutableRawPointer(bitPattern: -1), "mmap failed")
        return mapped
    }

    func testAMappingWithAPageCopiedOnWriteIsNotFoundButItsFilesPagesAre() throws {
        // What a breakpoint or relocated data is: a private read-only file mapping that was written.
        let pageSize = Int(getpagesize())
        let mapped = try Self.mapFileOfSevens(named: "mapped-pages", pages: 4, protection: PROT_READ)
        defer { munmap(mapped, 4 * pageSize) }
        let start = UInt(bitPattern: mapped)
        func found() -> MappedPages.Mapping? { MappedPages.current().first { $0.start == start } }

        XCTAssertNil(found(), "nothing resident yet")
        XCTAssertEqual(mapped.load(fromByteOffset: 2 * pageSize, as: UInt8.self), 7)
        let read = try XCTUnwrap(found(), "a page of the file, read")
        XCTAssertEqual(read.length, 4 * pageSize)
        XCTAssertGreaterThan(read.residentKiB, 0)

        XCTAssertEqual(mprotect(mapped, pageSize, PROT_READ | PROT_WRITE), 0)
        mapped.storeBytes(of: 8, as: UInt8.self)
        XCTAssertEqual(mprotect(mapped, pageSize, PROT_READ), 0)  // r--p again, one page the process's own
        XCTAssertNil(found(), "its page copied on write would be lost")
        // The kernel split the mapping at the page written: the rest, read along with it, holds only
        // the file's pages (the one read at least).
        let maps = try Self.procFile("/proc/self/maps")
        if MappedPages.candidates(maps: Array(maps.utf8)).contains(where: { $0.start == start + UInt(pageSize) }) {
            let rest = try XCTUnwrap(MappedPages.current().first { $0.start == start + UInt(pageSize) })
            XCTAssertGreaterThan(rest.residentKiB, 0)
        }
    }

    // MARK: The stack

    func testTheStackIsTheStackLineOfMaps() {
        XCTAssertEqual(MappedPages.stack(maps: Array(Self.maps.utf8)), 0x7fff_d000_0000..<0x7fff_d002_1000)
        XCTAssertNil(MappedPages.stack(maps: Array(Self.maps.utf8.prefix(200))), "no [stack] line")
        XCTAssertNil(MappedPages.stack(maps: Array("7fffd0021000-7fffd0000000 rw-p 00000000 00:00 0 [stack]".utf8)),
                     "end before start")
    }

    func testTheUnusedStackIsWhatLiesAMarginBelowTheFramePageAligned() {
        let stack: Range<UInt> = 0x10_0000..<0x12_0000
        XCTAssertEqual(MappedPages.unusedStack(stack, frame: 0x11_8f00, margin: 0x4000, pageSize: 0x1000), 0x10_0000..<0x11_4000)
        XCTAssertTrue(MappedPages.unusedStack(stack, frame: 0x10_3000, margin: 0x4000, pageSize: 0x1000).isEmpty,
                      "the frame within the margin of the stack's end")
        XCTAssertTrue(MappedPages.unusedStack(stack, frame: 0x13_0000, margin: 0x4000, pageSize: 0x1000).isEmpty,
                      "a frame on another stack (another thread's)")
    }

    /// The resident pages of this process between `range`'s bounds.
    private static func residentPages(_ range: Range<UInt>) throws -> Int {
        let pageSize = UInt(getpagesize())
        let pagemap = open("/proc/self/pagemap", O_RDONLY)
        XCTAssertGreaterThanOrEqual(pagemap, 0)
        defer { close(pagemap) }
        var entries = [UInt64](repeating: 0, count: Int((range.upperBound - range.lowerBound) / pageSize))
        let bytes = entries.count * 8
        let read = entries.withUnsafeMutableBytes { pread(pagemap, $0.baseAddress, bytes, off_t(range.lowerBound / pageSize * 8)) }
        XCTAssertEqual(read, bytes)
        return entries.filter { $0 & MappedPages.PagemapBit.present != 0 }.count
    }

    /// Writes `depth` frames of at least 512 bytes each below the caller's; returns the sum of the depths.
    @inline(never)
    private static func deepFrames(_ depth: Int) -> Int {
        var block = SIMD64<Int>(repeating: depth)  // a value of the frame's: on the stack
        withUnsafeMutableBytes(of: &block) { _ = $0 }  // its address taken: not kept in registers
        return block[depth % 64] + (depth > 0 ? deepFrames(depth - 1) : 0)
    }

    func testTheStackBelowTheRunningFrameGoesAndWhatIsAboveItStays() throws {
        let kept = [1, 2, 3]  // a value of this frame's, read after the drop
        XCTAssertEqual(Self.deepFrames(1_000), (0...1_000).reduce(0, +))
        // Read after the calls: the stack's mapping grew down for them.
        let maps = try Self.procFile("/proc/self/maps")
        let stack = try XCTUnwrap(MappedPages.stack(maps: Array(maps.utf8)))
        var here = 0
        let frame = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        try XCTSkipUnless(stack.contains(frame), "the test does not run on the main thread")
        let below = stack.lowerBound..<(frame - 64 * 1024) & ~UInt(getpagesize() - 1)
        XCTAssertGreaterThan(try Self.residentPages(below), 16, "frames of a thousand calls were written below this one")

        MappedPages.releaseUnusedStack(stack)

        XCTAssertEqual(try Self.residentPages(below), 0, "the dead frames' pages went")
        XCTAssertEqual(kept, [1, 2, 3])
        XCTAssertEqual(Self.deepFrames(1_000), (0...1_000).reduce(0, +), "the stack grows again as before")
    }

    func testMappingsKnownFromAnEarlierReadAreCheckedAgainBeforeTheyGo() throws {
        // A list read from maps earlier may be stale: a mapping may have gone, or another taken its place.
        let pageSize = Int(getpagesize())
        let file = try Self.mapFileOfSevens(named: "known-file", pages: 2, protection: PROT_READ)
        defer { munmap(file, 2 * pageSize) }
        XCTAssertEqual(file.load(as: UInt8.self), 7)  // the file read in (and maybe its neighbour with it)
        let fileStart = UInt(bitPattern: file)
        let fileKiB = try Self.residentPages(fileStart..<fileStart + UInt(2 * pageSize)) * pageSize / 1024
        XCTAssertGreaterThan(fileKiB, 0)
        let anonymous = try XCTUnwrap(mmap(nil, 2 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        XCTAssertNotEqual(anonymous, UnsafeMutableRawPointer(bitPattern: -1), "mmap failed")
        defer { munmap(anonymous, 2 * pageSize) }
        anonymous.storeBytes(of: 1, as: UInt8.self)  // where a file was once: now pages of the process's own
        let gone = try XCTUnwrap(mmap(nil, pageSize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        munmap(gone, pageSize)  // unmapped since
        let known = MappedPages.Known(candidates: [
            .init(start: UInt(bitPattern: gone), length: pageSize, residentKiB: 0),
            .init(start: UInt(bitPattern: file), length: 2 * pageSize, residentKiB: 0),
            .init(start: UInt(bitPattern: anonymous), length: 2 * pageSize, residentKiB: 0),
        ].sorted { $0.start < $1.start }, stack: 0x1000..<0x2000)

        let found = MappedPages.found(among: known)

        XCTAssertEqual(found.mappings, [.init(start: fileStart, length: 2 * pageSize, residentKiB: fileKiB)],
                       "only the file's mapping, holding what was read of it")
        XCTAssertEqual(found.stack, 0x1000..<0x2000)
        XCTAssertEqual(found.idle, [], "idle pages are never sought in a list read earlier")
        XCTAssertNil(found.known, "nothing new was read")
        XCTAssertEqual(MappedPages.release(found.mappings), fileKiB)
        XCTAssertEqual(try Self.residentPages(fileStart..<fileStart + UInt(2 * pageSize)), 0)
        XCTAssertEqual(anonymous.load(as: UInt8.self), 1, "the process's own page kept what was written")
        XCTAssertEqual(file.load(fromByteOffset: pageSize, as: UInt8.self), 7)
    }

    func testAFullReadOfMapsIsKeptForTheNextDrop() {
        let found = MappedPages.found()
        let known = try? XCTUnwrap(found.known)
        XCTAssertEqual(known?.candidates.isEmpty, false)
        XCTAssertNotNil(known?.stack)
        XCTAssertTrue(found.mappings.allSatisfy { mapping in known?.candidates.contains { $0.start == mapping.start } == true })
    }

    // MARK: Idle pages

    func testIdlePagesAreSoughtInPrivateWritableMemoryButTheStack() {
        let maps = Self.maps + """

            7f0000700000-7f0000710000 rw-p 00000000 00:00 0
            7f0000710000-7f0000720000 rw-p 00010000 fe:00 400                        /usr/lib/libc.so.6
            7f0000720000-7f0000730000 rw-s 00000000 00:01 300                        /memfd:wayland-shm (deleted)
            7f0000730000-7f0000740000 rw-p 00000000 00:05 12                         /dev/dri/renderD128
            """
        XCTAssertEqual(IdlePages.regions(maps: Array(maps.utf8)), [
            .init(addresses: 0x55d0_a082_9000..<0x55d0_a096_5000, kind: CLINUX_IDLE_PAGES_UNWRITTEN),  // the binary's data
            .init(addresses: 0x55d0_a100_0000..<0x55d0_a110_0000, kind: CLINUX_IDLE_PAGES_ZEROED),  // [heap]
            .init(addresses: 0x7f00_0070_0000..<0x7f00_0071_0000, kind: CLINUX_IDLE_PAGES_ZEROED),  // anonymous
            .init(addresses: 0x7f00_0071_0000..<0x7f00_0072_0000, kind: CLINUX_IDLE_PAGES_UNWRITTEN),  // a library's data
        ], "read-only, shared and device mappings, code and [stack] are left alone")
    }

    func testTheThreadsAreStatsTwentiethField() {
        let stat = "1234 (toastd (a) b) S 1 1234 1234 0 -1 4194560 900 0 0 0 5 3 0 0 20 0 3 0 4242 335472 1400 18446744073709551615"
        XCTAssertEqual(Array(stat.utf8).withUnsafeBufferPointer { IdlePages.threads(stat: $0) }, 3,
                       "counted after the command's last parenthesis")
        XCTAssertNil(Array("1234 (toastd) S 1".utf8).withUnsafeBufferPointer { IdlePages.threads(stat: $0) })
    }

    /// Maps `pages` pages; returns the mapping and a function telling which of them are resident.
    private static func residency(_ mapped: UnsafeMutableRawPointer, pages: Int) throws -> [Bool] {
        let pageSize = UInt(getpagesize())
        let start = UInt(bitPattern: mapped)
        return try (0..<pages).map { try residentPages(start + UInt($0) * pageSize..<start + UInt($0 + 1) * pageSize) == 1 }
    }

    func testZeroedPagesOfItsOwnGoAndTheOthersStayWithWhatTheyHold() throws {
        let pageSize = Int(getpagesize())
        let mapped = try XCTUnwrap(mmap(nil, 4 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        XCTAssertNotEqual(mapped, UnsafeMutableRawPointer(bitPattern: -1), "mmap failed")
        defer { munmap(mapped, 4 * pageSize) }
        // Pages 0 and 2 written with zeros (resident, zeroed), 1 with a byte at its end, 3 never touched.
        memset(mapped, 0, 3 * pageSize)
        mapped.storeBytes(of: 9, toByteOffset: 2 * pageSize - 1, as: UInt8.self)
        XCTAssertEqual(try Self.residency(mapped, pages: 4), [true, true, true, false])
        let start = UInt(bitPattern: mapped)

        let dropped = IdlePages.release([.init(addresses: start..<start + UInt(4 * pageSize), kind: CLINUX_IDLE_PAGES_ZEROED)])

        XCTAssertEqual(dropped, 2 * pageSize)
        XCTAssertEqual(try Self.residency(mapped, pages: 4), [false, true, false, false])
        XCTAssertEqual(mapped.load(fromByteOffset: 2 * pageSize - 1, as: UInt8.self), 9)
        XCTAssertEqual(mapped.load(fromByteOffset: 0, as: UInt8.self), 0, "a zeroed page reads back zeroed")
    }

    func testUnwrittenPagesOfAFileGoAndWrittenOnesStayWithWhatTheyHold() throws {
        let pageSize = Int(getpagesize())
        let mapped = try Self.mapFileOfSevens(named: "idle-pages", pages: 3, protection: PROT_READ | PROT_WRITE)
        defer { munmap(mapped, 3 * pageSize) }
        // Page 0 read, page 1 written (copied: the process's own), page 2 read.
        var sum = 0
        for page in [0, 2] { sum += Int(mapped.load(fromByteOffset: page * pageSize, as: UInt8.self)) }
        mapped.storeBytes(of: 8, toByteOffset: pageSize, as: UInt8.self)
        XCTAssertEqual(sum, 14)
        XCTAssertEqual(try Self.residency(mapped, pages: 3), [true, true, true])
        let start = UInt(bitPattern: mapped)

        let dropped = IdlePages.release([.init(addresses: start..<start + UInt(3 * pageSize), kind: CLINUX_IDLE_PAGES_UNWRITTEN)])

        XCTAssertEqual(dropped, 2 * pageSize)
        XCTAssertEqual(try Self.residency(mapped, pages: 3), [false, true, false])
        XCTAssertEqual(mapped.load(fromByteOffset: pageSize, as: UInt8.self), 8, "the written page kept what was written")
        XCTAssertEqual(mapped.load(fromByteOffset: 2 * pageSize, as: UInt8.self), 7, "an unwritten page reads the file again")
    }

    func testRegionsReadTogetherEachDropTheirOwnKindOfPage() throws {
        let pageSize = Int(getpagesize())
        // Anonymous pages 0-3 and 6-11, file pages 13-15 (a library's data after its code): 4-5 and 12
        // unmapped between them, so that one read of the pagemap covers all three regions, gaps included.
        let mapped = try XCTUnwrap(mmap(nil, 16 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        XCTAssertNotEqual(mapped, UnsafeMutableRawPointer(bitPattern: -1), "mmap failed")
        defer { munmap(mapped, 16 * pageSize) }
        munmap(mapped + 4 * pageSize, 2 * pageSize)
        munmap(mapped + 12 * pageSize, pageSize)
        let file = try Self.mapFileOfSevens(named: "idle-regions", pages: 3, protection: PROT_READ | PROT_WRITE,
                                            at: mapped + 13 * pageSize)
        let start = UInt(bitPattern: mapped)
        let page = UInt(pageSize)
        // Zeroed: 0, 2, 7, 8 and 11; written: 1, 6 and 10; never touched: 3 and 9.
        for index in [0, 1, 2, 6, 7, 8, 10, 11] { memset(mapped + index * pageSize, 0, pageSize) }
        for index in [1, 6, 10] { mapped.storeBytes(of: UInt8(index), toByteOffset: index * pageSize + 5, as: UInt8.self) }
        // The file: 0 and 2 read, 1 written.
        XCTAssertEqual(Int(file.load(as: UInt8.self)) + Int(file.load(fromByteOffset: 2 * pageSize, as: UInt8.self)), 14)
        file.storeBytes(of: 8, toByteOffset: pageSize, as: UInt8.self)
        let fileStart = UInt(bitPattern: file)
        XCTAssertEqual(fileStart, start + 13 * page)

        let dropped = IdlePages.release([
            .init(addresses: start..<start + 4 * page, kind: CLINUX_IDLE_PAGES_ZEROED),
            .init(addresses: start + 6 * page..<start + 12 * page, kind: CLINUX_IDLE_PAGES_ZEROED),
            .init(addresses: fileStart..<fileStart + 3 * page, kind: CLINUX_IDLE_PAGES_UNWRITTEN),
        ])

        XCTAssertEqual(dropped, 7 * pageSize)
        XCTAssertEqual(try Self.residency(mapped, pages: 4), [false, true, false, false])
        XCTAssertEqual(try Self.residency(mapped + 6 * pageSize, pages: 6), [true, false, false, false, true, false])
        XCTAssertEqual(try Self.residency(file, pages: 3), [false, true, false])
        XCTAssertEqual(mapped.load(fromByteOffset: 7 * pageSize, as: UInt8.self), 0, "a zeroed page reads back zeroed")
        for index in [1, 6, 10] {
            XCTAssertEqual(mapped.load(fromByteOffset: index * pageSize + 5, as: UInt8.self), UInt8(index))
        }
        XCTAssertEqual(file.load(fromByteOffset: pageSize, as: UInt8.self), 8)
        XCTAssertEqual(file.load(fromByteOffset: 2 * pageSize, as: UInt8.self), 7)
    }

    // MARK: The first drop and Pango's threads

    func testTheDropAfterStartIsPutOffWhileOtherThreadsRunForAWhileOnly() {
        var wait = StartThreadsWait()
        let ms: Int64 = 1_000_000
        XCTAssertFalse(wait.putOff(alone: true, atStart: true, now: 0), "one thread: at once")
        XCTAssertFalse(wait.putOff(alone: false, atStart: false, now: 0), "a later drop never waits")
        XCTAssertTrue(wait.putOff(alone: false, atStart: true, now: 1_000 * ms))
        XCTAssertTrue(wait.putOff(alone: false, atStart: true, now: 1_000 * ms + StartThreadsWait.patience - 1))
        XCTAssertFalse(wait.putOff(alone: false, atStart: true, now: 1_000 * ms + StartThreadsWait.patience),
                       "past its patience the drop goes without the idle pages")
        XCTAssertFalse(wait.putOff(alone: true, atStart: true, now: 1_001 * ms))
    }

    // MARK: Bursts

    func testABurstIsMoreArrivalsSinceTheLastReleaseThanAStackShows() {
        var arrivals = BurstArrivals()
        XCTAssertFalse(arrivals.isBurst(maxVisible: 5), "nothing arrived")
        // The first id seen counts as one arrival, whatever it is (a history read back may start high).
        arrivals.saw(newest: 4000, open: 1)
        XCTAssertEqual(arrivals.sinceRelease, 1)
        for id: NotificationID in 4001...4004 { arrivals.saw(newest: id, open: Int(id - 3999)) }
        XCTAssertFalse(arrivals.isBurst(maxVisible: 5), "five: what a stack shows")
        arrivals.saw(newest: 4005, open: 6)
        XCTAssertTrue(arrivals.isBurst(maxVisible: 5), "six, all open")

        arrivals.released(openNow: 6)
        XCTAssertFalse(arrivals.isBurst(maxVisible: 5), "counted from the release")
        arrivals.saw(newest: 4005, open: 5)  // the same newest again (a toast closed meanwhile): no arrival
        XCTAssertEqual(arrivals.sinceRelease, 0)
        for id: NotificationID in 4006...4011 { arrivals.saw(newest: id, open: 6) }
        XCTAssertTrue(arrivals.isBurst(maxVisible: 5), "six more onto a stack that still overflows")
    }

    func testToastsThatComeAndGoOneAtATimeAreNoBurst() {
        var arrivals = BurstArrivals()
        // A day of toasts, each gone before the next: many arrivals, never more open than a stack shows.
        for id: NotificationID in 1...50 { arrivals.saw(newest: id, open: 1) }
        XCTAssertEqual(arrivals.sinceRelease, 50)
        XCTAssertFalse(arrivals.isBurst(maxVisible: 5))
        // Then six at once.
        for id: NotificationID in 51...56 { arrivals.saw(newest: id, open: Int(id - 50)) }
        XCTAssertTrue(arrivals.isBurst(maxVisible: 5))
        // After the release only what is still open counts, until more arrive.
        arrivals.released(openNow: 2)
        XCTAssertEqual(arrivals.mostOpen, 2)
        for id: NotificationID in 57...63 { arrivals.saw(newest: id, open: 3) }
        XCTAssertFalse(arrivals.isBurst(maxVisible: 5), "seven more, never more than three open")
    }

    func testArrivalsCountAcrossTheIdsWrapping() {
        var arrivals = BurstArrivals()
        arrivals.saw(newest: .max - 1, open: 1)
        arrivals.released(openNow: 0)
        arrivals.saw(newest: 6, open: 8)  // .max, then 1...6 (0 is never handed out: one id fewer, no harm)
        XCTAssertEqual(arrivals.sinceRelease, 8)
        XCTAssertTrue(arrivals.isBurst(maxVisible: 5))
    }
}
