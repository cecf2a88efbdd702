@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
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

/// `HandlerSlots`: the loop's handlers by token, with no hashing. A removed handler's token must find
/// nothing, even once its slot holds another handler (an fd closed in one handler of a batch, its
/// number reused for a new fd before the batch reaches it).
final class HandlerSlotsTests: XCTestCase {
    func testATokenFindsItsHandlerUntilRemoved() {
        var slots = HandlerSlots<String>()
        let first = slots.insert("first"), second = slots.insert("second")
        XCTAssertNotEqual(first, second)
        XCTAssertNotEqual(first, 0, "no token is 0")
        XCTAssertEqual(slots[first], "first")
        XCTAssertEqual(slots[second], "second")
        slots.remove(first)
        XCTAssertNil(slots[first])
        XCTAssertEqual(slots[second], "second", "removing one keeps the others")
    }

    func testAFreedSlotTakenAgainDoesNotAnswerTheOldToken() {
        var slots = HandlerSlots<String>()
        let old = slots.insert("old")
        slots.remove(old)
        let new = slots.insert("new")
        XCTAssertNotEqual(old, new, "the slot's new use has a token of its own")
        XCTAssertNil(slots[old], "the removed handler's token finds nothing in the reused slot")
        XCTAssertEqual(slots[new], "new")
        slots.remove(old)
        XCTAssertEqual(slots[new], "new", "removing by a stale token leaves the slot's new handler")
    }

    func testRemovingTwiceFreesTheSlotOnce() {
        var slots = HandlerSlots<String>()
        let token = slots.insert("a")
        slots.remove(token)
        slots.remove(token)
        let b = slots.insert("b"), c = slots.insert("c")
        XCTAssertEqual(slots[b], "b")
        XCTAssertEqual(slots[c], "c", "two handlers never share the one freed slot")
    }

    func testUnknownTokensFindNothing() {
        var slots = HandlerSlots<String>()
        XCTAssertNil(slots[0])
        let token = slots.insert("a")
        XCTAssertNil(slots[token + 1], "a slot never given")
        XCTAssertNil(slots[token &+ (1 << 32)], "a later use of the slot")
    }
}
