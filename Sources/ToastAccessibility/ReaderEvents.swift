/// The events screen readers listen for, as the AT-SPI registry lists them (`GetRegisteredEvents`,
/// then `EventListenerRegistered` and `EventListenerDeregistered`): what a toolkit asks before it
/// sends an event only some readers understand. Events are written as the registry writes them,
/// `Object:StateChanged:Showing` (a listener's own spelling, `object:state-changed:showing`, is the same
/// event); a listener of `Object:` or `Object:StateChanged:` hears every event under it (at-spi2-atk's
/// `spi_event_is_subtype`). Pure.
package struct ReaderEvents: Equatable, Sendable {
    private var listened: [Listener] = []

    private struct Listener: Equatable, Sendable {
        var bus: String
        var event: String
    }

    /// How many registrations are kept at most: the registry is trusted, but a bus is not a bound.
    static let maxListeners = 4096

    package init() {}

    package mutating func add(bus: String, event: String) {
        guard listened.count < Self.maxListeners else { return }
        listened.append(Listener(bus: bus, event: event))
    }

    package mutating func remove(bus: String, event: String) {
        if let index = listened.firstIndex(of: Listener(bus: bus, event: event)) { listened.remove(at: index) }
    }

    package mutating func removeAll() { listened = [] }

    /// Whether some reader listens for `event` (`Object:Announcement`, `Object:StateChanged:Showing`).
    package func hear(_ event: String) -> Bool {
        let wanted = Self.parts(event)
        return listened.contains { listener in
            for (index, part) in Self.parts(listener.event).enumerated() where !part.isEmpty {
                guard index < wanted.count, wanted[index] == part else { return false }
            }
            return true
        }
    }

    /// Class, name and detail, each in one spelling: `state-changed` and `StateChanged` are one word.
    private static func parts(_ event: String) -> [String] {
        event.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            .map { $0.lowercased().filter { $0 != "-" } }
    }
}
