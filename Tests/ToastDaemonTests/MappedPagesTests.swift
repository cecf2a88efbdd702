@testable import ToastDaemon
import ToastVocabulary
import XCTest

/// Which mappings the daemon drops once started: only those that hold nothing but a file's bytes.
final class MappedPagesTests: XCTestCase {
    /// The shape of /proc/self/smaps (fields the parser does not use cut short).
    private static let smaps = """
        55d0a0000000-55d0a01c7000 r--p 00000000 fe:00 16278532                   /usr/bin/toastd
        Size:               1820 kB
        Rss:                 640 kB
        Private_Clean:       640 kB
        Anonymous:             0 kB
        55d0a01c7000-55d0a07eb000 r-xp 001c6000 fe:00 16278532                   /usr/bin/toastd
        Size:               6288 kB
        Rss:                3152 kB
        Anonymous:             0 kB
        55d0a07eb000-55d0a0829000 r--p 007e9000 fe:00 16278532                   /usr/bin/toastd
        Rss:                 248 kB
        Private_Dirty:       248 kB
        Anonymous:           248 kB
        55d0a0829000-55d0a0965000 rw-p 00826000 fe:00 16278532                   /usr/bin/toastd
        Rss:                 688 kB
        Anonymous:           116 kB
        55d0a1000000-55d0a1100000 rw-p 00000000 00:00 0                          [heap]
        Rss:                1040 kB
        Anonymous:          1040 kB
        7f0000000000-7f0000080000 r--p 00000000 fe:00 200                        /usr/share/fonts/DejaVuSans.ttf
        Rss:                 516 kB
        Anonymous:             0 kB
        7f0000100000-7f0000101000 r--p 00000000 fe:00 201                        /usr/lib/libunused.so
        Rss:                   0 kB
        Anonymous:             0 kB
        7f0000200000-7f0000300000 r--s 00000000 00:01 300                        /memfd:wayland-shm (deleted)
        Rss:                 100 kB
        Anonymous:             0 kB
        7f0000400000-7f0000401000 r-xp 00000000 00:00 0                          [vdso]
        Rss:                   4 kB
        Anonymous:             0 kB
        7f0000500000-7f0000600000 r-xp 00028000 fe:00 400                        /usr/lib/libc.so.6
        Rss:                1584 kB
        Anonymous:             0 kB
        7f0000600000-7f0000601000 r-xp 00000000 00:00 0
        Rss:                   4 kB
        Anonymous:             0 kB
        """

    func testOnlyPrivateReadOnlyFileMappingsWithoutPagesOfTheirOwn() {
        let found = MappedPages.droppable(smaps: Array(Self.smaps.utf8))
        XCTAssertEqual(found, [
            .init(start: 0x55d0_a000_0000, length: 0x1c7000, residentKiB: 640),  // headers, metadata
            .init(start: 0x55d0_a01c_7000, length: 0x624000, residentKiB: 3152),  // text
            .init(start: 0x7f00_0000_0000, length: 0x80000, residentKiB: 516),  // a font
            .init(start: 0x7f00_0050_0000, length: 0x100000, residentKiB: 1584),  // a library's text
        ], "relocated data (RELRO, anonymous pages), writable and shared mappings, [vdso], anonymous "
           + "code and mappings with nothing resident are left alone")
    }

    func testAnAnonymousPageAnywhereInTheMappingKeepsIt() {
        // A debugger's breakpoint is such a page in the text: dropping it would lose the breakpoint.
        let smaps = """
            7f0000500000-7f0000600000 r-xp 00028000 fe:00 400                        /usr/lib/libc.so.6
            Rss:                1584 kB
            Anonymous:             4 kB
            """
        XCTAssertEqual(MappedPages.droppable(smaps: Array(smaps.utf8)), [])
    }

    func testThisProcessHasSuchMappings() throws {
        // The real file parses: the test binary's own text at least is a private read-only file mapping.
        let smaps = try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
        XCTAssertGreaterThan(MappedPages.droppable(smaps: Array(smaps.utf8)).reduce(0) { $0 + $1.residentKiB }, 0)
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
