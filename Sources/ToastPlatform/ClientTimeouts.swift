/// When a control-socket client has had its chance: the rules that keep idle and half-line clients from
/// holding the server's slots, apart from the sockets (pure; times are monotonic nanoseconds).
///
/// - A client in the middle of a line (bytes came, no newline yet) has `partialLine` to finish it,
///   counted from the line's first byte: trickling a byte now and then does not keep it.
/// - A client that holds nothing (`holding` false: no subscription, followed status, loading spinner
///   or HUD stream) and made no progress (nothing read from it or written to it) for `idle` is done.
///   A client that holds something is waiting for the daemon, not idle, and stays.
/// - When every slot is taken, a newcomer takes the slot of a client that holds nothing (`evictable`):
///   one that never finished a line if there is one (the oldest), else the one quiet longest. Idle
///   connections so cannot lock a real client out, nor push out one that talks to the daemon.
package struct ClientTimeouts {
    package struct Limits: Sendable {
        package var idle: Int64 = 60_000_000_000
        package var partialLine: Int64 = 10_000_000_000

        package init(idle: Int64 = 60_000_000_000, partialLine: Int64 = 10_000_000_000) {
            self.idle = idle
            self.partialLine = partialLine
        }
    }

    private struct Entry {
        var lastProgress: Int64
        /// When the line not yet ended began (nil: between lines).
        var lineStartedAt: Int64?
        /// Whether a whole line ever came.
        var spoke = false
    }

    package let limits: Limits
    private var entries: [Int: Entry] = [:]

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    package mutating func connected(_ id: Int, now: Int64) {
        entries[id] = Entry(lastProgress: now)
    }

    package mutating func left(_ id: Int) {
        entries[id] = nil
    }

    /// Bytes came from `id`; `endsLine`: the last of them was a newline.
    package mutating func received(from id: Int, endsLine: Bool, now: Int64) {
        guard var entry = entries[id] else { return }
        entry.lastProgress = now
        entry.lineStartedAt = endsLine ? nil : (entry.lineStartedAt ?? now)
        entry.spoke = entry.spoke || endsLine
        entries[id] = entry
    }

    /// The client took some of what was written to it.
    package mutating func wrote(to id: Int, now: Int64) {
        entries[id]?.lastProgress = now
    }

    private func deadline(of entry: Entry) -> Int64 {
        entry.lineStartedAt.map { $0 + limits.partialLine } ?? entry.lastProgress + limits.idle
    }

    /// The earliest moment a client may be due (nil: no clients).
    package var nextDeadline: Int64? {
        entries.values.lazy.map(deadline).min()
    }

    /// The clients whose time is up at `now`, to be closed; a holding client found idle starts a new
    /// idle period instead.
    package mutating func expire(now: Int64, holding: (Int) -> Bool) -> [Int] {
        var due: [Int] = []
        for (id, entry) in entries where deadline(of: entry) <= now {
            if entry.lineStartedAt == nil && holding(id) {
                entries[id]?.lastProgress = now
            } else {
                due.append(id)
            }
        }
        for id in due { entries[id] = nil }
        return due.sorted()
    }

    /// The client to close for a newcomer when the slots are full: of those holding nothing, the oldest
    /// that never finished a line, else the one quiet longest (an unfinished line counts from its first
    /// byte); nil when every client holds something.
    package func evictable(holding: (Int) -> Bool) -> Int? {
        func rank(_ entry: (key: Int, value: Entry)) -> (Int, Int64, Int) {
            (entry.value.spoke ? 1 : 0, entry.value.lineStartedAt ?? entry.value.lastProgress, entry.key)
        }
        return entries.filter { !holding($0.key) }.min { rank($0) < rank($1) }?.key
    }
}
