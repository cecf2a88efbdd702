@testable import ToastDaemon
import Glibc
import XCTest

/// `hasReadyEvents`: what the loop checks before dropping mapped pages (work already waiting would map
/// its code back at once). It must see a ready fd without taking the event from the next `wait`.
final class EventLoopTests: XCTestCase {
    func testReadyEventsAreSeenAndStillThereForTheNextWait() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        var handled = 0
        let readable: UInt32 = 0x001  // EPOLLIN
        try loop.add(fd: fds[0], events: readable) { _ in handled += 1 }

        XCTAssertFalse(loop.hasReadyEvents, "nothing written yet")
        var byte: UInt8 = 1
        XCTAssertEqual(write(fds[1], &byte, 1), 1)
        XCTAssertTrue(loop.hasReadyEvents, "the pipe is readable")
        XCTAssertTrue(loop.hasReadyEvents, "looking does not take the event")
        XCTAssertEqual(handled, 0, "looking runs no handler")
        loop.wait(timeoutMilliseconds: 0)
        XCTAssertEqual(handled, 1, "the next wait still gets the event")
        XCTAssertEqual(read(fds[0], &byte, 1), 1)
        XCTAssertFalse(loop.hasReadyEvents, "read: nothing ready any more")
    }
}
