/// The open notifications, newest first, in a ring of slots: a new one goes in front and the oldest
/// leaves from the back without moving the others. In an array each new notification moved every open
/// one (up to `maxOpen`, 1,000, each a few hundred bytes): 16–20 % of a 10,000-call burst's CPU. Taking
/// one out from between moves the shorter side. Positions are indices: 0 is the newest.
///
/// Memory follows the count: the slots halve when three quarters are empty, and go when none is open.
/// An empty slot holds `vacant`, whose strings and arrays are empty and hold no memory: with optional
/// slots, reading a field copied the whole optional notification (a few hundred bytes) out first.
public struct OpenNotifications: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral, Equatable,
                                Sendable {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    // Inlinable, and read and modified in place: the callers (the animator's scene, the groups) read
    // fields of every open notification at each frame, and a call per element returning a copy of the
    // notification (every string and array retained, then released) cost more than the moves saved.
    /// `count` notifications from slot `head` on, wrapping at the end; the other slots are `vacant`.
    @usableFromInline var slots: ContiguousArray<Notification> = []
    /// The slot of the newest (position 0).
    @usableFromInline var head = 0
    public private(set) var count = 0

    /// The smallest ring kept once something is open; smaller counts do not shrink it.
    private static let minimumSlots = 8
    /// What an empty slot holds.
    private static let vacant = Notification(id: 0, request: NotificationRequest(), createdAt: Instant(milliseconds: 0),
                                             now: Instant(milliseconds: 0))

    public init() {}

    /// `elements` newest first.
    public init(arrayLiteral elements: Notification...) {
        slots = ContiguousArray(elements)
        count = elements.count
    }

    /// The same notifications in the same order (however the slots lie).
    public static func == (a: Self, b: Self) -> Bool { a.elementsEqual(b) }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }
    @inlinable public var indices: Range<Int> { 0..<count }
    @inlinable public func index(after i: Int) -> Int { i + 1 }
    @inlinable public func index(before i: Int) -> Int { i - 1 }

    @inlinable public subscript(position: Int) -> Notification {
        _read {
            precondition(position >= 0 && position < count, "OpenNotifications: position out of range")
            yield slots[slot(position)]
        }
        _modify {
            precondition(position >= 0 && position < count, "OpenNotifications: position out of range")
            yield &slots[slot(position)]
        }
    }

    /// Puts `notification` in front, as the newest.
    public mutating func prepend(_ notification: Notification) {
        if count == slots.count { resize(to: Swift.max(Self.minimumSlots, slots.count * 2)) }
        head = head == 0 ? slots.count - 1 : head - 1
        slots[head] = notification
        count += 1
    }

    /// Takes out the notification at `position`; the newer ones keep their order in front of the older.
    @discardableResult
    public mutating func remove(at position: Int) -> Notification {
        precondition(position >= 0 && position < count, "OpenNotifications: position out of range")
        let removed = slots[slot(position)]
        slots[slot(position)] = Self.vacant
        if position < count - 1 - position {
            // The newer ones move one place back; the emptied slot ends up in front of them.
            for p in stride(from: position, to: 0, by: -1) { slots.swapAt(slot(p), slot(p - 1)) }
            head = slot(1)
        } else {
            for p in position..<(count - 1) { slots.swapAt(slot(p), slot(p + 1)) }
        }
        count -= 1
        if count == 0 {
            slots = []
            head = 0
        } else if slots.count > Self.minimumSlots, count <= slots.count / 4 {
            resize(to: slots.count / 2)
        }
        return removed
    }

    /// The slot holding `position`.
    @inlinable func slot(_ position: Int) -> Int {
        let s = head + position
        return s < slots.count ? s : s - slots.count
    }

    /// The same notifications in `capacity` slots (at least `count`), the newest in the first.
    private mutating func resize(to capacity: Int) {
        var resized = ContiguousArray<Notification>()
        resized.reserveCapacity(capacity)
        // Moved, not copied: a copy retained every string and array of each notification.
        for p in 0..<count {
            var moved = Self.vacant
            swap(&moved, &slots[slot(p)])
            resized.append(moved)
        }
        resized.append(contentsOf: repeatElement(Self.vacant, count: capacity - count))
        slots = resized
        head = 0
    }
}
