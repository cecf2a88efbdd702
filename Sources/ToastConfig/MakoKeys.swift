import ToastRender

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
}
