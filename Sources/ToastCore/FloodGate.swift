import ToastVocabulary

/// Tells a flood from an app apart from its ordinary chatter: more than `limit` notifications within
/// `window` milliseconds (KDE refuses repeats within a second; GNOME caps a source at ten). Pure; it
/// keeps at most `limit + 1` arrival times per app, and forgets an app once its window has passed.
public struct FloodGate: Equatable, Sendable {
    /// Arrivals within the window, oldest first, per app name.
    private var arrivals: [String: [Instant]] = [:]

    public init() {}

    /// Notes a notification from `app` at `now`; returns whether the app floods (the arrival is one of
    /// more than `limit` within `window`). A `limit` of 0 never floods.
    public mutating func noteArrival(from app: String, now: Instant, limit: Int, window: Milliseconds) -> Bool {
        guard limit > 0 else {
            arrivals = [:]
            return false
        }
        // Apps quiet for a whole window are forgotten, so that many app names cost nothing lasting.
        if arrivals.count > 64 { arrivals = arrivals.filter { now - ($0.value.last ?? now) < window } }
        var times = arrivals[app] ?? []
        times.removeAll { now - $0 >= window }
        times.append(now)
        if times.count > limit + 1 { times.removeFirst(times.count - (limit + 1)) }
        arrivals[app] = times
        return times.count > limit
    }
}
