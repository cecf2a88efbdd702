import CSystemd
import Glibc
import ToastPlatform

/// A track as an MPRIS player describes it (`Metadata`).
package struct MediaTrack: Equatable, Sendable {
    package var title: String
    package var artist: String?
    /// The cover, when it is a local file (`mpris:artUrl` with `file://`).
    package var coverPath: String?
}

/// The MPRIS players on the session bus (`org.mpris.MediaPlayer2.*`): which changed state last (the one
/// `toast osd media` controls, as playerctl chooses), and their track changes. Watched from the first
/// use (`mpris = true`: from the start) on a session bus connection of its own (`LoopBus`).
package final class MediaPlayers {
    private let loop: EventLoop
    private var session: LoopBus?
    /// The unique bus name of the player whose state or track changed last.
    private var lastActive: String?
    /// Each player's track last seen: a signal that repeats it is no track change.
    private var tracks: [String: MediaTrack] = [:]
    /// A player changed track.
    package var onTrackChanged: (MediaTrack) -> Void = { _ in }
    /// Clients told once their player says a new status (`awaitStatus`).
    private var waiting: [StatusWait] = []
    private var statusTimer: DeadlineTimer?

    private struct StatusWait {
        var player: String
        var other: String
        var deadline: Int64
        var done: (Result<String, DeviceError>) -> Void
    }

    /// How long a PlayPause's answer waits for the player's new status, in milliseconds.
    static let statusWait: Int64 = 1000
    /// Answers waiting at most; past it, an answer says the status read at once.
    static let maxWaiting = 64

    /// How many players' tracks are remembered at most.
    static let playersRemembered = 16
    package static let objectPath = "/org/mpris/MediaPlayer2"
    package static let playerInterface = "org.mpris.MediaPlayer2.Player"

    package init(loop: EventLoop) {
        self.loop = loop
    }

    deinit {
        if let statusTimer { loop.remove(fd: statusTimer.fd) }
    }

    /// Starts watching the players; nil, or why it cannot.
    @discardableResult
    package func watch() -> DeviceError? {
        guard session?.bus == nil else { return nil }
        do throws(DeviceError) {
            let connection = try LoopBus(.session, loop: loop)
            let me = Unmanaged.passUnretained(self).toOpaque()
            let rule = "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                + "path='\(Self.objectPath)',arg0='\(Self.playerInterface)'"
            let status = sd_bus_add_match_async(connection.bus, nil, rule, { message, me, _ in
                Unmanaged<MediaPlayers>.fromOpaque(me!).takeUnretainedValue().propertiesChanged(message)
                return 0
            }, nil, me)
            guard status >= 0 else { throw .failed("cannot watch media players: \(String(cString: strerror(-status)))") }
            session = connection
            connection.process()
            return nil
        } catch {
            return error
        }
    }

    /// Sends `method` (`PlayPause`, `Next`, `Previous`, `Stop`) to the player that changed state last
    /// (or the first there is); `done` gets the player's `PlaybackStatus` after it, or why not.
    package func command(_ method: String, done: @escaping (Result<String, DeviceError>) -> Void) {
        if let error = watch() { return done(.failure(error)) }
        if let player = lastActive { return send(method, to: player, done: done) }
        callBus("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames") { [unowned self] reply in
            let names = Self.strings(in: reply).filter { $0.hasPrefix("org.mpris.MediaPlayer2.") }.sorted()
            guard let player = names.first else { return done(.failure(.unavailable("no media player (MPRIS) is running"))) }
            self.send(method, to: player, done: done)
        }
    }

    private func send(_ method: String, to player: String, done: @escaping (Result<String, DeviceError>) -> Void) {
        // A player may answer PlayPause before its status changes (mpv's MPRIS plugin does): the status
        // read at once can be the old one. Then the answer waits for the player to say its new status.
        status(of: player) { [unowned self] before in
            self.callBus(player, Self.objectPath, Self.playerInterface, method) { [unowned self] reply in
                if let error = LoopBus.errorText(of: reply) { return done(.failure(.failed("\(player): \(error)"))) }
                let unique = reply.flatMap { sd_bus_message_get_sender($0) }.map { String(cString: $0) }
                self.status(of: player) { [unowned self] after in
                    if method == "PlayPause", let before, after == before, let unique {
                        self.awaitStatus(of: unique, other: before, done: done)
                    } else {
                        done(.success(after ?? "Unknown"))
                    }
                }
            }
        }
    }

    /// `PlaybackStatus` of `player`, nil when it does not say.
    private func status(of player: String, done: @escaping (String?) -> Void) {
        callBus(player, Self.objectPath, "org.freedesktop.DBus.Properties", "Get",
                arguments: [Self.playerInterface, "PlaybackStatus"]) { reply in
            guard LoopBus.errorText(of: reply) == nil, let reply,
                  sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "s") > 0 else { return done(nil) }
            done(Self.readString(reply))
        }
    }

    // MARK: Waiting for a new status

    /// Tells `done` the status `player` (a unique name) says next, other than `other`; after
    /// `statusWait` without one, the status it holds then.
    private func awaitStatus(of player: String, other: String, done: @escaping (Result<String, DeviceError>) -> Void) {
        guard waiting.count < Self.maxWaiting else { return done(.success(other)) }
        let deadline = MonotonicClock.nanoseconds() + Self.statusWait * 1_000_000
        waiting.append(StatusWait(player: player, other: other, deadline: deadline, done: done))
        do {
            if statusTimer == nil {
                let timer = try DeadlineTimer()
                try loop.add(fd: timer.fd, events: EventLoop.readable) { [unowned self] _ in self.statusWaitEnded() }
                statusTimer = timer
            }
            statusTimer?.arm(at: waiting.map(\.deadline).min())
        } catch {
            statusSaid(other, by: player)
        }
    }

    /// A player said its status (PropertiesChanged): the clients waiting for a new one get it.
    private func statusSaid(_ status: String, by player: String) {
        let answered = waiting.filter { $0.player == player && $0.other != status }
        guard !answered.isEmpty else { return }
        waiting.removeAll { $0.player == player && $0.other != status }
        for wait in answered { wait.done(.success(status)) }
    }

    private func statusWaitEnded() {
        statusTimer?.acknowledge()
        let now = MonotonicClock.nanoseconds()
        let ended = waiting.filter { $0.deadline <= now }
        waiting.removeAll { $0.deadline <= now }
        statusTimer?.arm(at: waiting.map(\.deadline).min())
        for wait in ended { status(of: wait.player) { wait.done(.success($0 ?? wait.other)) } }
    }

    /// A method call with string arguments; `done` gets the reply (nil: none came).
    private func callBus(_ destination: String, _ path: String, _ interface: String, _ member: String,
                         arguments: [String] = [], done: @escaping (OpaquePointer?) -> Void) {
        guard let connection = session, let bus = connection.bus else { return done(nil) }
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, destination, path, interface, member) >= 0, let message else {
            return done(nil)
        }
        defer { sd_bus_message_unref(message) }
        for argument in arguments { _ = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), argument) }
        do { try connection.call(message, done: done) } catch { done(nil) }
    }

    // MARK: Signals

    private func propertiesChanged(_ message: OpaquePointer?) {
        guard let message, let sender = sd_bus_message_get_sender(message).map({ String(cString: $0) }) else { return }
        lastActive = sender
        guard Self.readString(message) == Self.playerInterface,
              sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}") > 0 else { return }
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv") > 0 {
            let key = Self.readString(message)
            if key == "PlaybackStatus" {
                if let status = Self.variant(message, "s", { Self.readString($0) }) { statusSaid(status, by: sender) }
            } else if key == "Metadata", sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), "a{sv}") > 0 {
                if let track = Self.track(message), tracks[sender] != track {
                    // Players come and go under new unique names: a few are remembered, never all.
                    if tracks[sender] == nil && tracks.count >= Self.playersRemembered { tracks.removeAll() }
                    tracks[sender] = track
                    onTrackChanged(track)
                }
                _ = sd_bus_message_exit_container(message)
            } else {
                _ = sd_bus_message_skip(message, "v")
            }
            _ = sd_bus_message_exit_container(message)
        }
    }

    /// The track of a `Metadata` dictionary (the message at its `a{sv}`); nil without a title.
    private static func track(_ message: OpaquePointer) -> MediaTrack? {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}") > 0 else { return nil }
        var title: String?, artist: String?, cover: String?
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv") > 0 {
            switch readString(message) {
            case "xesam:title": title = variant(message, "s") { readString($0) }
            case "mpris:artUrl": cover = variant(message, "s") { readString($0) }
            case "xesam:artist":
                artist = variant(message, "as") { message in
                    guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "s") > 0 else { return nil }
                    var names: [String] = []
                    while let name = readString(message) { names.append(name) }
                    _ = sd_bus_message_exit_container(message)
                    return names.isEmpty ? nil : names.joined(separator: ", ")
                }
            default: _ = sd_bus_message_skip(message, "v")
            }
            _ = sd_bus_message_exit_container(message)
        }
        _ = sd_bus_message_exit_container(message)
        guard let title, !title.isEmpty else { return nil }
        let path = cover.flatMap { $0.hasPrefix("file://") ? String($0.dropFirst(7)).removingPercentEncoding : nil }
        return MediaTrack(title: title, artist: artist, coverPath: path)
    }

    /// Reads a variant of `signature` with `read`; a variant of another type is skipped.
    private static func variant(_ message: OpaquePointer, _ signature: String,
                                _ read: (OpaquePointer) -> String?) -> String? {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), signature) > 0 else {
            _ = sd_bus_message_skip(message, "v")
            return nil
        }
        defer { _ = sd_bus_message_exit_container(message) }
        return read(message)
    }

    private static func readString(_ message: OpaquePointer) -> String? {
        var text: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text) > 0, let text else { return nil }
        return String(cString: text)
    }

    /// The strings of a reply of signature `as`.
    private static func strings(in reply: OpaquePointer?) -> [String] {
        guard let reply, LoopBus.errorText(of: reply) == nil,
              sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "s") > 0 else { return [] }
        var names: [String] = []
        while let name = readString(reply) { names.append(name) }
        return names
    }
}

private extension String {
    /// `%XX` escapes of a file URL decoded; nil when one is malformed.
    var removingPercentEncoding: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
