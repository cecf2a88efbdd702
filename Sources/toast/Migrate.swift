#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import ToastMigrate

/// `toast migrate dunstrc [FILE] [-o PATH] [--force]`: another daemon's configuration as toastd's.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Convert another notification daemon's configuration to toastd's.",
        subcommands: [Dunstrc.self])

    /// Exit status when the file cannot be read, converted or written.
    static let failed: Int32 = 1

    struct Dunstrc: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dunstrc",
            abstract: "Print a dunstrc as toastd's configuration; what cannot be carried over becomes comments.",
            discussion: """
                Without FILE: $XDG_CONFIG_HOME/dunst/dunstrc (~/.config/dunst/dunstrc), then \
                dunst/dunstrc in $XDG_CONFIG_DIRS (/etc/xdg), as dunst looks. The result passes \
                `toastd --check-config`. Exit status: 0 converted; 1 the file cannot be read or \
                written; 64 bad usage.
                """)

        @Argument(help: "The dunstrc to convert.", completion: .file())
        var file: String?

        @Option(name: [.customShort("o"), .long],
                help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"),
                completion: .file())
        var output: String?

        @Flag(help: "With -o: replace the file if it exists.")
        var force = false

        mutating func validate() throws {
            if force && output == nil { throw ValidationError("--force needs -o PATH") }
            if output?.isEmpty == true { throw ValidationError("-o needs a path") }
        }

        func run() throws {
            do throws(MigrateFiles.Failure) {
                let path = try source()
                let input = try MigrateFiles.read(path)
                let converted: DunstMigration.Result
                switch DunstMigration.convert(input.bytes, source: path) {
                case .success(let result): converted = result
                case .failure(let error): throw MigrateFiles.Failure(message: "\(path): \(error.message)")
                }
                if let output {
                    try MigrateFiles.write(converted.text, to: output, force: force, input: input.identity)
                } else {
                    Output.write(fd: 1, converted.text)
                }
                Output.error("\(path): \(count(converted.settings, "setting")) written\(output.map { " to \($0)" } ?? ""); "
                    + "\(count(converted.skipped, "line")) not carried over, \(converted.differing) carried over with a difference "
                    + "(see the comments)")
            } catch {
                Output.error(error.message)
                throw ExitCode(Migrate.failed)
            }
        }

        private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

        /// FILE, or the first dunstrc found where dunst looks.
        private func source() throws(MigrateFiles.Failure) -> String {
            if let file { return file }
            let candidates = MigrateFiles.defaultCandidates(Connection.getenvString)
            guard let found = candidates.first(where: { access($0, F_OK) == 0 }) else {
                throw MigrateFiles.Failure(message: "no dunstrc found (looked at \(candidates.joined(separator: ", "))); name one: toast migrate dunstrc FILE")
            }
            return found
        }
    }
}
