import CLinux
import Glibc

/// The daemon's one loop: a single epoll set over every fd the daemon reads (Wayland display, control
/// socket and its clients, the bus, the timerfd, the signalfd). Nothing polls: `wait` sleeps in
/// `epoll_wait` until one of them is ready or the given timeout (from sd-bus) passes.
///
/// Handlers are found from a token stored in the epoll event, not by fd, so a handler removed while a batch
/// is being dispatched is skipped even if its fd number was reused meanwhile (`HandlerSlots`).
public final class EventLoop {
    public typealias Handler = (_ events: UInt32) -> Void

    private let epollFD: Int32
    private var handlers = HandlerSlots<Handler>()
    private var tokenForFD: [Int32: UInt64] = [:]
    /// What `epoll_wait` fills, kept: an allocation less per wakeup.
    private var events = [epoll_event](repeating: epoll_event(), count: 32)

    /// Number of times `epoll_wait` returned: the daemon's wakeups, reported by the benchmark.
    public private(set) var wakeups = 0

    public init() throws(SystemError) {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        if epollFD < 0 { throw SystemError("epoll_create1") }
    }

    deinit { close(epollFD) }

    /// The events of an fd with something to read (EPOLLIN).
    public static let readable = UInt32(EPOLLIN.rawValue)

    /// Watches `fd` for `events` (EPOLLIN, EPOLLOUT, ...); the handler gets what was ready.
    public func add(fd: Int32, events: UInt32, handler: @escaping Handler) throws(SystemError) {
        let token = handlers.insert(handler)
        var event = epoll_event(events: events, data: epoll_data_t(u64: token))
        if epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) != 0 {
            handlers.remove(token)
            throw SystemError("epoll_ctl(ADD, \(fd))")
        }
        tokenForFD[fd] = token
    }

    /// Changes the events watched on `fd` (e.g. adds EPOLLOUT while a write is queued).
    public func modify(fd: Int32, events: UInt32) {
        guard let token = tokenForFD[fd] else { return }
        var event = epoll_event(events: events, data: epoll_data_t(u64: token))
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Stops watching `fd`. Call before closing it.
    public func remove(fd: Int32) {
        guard let token = tokenForFD.removeValue(forKey: fd) else { return }
        handlers.remove(token)
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
    }

    /// Whether an fd is ready now, without sleeping. Every fd is watched level-triggered, so what this
    /// sees is still there for the next `wait`.
    public var hasReadyEvents: Bool {
        var event = epoll_event()
        return epoll_wait(epollFD, &event, 1, 0) > 0
    }

    /// Sleeps until an fd is ready or `timeoutMilliseconds` pass (-1: no timeout), then runs handlers.
    public func wait(timeoutMilliseconds: Int32) {
        let count = events.withUnsafeMutableBufferPointer {
            epoll_wait(epollFD, $0.baseAddress, Int32($0.count), timeoutMilliseconds)
        }
        wakeups += 1
        guard count > 0 else { return }
        for event in events[0..<Int(count)] {
            handlers[event.data.u64]?(event.events)
        }
    }
}

/// The loop's handlers, each in a slot found from its token with no hashing (a dictionary by token hashed
/// twice per HUD value, once per wakeup). A token is the slot and how many times the slot was taken: a
/// slot freed and taken again for another fd gives a new token, and the old one finds nothing.
package struct HandlerSlots<Handler> {
    private var slots: [(uses: UInt32, handler: Handler?)] = []
    private var free: [Int] = []

    /// Keeps `handler`; returns its token (never 0, which no epoll event of ours carries).
    package mutating func insert(_ handler: Handler) -> UInt64 {
        let index: Int
        if let reused = free.popLast() {
            index = reused
            slots[index].uses &+= 1
            slots[index].handler = handler
        } else {
            index = slots.count
            slots.append((1, handler))
        }
        return UInt64(slots[index].uses) << 32 | UInt64(index)
    }

    /// Forgets the handler of `token`, if it is still kept.
    package mutating func remove(_ token: UInt64) {
        guard let index = slot(of: token), slots[index].handler != nil else { return }
        slots[index].handler = nil
        free.append(index)
    }

    /// The handler of `token`; nil once it was removed.
    package subscript(token: UInt64) -> Handler? {
        guard let index = slot(of: token) else { return nil }
        return slots[index].handler
    }

    /// The slot `token` was given, unless the slot was taken again since.
    private func slot(of token: UInt64) -> Int? {
        let index = Int(token & 0xFFFF_FFFF)
        guard index < slots.count, slots[index].uses == UInt32(truncatingIfNeeded: token >> 32) else { return nil }
        return index
    }
}
