import ToastVocabulary

/// What `ConfigParser` made of a file: the configuration (defaults where the file says nothing or says
/// something wrong) and one diagnostic per bad line.
public struct ParsedConfig: Equatable, Sendable {
    public var config: DaemonConfig
    /// The first `ConfigParser.maxDiagnostics` problems, in file order.
    public var diagnostics: [ConfigDiagnostic]
    /// Problems beyond `maxDiagnostics`, counted but not listed (a garbage file must not flood the log).
    public var unlistedCount = 0
    /// The whole file was refused (binary): `config` is the defaults and the daemon keeps what it has.
    public var fileRejected = false

    /// Every problem found, listed or not.
    public var warningCount: Int { diagnostics.count + unlistedCount }

    package init(config: DaemonConfig, diagnostics: [ConfigDiagnostic]) {
        self.config = config
        self.diagnostics = diagnostics
    }
}

/// Parses toastd's configuration file: `key = value` lines, `#` comments, blank lines and
/// `[urgency=low|normal|critical]` / `[global]` / criteria sections (docs/configuration.md). What each
/// key takes and changes is in the key table, `ConfigKeys`.
///
/// Defensive, like wob with its input: a bad line (unknown key, bad or out-of-range value, bad colour,
/// invalid UTF-8, too long) is reported as `path:line: message` and skipped; every other line applies.
/// Nothing here fails. Pure: bytes in, configuration out.
public enum ConfigParser {
    /// Longer lines are skipped whole (no key needs more; a font name is at most a few dozen bytes).
    public static let maxLineLength = 4096
    public static let maxDiagnostics = 100

    /// Every key the file may set, in the table's order.
    package static let keys = ConfigKeys.all.map(\.name)
    /// The keys a criteria section (`[app-name=...]`, `[urgency=...]`) may set.
    package static let ruleKeys = ConfigKeys.all.filter { $0.section != nil }.map(\.name)
    /// The keys an `[urgency=...]` section sets per urgency.
    package static let urgencyKeys = ConfigKeys.all.filter { $0.perUrgency != nil }.map(\.name)

    /// Parses `text`; `path` only labels the diagnostics.
    public static func parse(_ text: String, path: String) -> ParsedConfig {
        parse(Array(text.utf8), path: path)
    }

    /// Parses the raw bytes of a file; `path` only labels the diagnostics.
    public static func parse(_ bytes: [UInt8], path: String) -> ParsedConfig {
        if let nul = bytes.firstIndex(of: 0) {
            var result = ParsedConfig(config: DaemonConfig(), diagnostics: [])
            result.diagnostics = [ConfigDiagnostic(path: path, line: nil,
                                                   message: "not a text file (NUL byte at offset \(nul)); ignored")]
            result.fileRejected = true
            return result
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }  // UTF-8 byte order mark
        var reader = ConfigReader(path: path)
        for raw in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            reader.read(line: raw.last == 0x0D ? raw.dropLast() : raw)  // CRLF files too
        }
        return reader.finish()
    }
}

/// One parse under way: the lines read so far, what they assign and the rules of their sections.
struct ConfigReader {
    private let path: String
    private var result = ParsedConfig(config: DaemonConfig(), diagnostics: [])
    private var assignments: [Assignment] = []
    private var section = Section.global
    private var rules: [Rule] = []
    /// The rules that set something besides the per-urgency values of an `[urgency=...]` section.
    private var rulesBeyondUrgencyValues: Set<Int> = []
    /// The rule that global rule-only keys (`invisible` with no section) went into, until the next header.
    private var globalRuleOpen = false
    private var lineNumber = 0

    /// A global change, applied in (rank, order) order once the whole file is read.
    private struct Assignment {
        var rank: AssignmentRank
        var order: Int
        var apply: (inout DaemonConfig) -> Void
    }

    private enum Section {
        case global
        /// `[center]`: the notification center's look (`CenterConfig`, keys of its own).
        case center
        /// A criteria section, `[urgency=critical]` included: the index of its rule.
        case rule(Int)
        /// A section whose header is wrong: its lines are skipped without one diagnostic each.
        case ignored
    }

