/// When to look for the sound server again after it went away while its changes are followed
/// (`hud-follow-volume`): after 1, 2, 4, ... seconds, then no more. A server that stays away costs a
/// handful of wakeups, never a steady tick; past the last try, the next `toast osd` request looks for
/// it on demand. Pure: the caller owns the clock and the timer.
package struct ReconnectBackoff: Equatable, Sendable {
    /// Milliseconds to wait before each try, in order.
    package static let delays: [Int64] = [1000, 2000, 4000, 8000, 16_000, 32_000]
    private var tries = 0

    package init() {}

    /// The wait before the next try; nil once every try is spent.
    package mutating func nextDelay() -> Int64? {
        guard tries < Self.delays.count else { return nil }
        defer { tries += 1 }
        return Self.delays[tries]
    }

    /// The server answered: a later loss starts from the first, short wait again.
    package mutating func reset() { tries = 0 }
}
