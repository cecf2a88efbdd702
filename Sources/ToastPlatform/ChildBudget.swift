/// The one bound on the programs toastd runs at once, shared by everything that starts them (sound
/// players, `exec` commands): a notification's sender picks the app name, the sound and how many
/// notifications it sends, so no per-app or per-kind limit alone keeps a flood from filling the
/// session's process table. Pure bookkeeping; the owners spawn and reap their own children.
///
/// What cannot start is never skipped silently: the first refusal of a burst is logged at once, and
/// when a child ends and there is room again, one line tells how many were dropped meanwhile.
package final class ChildBudget {
    /// Children toastd runs at most at once, all kinds together (docs/security.md).
    package static let defaultLimit = 16

    package let limit: Int
    package private(set) var running = 0
    /// Refused since the last report, by kind ("sound", "command").
    private var dropped: [String: Int] = [:]
    /// What to say (the log in the daemon; tests collect it).
    private let report: (String) -> Void

    package init(limit: Int = ChildBudget.defaultLimit, report: @escaping (String) -> Void = { Log.warning($0) }) {
        self.limit = limit
        self.report = report
    }

    package var hasRoom: Bool { running < limit }

    /// Takes a slot for a child about to start; false (nothing taken) when all are in use.
    package func take() -> Bool {
        guard hasRoom else { return false }
        running += 1
        return true
    }

    /// A child ended (or did not start after `take`): its slot is free. Reports the burst it ends, if any.
    package func release() {
        running = max(0, running - 1)
        guard !dropped.isEmpty else { return }
        let counts = dropped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)\($0.value == 1 ? "" : "s")" }
        dropped = [:]
        report("\(counts.joined(separator: " and ")) dropped while \(limit) programs were running")
    }

    /// `what` (a `kind`, e.g. a sound for an app) could not start or wait for a slot: counted, and logged
    /// if it is the first of its burst.
    package func drop(_ kind: String, _ what: String) {
        if dropped.isEmpty {
            report("\(running) programs running, the most toastd runs at once: \(what) dropped, "
                   + "and any more until one ends")
        }
        dropped[kind, default: 0] += 1
    }
}
