import Glibc
import ToastCore
import ToastPlatform

/// The history file on disk: read once at start, and rewritten whole, never in place (a temporary
/// file in the same directory, then `rename`), so a reader or a crash finds the old file or the new
/// one, never half of one. Its text is `HistoryFormat`'s.
///
/// No `fsync`: the write happens on the loop, and an fsync can wait on the disk for far longer than
/// a request may. A machine that loses power may so lose the last second of history, not the file.
struct HistoryFile {
    /// The file's path.
    let path: String

    /// `$XDG_STATE_HOME/toastd/history`, else `$HOME/.local/state/toastd/history`; nil without either.
    static func defaultPath(_ environment: (String) -> String?) -> String? {
        if let base = environment("XDG_STATE_HOME"), base.hasPrefix("/") {
            return base + "/toastd/history"
        }
        if let home = environment("HOME"), home.hasPrefix("/") {
            return home + "/.local/state/toastd/history"
        }
        return nil
    }

    /// The records kept by an earlier run, newest first. No file: none. A file that cannot be read back
    /// (not ours, another version, damaged) is reported, renamed `history.corrupt-TIME` for a human to
    /// look at, and none are loaded: a bad file never keeps the daemon from starting.
    func load() -> [HistoryRecord] {
        switch ConfigFile.read(path, maxSize: 4 * HistoryFormat.maxBytes) {
        case .missing:
            return []
        case .unusable(let reason):
            setAside(because: reason)
            return []
        case .bytes(let bytes):
            switch HistoryFormat.decode(bytes) {
            case .success(let records): return records
            case .failure(let problem):
                setAside(because: problem.description)
                return []
            }
        }
    }

    private func setAside(because reason: String) {
        let aside = "\(path).corrupt-\(Self.timestamp())"
        if rename(path, aside) == 0 {
            Log.warning("history \(path) cannot be read (\(reason)); moved to \(aside), starting with an empty history")
        } else {
            Log.warning("history \(path) cannot be read (\(reason)) nor moved aside (\(String(cString: strerror(errno)))); "
                        + "starting with an empty history")
        }
    }

    /// Replaces the file with `bytes`: the directories are made (0700) if missing and the file's own
    /// made 0700 if it was not, a temporary file is written beside the file and renamed over it. The
    /// temporary file is a new one with a name no one could guess (`mkstemp`: O_EXCL, mode 0600), so a
    /// link put in its place beforehand is never followed. Throws a message to log.
    func save(_ bytes: [UInt8]) throws(SystemError) {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try Self.makeDirectories(directory)
        try Self.makePrivate(directory)
        var template = Array("\(path).tmp-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw SystemError("create a temporary file beside \(path)") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do {
            try FileDescriptor(rawValue: fd).writeAll(bytes)
        } catch {
            close(fd)
            unlink(temporary)
            throw SystemError("write \(temporary)", code: error.code)
        }
        guard close(fd) == 0 else {
            let error = SystemError("close \(temporary)")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = SystemError("rename \(temporary) to \(path)")
            unlink(temporary)
            throw error
        }
    }

    /// `mkdir -p`, with mode 0700 for what it makes (the history is private).
    private static func makeDirectories(_ directory: String) throws(SystemError) {
        guard !directory.isEmpty else { return }
        var prefix = ""
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw SystemError("mkdir \(prefix)") }
        }
    }

    /// Takes group and others' access away from `directory`, toastd's own (a directory made by an older
    /// version, or by hand, may be 0755: the history is private).
    private static func makePrivate(_ directory: String) throws(SystemError) {
        guard !directory.isEmpty else { return }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open \(directory)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError("stat \(directory)") }
        guard info.st_mode & 0o077 != 0, info.st_uid == getuid() else { return }
        guard fchmod(fd, info.st_mode & 0o700) == 0 else { throw SystemError("chmod 0700 \(directory)") }
    }

    /// Local time as `20250131T235959`, for the name of a file set aside.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y%m%dT%H%M%S", &parts)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Keeps the history file in step with the model without a write per close: a change arms a timer
/// for `delay` after the latest change (at most `maxDelay` after the first unsaved one, so a steady
/// stream of toasts still gets saved), and the daemon saves once more on its way out.
final class HistoryKeeper {
    /// How long after the last change the file is written: a burst of closes costs one write.
    static let delay: Int64 = 1_000_000_000
    /// The longest a change waits while changes keep coming.
    static let maxDelay: Int64 = 5_000_000_000

    let file: HistoryFile
    let timer: DeadlineTimer
    /// The model's `historyGeneration` the file holds (nil: none yet, the next change is saved).
    private var savedGeneration: UInt64?
    /// When (monotonic ns) the oldest unsaved change was seen.
    private var unsavedSince: Int64?

    init(file: HistoryFile) throws(SystemError) {
        self.file = file
        timer = try DeadlineTimer()
    }

    /// The file holds the model's history as of `generation` (it was just read back).
    func markSaved(_ generation: UInt64) {
        savedGeneration = generation
    }

    /// The model may have changed: (re)arms the timer if its history moved since the last save.
    func noteChanges(_ generation: UInt64, now: Int64) {
        guard generation != savedGeneration else { return }
        let since = unsavedSince ?? now
        unsavedSince = since
        timer.arm(at: min(now + Self.delay, since + Self.maxDelay))
    }

    /// Writes the history now if it changed since the last save (the timer fired, or the daemon exits).
    func save(_ model: ToastModel) {
        guard model.historyGeneration != savedGeneration else { return }
        let offset = WallClock.milliseconds() - MonotonicClock.nanoseconds() / 1_000_000
        let records = model.history.map { HistoryRecord($0, wallMinusMonotonic: offset) }
        do {
            try file.save(HistoryFormat.encode(records))
        } catch {
            Log.warning("history not saved: \(error)")
        }
        // Saved or not, this generation is done with: a disk that refuses now is tried at the next change.
        savedGeneration = model.historyGeneration
        unsavedSince = nil
        timer.arm(at: nil)
    }

    /// The history kept by an earlier run, as entries of this run's clock.
    func load(limits: TextLimits) -> [HistoryEntry] {
        let offset = WallClock.milliseconds() - MonotonicClock.nanoseconds() / 1_000_000
        return file.load().map { $0.entry(wallMinusMonotonic: offset, limits: limits) }
    }
}
