import ToastCore
import ToastRender
import ToastVocabulary

/// The kinds of value a configuration key takes, with their ranges: what the key table says of
/// each key (docs, tests), and what its reader holds a value to.
package enum ValueKind: Equatable, Sendable {
    case wholeNumber(ClosedRange<Int>)
    case decimal(ClosedRange<Double>)
    /// Milliseconds up to a day; 0 means never.
    case timeout
    /// `#RRGGBB` or `#RRGGBBAA`.
    case colour
    case boolean
    /// One of these words, in any case.
    case choice([String])
    /// One to four whole numbers, as CSS and mako have them.
    case margins
    /// A Pango font description.
    case font
    /// `focused`, `all` or an output's name; empty globally: the default.
    case output
    /// What an event does (`Binding`).
    case binding
    /// mako's `format`.
    case format
    /// mako's `group-by` fields.
    case groupBy
    /// `none`, an absolute path or a sound theme name.
    case sound
    /// A command and its arguments, split at blanks; `none`: no command.
    case command
    /// An icon theme's directory name.
    case themeName
    /// Absolute directories separated by `:`.
    case directories

    /// A value of this kind every reader of it accepts.
    package var sample: String {
        switch self {
        case .wholeNumber(let range): "\(range.upperBound)"
        case .decimal(let range): "\(range.upperBound)"
        case .timeout: "1500"
        case .colour: "#11223344"
        case .boolean: "yes"
        case .choice(let words): words.last ?? ""
        case .margins: "1,2,3,4"
        case .font: "Serif 11"
        case .output: "all"
        case .binding: "dismiss"
        case .format: "%s"
        case .groupBy: "app-name"
        case .sound: "bell"
        case .command: "/usr/bin/true"
        case .themeName: "Adwaita"
        case .directories: "/usr/share/icons:/opt/icons"
        }
    }
}

