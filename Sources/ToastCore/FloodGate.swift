import ToastVocabulary

/// Tells a flood from an app apart from its ordinary chatter: more than `limit` notifications within
/// `window` milliseconds (KDE refuses repeats within a second; GNOME caps a source at ten). Pure; it
/// keeps at most `limit + 1` arrival times per app for at most `maxApps` apps, and forgets an app once
/// its window has passed.
public struct FloodGate: Equatable, Sendable {
    /// Arrivals within the window, oldest first, per app name.
    private var arrivals: [String: [Instant]] = [:]

    /// The most apps remembered at once (twice as many between two prunings).
    static let maxApps = 1024
    /// The size at which quiet apps are next forgotten.
    private var pruneAt = 64

    public init() {}

    /// How many apps it remembers now.
    var appCount: Int { arrivals.count }

    /// Notes a notification from `app` at `now`; returns whether the app floods (the arrival is one of
    /// more than `limit` within `window`). A `limit` of 0 never floods.
    public mutating func noteArrival(from app: String, now: Instant, limit: Int, window: Milliseconds) -> Bool {
        guard limit > 0 else {
            arrivals = [:]
            return false
        }
        // Apps quiet for a whole window are forgotten, so that many app names cost nothing lasting.
        if arrivals.count > pruneAt {
            arrivals = arrivals.filter { now - ($0.value.last ?? now) < window }
            // Thousands of app names within one window is no one app's flood: the table starts again,
            // so its memory stays bounded whatever names a client makes up.
            if arrivals.count > Self.maxApps { arrivals = [:] }
            // Pruned again only once it has doubled: a pass per arrival would cost each one the table.
            pruneAt = max(64, arrivals.count * 2)
        }
        // In place: a copy taken out and stored back was a second hash of the name and, the table still
        // holding the array, a new array for every arrival.
        return Self.note(now, in: &arrivals[app, default: []], limit: limit, window: window)
    }

    /// Adds `now` to one app's `times`, drops those past the window and all but the last `limit + 1`;
    /// returns whether more than `limit` are left.
    private static func note(_ now: Instant, in times: inout [Instant], limit: Int, window: Milliseconds) -> Bool {
        times.removeAll { now - $0 >= window }
        times.append(now)
        if times.count > limit + 1 { times.removeFirst(times.count - (limit + 1)) }
        return times.count > limit
    }
}
