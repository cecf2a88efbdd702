#if canImport(Glibc)
import Glibc
import ToastPlatform
#endif
import ArgumentParser
import ToastProtocol
import ToastVocabulary

/// `toast hud KIND VALUE[%] [--muted] [--custom] [--label TEXT] [--icon NAME]` or `toast hud --stream KIND`.
struct Hud: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hud",
        abstract: "Show a HUD bar (volume, brightness, ...) at a value in percent.",
        discussion: """
            With --stream, reads one value per line from standard input and updates the bar over one \
            connection (like wob): a line is VALUE, VALUE%, or VALUE followed by "muted". A bad line is \
            reported on stderr and skipped; end of input ends cleanly.
            """)

    @Argument(help: ArgumentHelp("What the bar shows: \(HudKinds.known.map(\.name).joined(separator: ", ")) (any name with --custom)."),
              completion: .list(HudKinds.names))
    var kind: String

    @Argument(help: ArgumentHelp("The value in percent, 40 or 40% (0-200; above 100 is overdrive; below 0 shows 0, with a warning).",
                                 valueName: "value"),
              transform: { text in
                  guard let v = HudStreamLine.percent(Substring(text)) else {
                      throw ValidationError("VALUE must be a number, like 40 or 40%, not '\(text)'")
                  }
                  return v
              })
    var value: Int?

    @Flag(help: "Read values from standard input, one per line.")
    var stream = false

    @Flag(help: "Show the bar as muted.")
    var muted = false

    @Flag(help: "KIND is a bar of your own (any name, shown with its name as title and icon).")
    var custom = false

    @Option(help: "A text label.")
    var label: String?

    @Option(help: "An icon name or path.")
    var icon: String?

    mutating func validate() throws {
        if kind.isEmpty { throw ValidationError("KIND must not be empty") }
        if !custom, let refusal = Self.refusal(ofKind: kind) { throw ValidationError(refusal) }
        if stream && value != nil { throw ValidationError("give a VALUE or --stream, not both") }
        if !stream && value == nil { throw ValidationError("missing VALUE (or --stream)") }
        if let v = value, v > HudParams.valueRange.upperBound {
            throw ValidationError("VALUE must be in \(HudParams.valueRange.lowerBound)...\(HudParams.valueRange.upperBound)")
        }
    }

    /// Why `kind` is not a bar toastd knows (`HudKinds`), with the nearest known name when it looks
    /// like a typo of one; nil for a known name. A typo would otherwise show a bar titled "Volum".
    static func refusal(ofKind kind: String) -> String? {
        guard HudKinds.kind(named: kind) == nil else { return nil }
        let word = Array(kind.lowercased())
        let nearest = HudKinds.names
            .map { (name: $0, distance: CommandTypo.damerauLevenshtein(word, Array($0))) }
            .min { $0.distance < $1.distance }
        let custom = "--custom shows a bar of any name"
        let typo = nearest.flatMap { $0.distance <= max(1, min(word.count, $0.name.count) / 3) ? $0.name : nil }
        let begun = word.count >= 3 ? HudKinds.names.first { $0.hasPrefix(String(word)) } : nil
        if let near = typo ?? begun {
            let name = HudKinds.kind(named: near)?.name ?? near
            return "unknown HUD '\(kind)'; did you mean \(name)? (\(custom))"
        }
        return "unknown HUD '\(kind)' (known: \(HudKinds.known.map(\.name).joined(separator: ", ")); \(custom))"
    }

    /// ArgumentParser reads `-5` as an option: `hud KIND -5 [flags]` becomes `hud KIND [flags] -- -5` so
    /// that a negative VALUE parses (and is then shown as 0 with a warning). Other command lines are
    /// returned unchanged.
    static func negativeValueAfterTerminator(_ arguments: [String]) -> [String] {
        guard arguments.first == "hud", !arguments.contains("--") else { return arguments }
        let isNegative = { (word: String) in
            word.count > 1 && word.first == "-" && HudStreamLine.percent(Substring(word)) != nil
        }
        let negatives = arguments.filter(isNegative)
        guard negatives.count == 1 else { return arguments }
        return arguments.filter { !isNegative($0) } + ["--"] + negatives
    }

    /// `--stream` in one hop: standard input goes to toastd (SCM_RIGHTS), which reads the values itself
    /// as wob reads its stdin; this process only prints the bad lines toastd reports and returns when
    /// the input ends. False when toastd cannot take it (a regular file, which epoll cannot watch, or
    /// an older daemon): the caller then relays the lines itself.
    private func handOverStandardInput(to connection: Connection) throws(ClientFailure) -> Bool {
        var info = stat()
        guard fstat(0, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return false }
        try connection.send(.hudStream(params(value: 0, muted: muted)), passing: 0)
        do {
            _ = try connection.reply()
        } catch where error.status == Exit.daemonError {
            return false
        }
        while let event = try connection.nextEvent() {
            switch event {
            case .streamProblem(let line, let message): Output.error("line \(line): \(message)")
            case .streamEnd: return true
            default: continue
            }
        }
        throw ClientFailure.protocolViolation("toastd closed the connection while reading the stream")
    }

    /// The request for `value`, clamped up to 0 (the protocol takes no negative value).
    func params(value: Int, muted: Bool) -> HudParams {
        HudParams(kind: kind, value: max(value, HudParams.valueRange.lowerBound), muted: muted, label: label, icon: icon)
    }

    func run() throws {
        try reportingFailures { () throws(ClientFailure) in
            let connection = try Connection()
            if let value {
                if value < HudParams.valueRange.lowerBound {
                    Output.error("warning: \(value) is below \(HudParams.valueRange.lowerBound); showing \(HudParams.valueRange.lowerBound)")
                }
                _ = try connection.call(.hud(params(value: value, muted: muted)))
                return
            }
            if try handOverStandardInput(to: connection) { return }
            var input = LineSplitter(limit: 1024)
            var buffer = [UInt8](repeating: 0, count: 4096)
            var lineNumber = 0
            func handle(_ line: [UInt8]) throws(ClientFailure) {
                lineNumber += 1
                let text = String(decoding: line, as: UTF8.self)
                switch HudStreamLine.parse(text) {
                case .none: return
                case .failure(let why): Output.error("line \(lineNumber): \(why)")
                case .value(let v, let lineMuted):
                    do {
                        _ = try connection.call(.hud(params(value: v, muted: muted || lineMuted)))
                    } catch where error.status == Exit.daemonError {
                        Output.error("line \(lineNumber): \(error.message)")
                    }
                }
            }
            let standardInput = FileDescriptor(rawValue: 0)
            while true {
                let read = buffer.withUnsafeMutableBytes { bytes in Result { () throws(SystemError) in try standardInput.read(into: bytes) } }
                let n: Int
                switch read {
                case .success(let count): n = count
                case .failure(let error):
                    throw ClientFailure(message: "reading standard input: \(error.reason)", status: Exit.daemonError)
                }
                if n == 0 { break }
                buffer.withUnsafeBytes { input.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                while let item = input.next() {
                    switch item {
                    case .line(let line): try handle(line)
                    case .tooLong:
                        lineNumber += 1
                        Output.error("line \(lineNumber): longer than \(input.limit) bytes")
                    }
                }
            }
            if let last = input.finish() { try handle(last) }
        }
    }
}

