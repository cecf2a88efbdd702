import ToastCore
import ToastRender
import ToastVocabulary

/// Values of mako's keys that toastd reads in mako's own words (the rest of the parser is toastd's).
package enum MakoKeys {
    /// `progress-color = [over|source] COLOR`: how mako composites the progress over the background,
    /// and the colour. With a mode, toastd draws as mako does (`ToastStyle.progressFill`); without,
    /// its own bar.
    package static func progressColour(_ value: String) -> (fill: ProgressFill?, colour: String) {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 2, let fill = ProgressFill(rawValue: words[0].lowercased()) else { return (nil, value) }
        return (fill, String(words[1]))
    }

    /// `progress-color`'s value: a colour, with mako's `over` or `source` before it or not.
    package static let progressColourValue = ConfigValue<ProgressColour>(.colour) { key, text throws(SettingError) in
        let split = progressColour(text)
        return ProgressColour(fill: split.fill, colour: try Values.colour.read(key, split.colour))
    }

    /// `sort`'s value.
    package static let sortValue = Values.choice([("-time", ToastSort.time(newestFirst: true)),
                                                  ("+time", ToastSort.time(newestFirst: false)),
                                                  ("-priority", ToastSort.priority(highestFirst: true)),
                                                  ("+priority", ToastSort.priority(highestFirst: false))],
                                                 listed: .oneOf)
}

/// A `progress-color` value: the colour, and how mako composites it (nil: toastd's bar).
package struct ProgressColour: Sendable {
    package var fill: ProgressFill?
    package var colour: Color
}

/// The order of a stack's toasts from its anchored edge (mako's `sort`): by arrival (`-time`, newest
/// first, the default; `+time`, oldest first) or by urgency (`-priority`, critical first; `+priority`,
/// low first; the newest first among equals). Which toasts show under `max-visible` does not change.
package enum ToastSort: Equatable, Sendable {
    case time(newestFirst: Bool)
    case priority(highestFirst: Bool)

    package static let `default` = ToastSort.time(newestFirst: true)

    /// mako's value: `+time`, `-time`, `+priority`, `-priority`.
    package init?(makoValue: String) {
        switch makoValue {
        case "-time": self = .time(newestFirst: true)
        case "+time": self = .time(newestFirst: false)
        case "-priority": self = .priority(highestFirst: true)
        case "+priority": self = .priority(highestFirst: false)
        default: return nil
        }
    }

    /// `newestFirst` (ids, newest first) in this order; `urgency` of each (nil: normal).
    package func arrange<IDs: Collection<NotificationID>>(_ newestFirst: IDs, urgency: (NotificationID) -> Urgency?)
        -> [NotificationID]
    {
        switch self {
        case .time(newestFirst: true): return Array(newestFirst)
        case .time(newestFirst: false): return newestFirst.reversed()
        case .priority(let highestFirst):
            // Stable: the newest first among toasts of one urgency.
            let ranked = newestFirst.enumerated().map { (offset: $0.offset, id: $0.element, rank: Self.rank(urgency($0.element))) }
            return ranked.sorted {
                $0.rank != $1.rank ? (highestFirst ? $0.rank > $1.rank : $0.rank < $1.rank) : $0.offset < $1.offset
            }.map(\.id)
        }
    }

    private static func rank(_ urgency: Urgency?) -> Int {
        switch urgency ?? .normal {
        case .low: 0
        case .normal: 1
        case .critical: 2
        }
    }
}

extension DaemonConfig {
    /// How far the toast stacks sit from the screen's edges: `margin`, plus mako's `outer-margin`.
    package var edgeMargins: Margins {
        Margins(top: margins.top + outerMargins.top, right: margins.right + outerMargins.right,
                bottom: margins.bottom + outerMargins.bottom, left: margins.left + outerMargins.left)
    }
}