    init(path: String) { self.path = path }

    mutating func read(line raw: ArraySlice<UInt8>) {
        lineNumber += 1
        guard raw.count <= ConfigParser.maxLineLength else {
            return report("line too long (\(raw.count) bytes, at most \(ConfigParser.maxLineLength)); skipped")
        }
        guard let text = String(validating: raw, as: UTF8.self) else { return report("not valid UTF-8; skipped") }
        let line = Values.blankTrimmed(text[...])
        if line.isEmpty || line.hasPrefix("#") { return }
        if line.hasPrefix("[") { return header(line) }
        guard let equals = line.firstIndex(of: "=") else {
            return report("expected 'key = value', got '\(Values.excerpt(line))'")
        }
        let rawKey = Values.blankTrimmed(line[..<equals]).lowercased()
        let value = unquoted(Values.blankTrimmed(line[line.index(after: equals)...]))
        guard !rawKey.isEmpty else { return report("missing key before '='") }
        do throws(SettingError) {
            try assign(key: ConfigKeys.aliases[rawKey] ?? rawKey, value: String(value))
        } catch {
            report(error.message)
        }
    }

    /// The configuration: broad keys first (default-timeout, border-color), then specific ones, then
    /// urgency sections, each in file order: `critical-timeout` wins over `default-timeout` wherever
    /// it is written.
    consuming func finish() -> ParsedConfig {
        assignments.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
        for assignment in assignments { assignment.apply(&result.config) }
        result.config.rules = RuleSet(rules: withoutRedundantRules())
        return result
    }

    private mutating func report(_ message: String) {
        if result.diagnostics.count < ConfigParser.maxDiagnostics {
            result.diagnostics.append(ConfigDiagnostic(path: path, line: lineNumber, message: message))
        } else {
            result.unlistedCount += 1
        }
    }

    // MARK: - Keys

    private mutating func assign(key: String, value: String) throws(SettingError) {
        switch section {
        case .ignored: return  // its header was reported once
        case .center: add(.specific, { [change = try CenterConfig.setting(key: key, value: value)] in change(&$0.center) })
        case .global:
            guard let entry = ConfigKeys.named[key] else { throw Self.unknownKey(key) }
            guard let global = entry.global else {
                // A behaviour only rules have (`invisible`), given for everything: a rule matching all.
                if !globalRuleOpen {
                    rules.append(Rule(criteria: Criteria()))
                    globalRuleOpen = true
                }
                return try set(entry, value, inRule: rules.count - 1)
            }
            // Only an output may be empty: the default choice.
            if value.isEmpty && global.kind != .output { throw SettingError("'\(key)' needs a value") }
            add(global.rank, try global.use.read(key, value))
        case .rule(let index):
            try set(ConfigKeys.named[key], value, inRule: index, key: key)
        }
    }

    private mutating func set(_ entry: ConfigKey, _ value: String, inRule index: Int) throws(SettingError) {
        try set(entry, value, inRule: index, key: entry.name)
    }

    /// A key of a criteria section: into its rule; an `[urgency=...]` section's per-urgency keys also
    /// into the global value of that urgency.
    private mutating func set(_ entry: ConfigKey?, _ value: String, inRule index: Int, key: String) throws(SettingError) {
        guard let entry, let use = entry.section else {
            if entry != nil {
                let there = ConfigParser.ruleKeys.joined(separator: ", ")
                throw SettingError("'\(key)' cannot be set in a criteria section (there only: \(there))")
            }
            throw Self.unknownKey(key)
        }
        if value.isEmpty { throw SettingError("'\(key)' needs a value") }
        let criteria = rules[index].criteria
        // An `[urgency=...]` section's per-urgency key, as toastd always had them: into the global
        // value of that urgency (it also colours what has no notification, and a specific key loses
        // to it). The rule keeps the file order against other sections.
        let urgencyValue = criteria.isUrgencyOnly ? entry.perUrgency : nil
        if let urgencyValue, let urgency = criteria.urgency {
            add(.urgencySection, try urgencyValue.read(key, value, urgency))
        }
        let change = try use.read(key, value)
        if criteria.concernsGroups { try Self.lookOnly(change, key: key) }
        change(&rules[index])
        if urgencyValue == nil { rulesBeyondUrgencyValues.insert(index) }
    }