/// `toast loading start KEY [--label TEXT] [--detach]` / `toast loading stop KEY` / `toast loading run KEY -- CMD`.
struct Loading: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loading",
        abstract: "Show or hide a loading spinner.",
        subcommands: [Start.self, Stop.self, Run.self])

    /// Sends a loading request; a non-detached start then blocks until the daemon hangs up.
    static func send(_ request: Request) throws(ClientFailure) {
        let connection = try Connection()
        _ = try connection.call(request)
        if case .loadingStart(_, _, detach: false) = request { try connection.waitForHangUp() }
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start a loading spinner named KEY.",
            discussion: """
                Without --detach, toast keeps running and the spinner lasts as long as it does: it stops when \
                this process ends (Ctrl-C, kill) or exits when `toast loading stop KEY` stops it. With \
                --detach, toast returns at once and the spinner lasts until `toast loading stop KEY`.
                """)

        @Argument(help: "The spinner's name.")
        var key: String

        @Option(help: "A text label.")
        var label: String?

        @Flag(help: "Return at once; the spinner stays until `toast loading stop KEY`.")
        var detach = false

        mutating func validate() throws {
            if key.isEmpty { throw ValidationError("KEY must not be empty") }
        }

        var request: Request { .loadingStart(key: key, label: label, detach: detach) }

        func run() throws {
            let request = request
            try reportingFailures { () throws(ClientFailure) in try Loading.send(request) }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop", abstract: "Stop the loading spinner named KEY.")

        @Argument(help: "The spinner's name.")
        var key: String

        mutating func validate() throws {
            if key.isEmpty { throw ValidationError("KEY must not be empty") }
        }

        func run() throws {
            let key = key
            try reportingFailures { () throws(ClientFailure) in try Loading.send(.loadingStop(key: key)) }
        }
    }
}