/// Why a line's value or key was refused: the text of its diagnostic.
package struct SettingError: Error {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// How one kind of value is read: `read(key, text)` returns the value or throws the message naming
/// `key`. Each kind is written once, in `Values`, whatever keys and places use it.
package struct ConfigValue<Value: Sendable>: Sendable {
    package let kind: ValueKind
    package let read: @Sendable (_ key: String, _ text: String) throws(SettingError) -> Value

    package init(_ kind: ValueKind, read: @escaping @Sendable (String, String) throws(SettingError) -> Value) {
        self.kind = kind; self.read = read
    }
}

/// The value readers of the key table.
package enum Values {
    package static let maxTimeout: Milliseconds = 86_400_000  // a day

    package static func wholeNumber(_ range: ClosedRange<Int>) -> ConfigValue<Int> {
        ConfigValue(.wholeNumber(range)) { key, text throws(SettingError) in try integer(key, text, in: range) }
    }

    /// A whole number of milliseconds in `range`.
    package static func milliseconds(_ range: ClosedRange<Int>) -> ConfigValue<Milliseconds> {
        ConfigValue(.wholeNumber(range)) { key, text throws(SettingError) in Milliseconds(try integer(key, text, in: range)) }
    }

    package static func decimal(_ range: ClosedRange<Double>) -> ConfigValue<Double> {
        ConfigValue(.decimal(range)) { key, text throws(SettingError) in
            guard let number = Double(text), number.isFinite else {
                throw SettingError("'\(key)' must be a number, got '\(excerpt(text))'")
            }
            guard range.contains(number) else {
                throw SettingError("'\(key)' = \(text) is out of range (\(Int(range.lowerBound))...\(Int(range.upperBound)))")
            }
            return number
        }
    }

    /// Milliseconds; 0 means never (nil).
    package static let timeout = ConfigValue<Milliseconds?>(.timeout) { key, text throws(SettingError) in
        let ms = try integer(key, text, in: 0...Int(maxTimeout))
        return ms == 0 ? nil : Milliseconds(ms)
    }

    package static let boolean = ConfigValue<Bool>(.boolean) { key, text throws(SettingError) in
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw SettingError("'\(key)' must be true or false, got '\(excerpt(text))'")
        }
    }

    package static let colour = ConfigValue<Color>(.colour) { key, text throws(SettingError) in try readColour(key, text) }

    /// A colour; mako's `over #5588aaff` (or `source`, how it composites) too: toastd draws the bar
    /// over its track either way, so only the colour counts.
    package static let progressColour = ConfigValue<Color>(.colour) { key, text throws(SettingError) in
        for mode in ["over ", "source "] where text.lowercased().hasPrefix(mode) {
            return try readColour(key, String(blankTrimmed(text.dropFirst(mode.count)[...])))
        }
        return try readColour(key, text)
    }

    /// How a refused word lists the accepted ones: "one of a, b, c" or "a, b or c".
    package enum Listing: Sendable { case oneOf, alternatives }

    /// One of `choices`' words, in any case.
    package static func choice<Choice: Sendable>(_ choices: [(String, Choice)], listed: Listing) -> ConfigValue<Choice> {
        let words = choices.map(\.0)
        let known = switch listed {
        case .oneOf: "one of " + words.joined(separator: ", ")
        case .alternatives: words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
        }
        return ConfigValue(.choice(words)) { key, text throws(SettingError) in
            guard let match = choices.first(where: { $0.0 == text.lowercased() }) else {
                throw SettingError("'\(key)' must be \(known), got '\(excerpt(text))'")
            }
            return match.1
        }
    }

    /// One of an enumeration's raw values, in any case.
    package static func choice<Choice: RawRepresentable<String> & CaseIterable & Sendable>(
        of type: Choice.Type, listed: Listing) -> ConfigValue<Choice>
    {
        choice(Choice.allCases.map { ($0.rawValue, $0) }, listed: listed)
    }

    /// One to four numbers, like CSS and mako: all; vertical,horizontal; top,horizontal,bottom;
    /// top,right,bottom,left. Commas or blanks between them.
    package static let margins = ConfigValue<Margins>(.margins) { key, text throws(SettingError) in
        var numbers: [Int] = []
        for part in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
            guard let number = Int(part) else {
                throw SettingError("'\(key)' must be 1 to 4 whole numbers, got '\(excerpt(text))'")
            }
            guard (0...10_000).contains(number) else {
                throw SettingError("'\(key)' = \(number) is out of range (0...10000)")
            }
            numbers.append(number)
        }
        switch numbers.count {
        case 1: return Margins(all: numbers[0])
        case 2: return Margins(top: numbers[0], right: numbers[1], bottom: numbers[0], left: numbers[1])
        case 3: return Margins(top: numbers[0], right: numbers[1], bottom: numbers[2], left: numbers[1])
        case 4: return Margins(top: numbers[0], right: numbers[1], bottom: numbers[2], left: numbers[3])
        default: throw SettingError("'\(key)' must be 1 to 4 whole numbers, got '\(excerpt(text))'")
        }
    }

    /// A Pango font description ("Sans 10", "Iosevka Term 11.5"): the body font; the summary is its
    /// bold, the caption (app name, time) 85 % of its size.
    package static let font = ConfigValue<FontSet>(.font) { key, text throws(SettingError) in
        guard text.utf8.count <= 200 else { throw SettingError("'\(key)' is too long") }
        var words = text.split(separator: " ")
        if let last = words.last, let size = Double(last), size.isFinite {
            guard (4...200).contains(size) else {
                throw SettingError("'\(key)' size \(last) is out of range (4...200)")
            }
            words.removeLast()
            let family = words.joined(separator: " ")
            let prefix = family.isEmpty ? "" : family + " "
            let small = (size * 8.5).rounded() / 10
            return FontSet(body: text, bold: "\(prefix)Bold \(last)", small: "\(prefix)\(small)")
        }
        return FontSet(body: text, bold: text + " Bold", small: text)
    }

    /// `focused`, `all` or an output's name; empty: the default (nil).
    package static let output = ConfigValue<String?>(.output) { key, text throws(SettingError) in
        guard text.utf8.count <= 256 else { throw SettingError("'\(key)' is too long") }
        return text.isEmpty ? nil : text
    }

    package static let binding = ConfigValue<Binding>(.binding) { key, text throws(SettingError) in
        switch Binding.parse(text) {
        case .success(let binding): return binding
        case .failure(let error): throw SettingError("'\(key)': \(error.message)")
        }
    }

    package static let format = ConfigValue<FormatString>(.format) { key, text throws(SettingError) in
        switch FormatString.parse(text) {
        case .success(let format): return format
        case .failure(let error): throw SettingError("'\(key)': \(error.message)")
        }
    }

    package static let groupBy = ConfigValue<[GroupField]>(.groupBy) { key, text throws(SettingError) in
        switch GroupField.parseList(text) {
        case .success(let fields): return fields
        case .failure(let error): throw SettingError("'\(key)': \(error.message)")
        }
    }

    /// `none` (nil), an absolute path (a file), or a sound theme name (`message-new-instant`).
    package static let sound = ConfigValue<NotificationSound?>(.sound) { key, text throws(SettingError) in
        if text == "none" { return nil }
        guard text.utf8.count <= 1024 else { throw SettingError("'\(key)' is too long") }
        if text.hasPrefix("/") { return .file(text) }
        guard text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw SettingError("'\(key)' must be none, an absolute path or a sound name, got '\(excerpt(text))'")
        }
        return .name(text)
    }

    /// Words split at blanks; `none`: no command (empty).
    package static let command = ConfigValue<[String]?>(.command) { key, text throws(SettingError) in
        guard text.utf8.count <= 1024 else { throw SettingError("'\(key)' is too long") }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return words.isEmpty ? nil : words == ["none"] ? [] : words
    }

    package static let themeName = ConfigValue<String>(.themeName) { key, text throws(SettingError) in
        guard ThemeIndex.isThemeName(text) else {
            throw SettingError("'\(key)' must be a theme's directory name, got '\(excerpt(text))'")
        }
        return text
    }

    package static let directories = ConfigValue<[String]>(.directories) { key, text throws(SettingError) in
        let paths = text.split(separator: ":").map(String.init)
        guard paths.count <= 32, paths.allSatisfy({ $0.hasPrefix("/") }) else {
            throw SettingError("'\(key)' must be up to 32 absolute directories separated by ':', got '\(excerpt(text))'")
        }
        return paths
    }

    // MARK: - Shared readers

    private static func integer(_ key: String, _ text: String, in range: ClosedRange<Int>) throws(SettingError) -> Int {
        guard let number = Int(text) else {
            throw SettingError("'\(key)' must be a whole number, got '\(excerpt(text))'")
        }
        guard range.contains(number) else {
            throw SettingError("'\(key)' = \(number) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return number
    }

    private static func readColour(_ key: String, _ text: String) throws(SettingError) -> Color {
        let hex = text.utf8.dropFirst()
        guard text.hasPrefix("#"), hex.count == 6 || hex.count == 8,
              hex.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }),
              let number = UInt32(String(text.dropFirst()), radix: 16)
        else {
            throw SettingError("'\(key)' must be a colour #RRGGBB or #RRGGBBAA, got '\(excerpt(text))'")
        }
        if hex.count == 6 { return Color(rgb: number) }
        return Color(rgb: number >> 8, alpha: Double(number & 0xff) / 255)
    }

    // MARK: - Text

    package static func blankTrimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }

    /// At most 60 characters of `text`, to quote in a message.
    package static func excerpt(_ text: some StringProtocol) -> String {
        text.count <= 60 ? String(text) : String(text.prefix(57)) + "..."
    }
}
