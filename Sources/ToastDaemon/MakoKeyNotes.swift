#if canImport(Glibc)
import Glibc
#endif
import ToastConfig

/// mako's keys toastd reads but does not use (`mako key 'X' is not supported`) are said once per
/// file, not at every start and reload: a file shared with mako during a trial would otherwise make
/// each `toast reload` fail for lines that are meant for mako. Which were said is kept in
/// `$XDG_STATE_HOME/toastd/mako-keys` (else `~/.local/state/toastd/mako-keys`), one
/// `PATH<TAB>MESSAGE` a line; `toastd --check-config` still lists them all.
struct MakoKeyNotes {
    /// The notes file; nil: nowhere to keep them (every start says them, as before).
    let path: String?
    /// At most this many notes are kept (a file of thousands of mako lines must not grow it without end).
    static let maxNotes = 512

    /// Where `environment` puts the state directory.
    static func defaultPath(_ environment: (String) -> String?) -> String? {
        HistoryFile.defaultPath(environment).map { history in
            String(history[..<(history.lastIndex(of: "/") ?? history.endIndex)]) + "/mako-keys"
        }
    }

    /// Whether `diagnostic` is one of these notes (by the parser's words for them).
    static func isMakoKeyNote(_ diagnostic: ConfigDiagnostic) -> Bool {
        diagnostic.message.hasPrefix("mako key '") && diagnostic.message.hasSuffix("' is not supported")
    }

    /// `diagnostics` without the mako-key notes already said for this file; the new ones are
    /// remembered as said.
    func unsaid(_ diagnostics: [ConfigDiagnostic]) -> [ConfigDiagnostic] {
        guard let path, diagnostics.contains(where: Self.isMakoKeyNote) else { return diagnostics }
        var said = Set(Self.read(path))
        var added: [String] = []
        let kept = diagnostics.filter { diagnostic in
            guard Self.isMakoKeyNote(diagnostic) else { return true }
            let note = "\(diagnostic.path)\t\(diagnostic.message)"
            guard !said.contains(note) else { return false }
            said.insert(note)
            added.append(note)
            return true
        }
        if !added.isEmpty { Self.append(added, to: path) }
        return kept
    }

    private static func read(_ path: String) -> [String] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < maxNotes * 300 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Appends `notes`, starting the file afresh once it holds `maxNotes`; a failure only means they
    /// are said again next time.
    private static func append(_ notes: [String], to path: String) {
        if let slash = path.lastIndex(of: "/") { makeDirectories(String(path[..<slash])) }
        let full = read(path).count + notes.count > maxNotes
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (full ? O_TRUNC : O_APPEND), 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let text = Array(notes.map { $0.filter { $0 != "\n" } + "\n" }.joined().utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    private static func makeDirectories(_ path: String) {
        var built = ""
        for part in path.split(separator: "/") {
            built += "/" + part
            _ = mkdir(built, 0o700)
        }
    }
}