    private mutating func add(_ rank: AssignmentRank, _ apply: @escaping (inout DaemonConfig) -> Void) {
        assignments.append(Assignment(rank: rank, order: assignments.count, apply: apply))
    }

    private static func unknownKey(_ key: String) -> SettingError {
        if ConfigKeys.makoKeys.contains(key) { return SettingError("mako key '\(Values.excerpt(key))' is not supported") }
        return SettingError("unknown key '\(Values.excerpt(key))'")
    }

    /// Refuses a key of a `[grouped]` or `[group-index=N]` section that is not about the look: toasts
    /// are grouped when drawn, after their behaviour and stack were decided (mako refuses the stack
    /// keys and `group-by` there too).
    private static func lookOnly(_ change: (inout Rule) -> Void, key: String) throws(SettingError) {
        var probe = Rule(criteria: Criteria())
        change(&probe)
        guard probe.behaviour.isEmpty, probe.stack.isEmpty, probe.look.groupBy == nil else {
            throw SettingError("'\(key)' cannot be set in a [grouped] or [group-index] section (a group is drawn as one toast: only its look follows)")
        }
    }

    // MARK: - Sections

    private mutating func header(_ line: Substring) {
        globalRuleOpen = false
        if CenterConfig.isHeader(line) { return section = .center }
        switch Self.parseSection(line) {
        case .success(.some(let criteria)):
            rules.append(Rule(criteria: criteria))
            section = .rule(rules.count - 1)
        case .success(nil): section = .global
        case .failure(let error):
            report(error.message)
            section = .ignored
        }
    }

    /// The criteria of a section header (mako's syntax, see `Criteria`); nil for `[global]`.
    private static func parseSection(_ line: Substring) -> Result<Criteria?, SettingError> {
        let excerpt = Values.excerpt(line)
        guard line.hasSuffix("]") else {
            return .failure(SettingError("section header '\(excerpt)' lacks its closing ']'; lines up to the next section are ignored"))
        }
        let inside = String(line.dropFirst().dropLast())
        let compact = inside.filter { $0 != " " && $0 != "\t" }.lowercased()
        if compact == "global" { return .success(nil) }
        // toastd has always allowed blanks around the '=' of `[ urgency = critical ]`.
        if compact.hasPrefix("urgency="), let level = Urgency(rawValue: String(compact.dropFirst("urgency=".count))) {
            return .success(Criteria(urgency: level))
        }
        switch Criteria.parse(inside) {
        case .success(let criteria) where criteria.isEmpty:
            return .failure(SettingError("section '\(excerpt)' has no criteria; lines up to the next section are ignored"))
        case .success(let criteria): return .success(criteria)
        case .failure(let error):
            return .failure(SettingError("section '\(excerpt)': \(error.message); lines up to the next section are ignored"))
        }
    }

    /// Leading `[urgency=...]` sections that set only per-urgency keys: already in the global
    /// per-urgency values, so as rules they would change nothing. Dropping them keeps a file without
    /// other sections on the path without rules, as fast as before rules existed.
    private func withoutRedundantRules() -> [Rule] {
        let kept = rules.indices.drop { rules[$0].criteria.isUrgencyOnly && !rulesBeyondUrgencyValues.contains($0) }
        return Array(rules[kept])
    }

    /// `"Sans 10"` → `Sans 10`: quotes are optional around any value.
    private func unquoted(_ value: Substring) -> Substring {
        if value.count >= 2, value.first == "\"", value.last == "\"" { return value.dropFirst().dropLast() }
        return value
    }
}
