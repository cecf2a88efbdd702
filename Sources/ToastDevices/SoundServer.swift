import CPulse
import Glibc
import ToastPlatform

/// Why a sound request failed, in words for the user.
package enum SoundError: Error, Equatable, CustomStringConvertible {
    /// No sound server answers (none running, libpulse missing, the connection lost).
    case unavailable(String)
    /// The server has no such sink or source.
    case noDevice(String)
    /// The server refused the change, or too many requests wait.
    case failed(String)

    package var description: String {
        switch self {
        case .unavailable(let why): "no sound server: \(why)"
        case .noDevice(let name): "the sound server has no device '\(name)'"
        case .failed(let why): "the sound server refused: \(why)"
        }
    }
}

/// toastd's one connection to the sound server (PulseAudio, or PipeWire's pulse server), through
/// libpulse on the daemon's own loop (`PulseMainloop`). Requests run one at a time, each as
/// read → change → read back, so the level reported is the one the server holds after the change.
/// The connection is made on the first request (and again after it is lost); a daemon never asked
/// about sound never loads libpulse. With `follows`, the server's change events for the default
/// sink and source are watched, and `onLevelChanged` gets levels that changed by another program's hand.
package final class SoundServer {
    package typealias Reply = (Result<DeviceLevel, SoundError>) -> Void

    private struct Request {
        enum Purpose {
            /// A client's change; the reply carries the level read back.
            case client(Reply)
            /// Reads the default device's level after a change event; reported when it differs.
            case follow
        }
        var device: SoundDevice
        var change: LevelChange
        var ceiling: Int
        var purpose: Purpose
    }

    private enum Step { case reading, writing, readingBack }

    /// Requests waiting beyond this are refused: a key held down for long queues no backlog.
    static let maxQueued = 32

    private let loop: EventLoop
    private var mainloop: PulseMainloop?
    private var library: toastd_pulse_library?
    private var context: OpaquePointer?
    private var queue: [Request] = []
    private var current: (request: Request, step: Step, channels: [UInt32], muted: Bool, found: Bool)?
    /// The default devices' levels last seen: a change event that leaves them as they were shows nothing.
    private var lastSeen: [SoundDevice.Direction: DeviceLevel] = [:]
    /// Why the connection failed last, in libpulse's words.
    private var lastFailure: String?
    /// Whether the context reached READY (a failure after it is a lost server, not a refused connection).
    private var wasReady = false
    /// When to look for a lost server again while `follows`; the timer exists from the first loss.
    private var backoff = ReconnectBackoff()
    private var retryTimer: DeadlineTimer?
    private var retryPending = false
    /// Every try is spent (said once).
    private var gaveUp = false

    /// Watch the server's change events (`hud-follow-volume`). Set again (a reload) while the
    /// connection is lost, it connects again.
    package var follows = false {
        didSet {
            if follows {
                if context == nil {
                    if let error = connect() {
                        Log.warning("hud-follow-volume: \(error)")
                        retryLater()
                    }
                } else if !oldValue, let context, library?.pa_context_get_state!(context) == PA_CONTEXT_READY {
                    subscribe()
                }
            } else if oldValue {
                stopRetrying()
                lastSeen = [:]
                if let context { library?.pa_context_set_subscribe_callback!(context, nil, nil) }
                release(context.flatMap { library?.pa_context_subscribe!($0, pa_subscription_mask_t(rawValue: 0), nil, nil) })
            }
        }
    }
    /// A default device's level changed, not by a request of ours.
    package var onLevelChanged: (SoundDevice.Direction, DeviceLevel) -> Void = { _, _ in }

    package init(loop: EventLoop) {
        self.loop = loop
    }

    deinit {
        disconnect()
        if let retryTimer { loop.remove(fd: retryTimer.fd) }
    }

    /// Changes (or only reads) `device`'s level, then reports it as the server holds it.
    package func change(_ device: SoundDevice, _ change: LevelChange, ceiling: Int, reply: @escaping Reply) {
        guard queue.count < Self.maxQueued else {
            reply(.failure(.failed("\(Self.maxQueued) requests are already waiting")))
            return
        }
        queue.append(Request(device: device, change: change, ceiling: ceiling, purpose: .client(reply)))
        pump()
    }

    // MARK: The connection

    /// Starts connecting; nil, or why it cannot.
    private func connect() -> SoundError? {
        if library == nil {
            var loaded = toastd_pulse_library()
            var message = [CChar](repeating: 0, count: 256)
            guard toastd_pulse_library_load(&loaded, &message, UInt(message.count)) == 0 else {
                return .unavailable(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            library = loaded
        }
        if mainloop == nil {
            do { mainloop = try PulseMainloop(loop: loop) } catch { return .unavailable("\(error)") }
        }
        guard let pulse = library, let mainloop, let created = pulse.pa_context_new!(mainloop.api, "toastd") else {
            return .unavailable("cannot make a libpulse context")
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pulse.pa_context_set_state_callback!(created, { context, me in
            Unmanaged<SoundServer>.fromOpaque(me!).takeUnretainedValue().stateChanged(context)
        }, me)
        context = created
        // No autospawn: the daemon must never start a sound server of its own.
        guard pulse.pa_context_connect!(created, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 else { return nil }
        // A failure libpulse saw at once may have been reported to `stateChanged` already, which let go
        // of the context: then only its words are left.
        guard context == created else { return .unavailable(lastFailure ?? "cannot connect") }
        let why = errorText(pulse.pa_context_errno!(created))
        disconnect()
        return .unavailable(why)
    }

    private func disconnect() {
        guard let context, let pulse = library else { return }
        self.context = nil
        pulse.pa_context_set_state_callback!(context, nil, nil)
        pulse.pa_context_set_subscribe_callback!(context, nil, nil)
        pulse.pa_context_disconnect!(context)
        pulse.pa_context_unref!(context)
    }

    private func stateChanged(_ changed: OpaquePointer?) {
        guard let context, changed == context, let pulse = library else { return }
        switch pulse.pa_context_get_state!(context) {
        case PA_CONTEXT_READY:
            Log.info("sound server: connected")
            wasReady = true
            stopRetrying()
            if follows { subscribe() }
            pump()
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            let why = errorText(pulse.pa_context_errno!(context))
            lastFailure = why
            Log.warning(wasReady ? "sound server: connection lost: \(why)" : "sound server: \(why)")
            wasReady = false
            disconnect()
            failAll(.unavailable(why))
            // Requests connect again on demand; following needs a try of its own.
            if follows { retryLater() }
        default:
            break
        }
    }

    /// Looks for the server again after the next wait of `backoff`, unless a try already waits or
    /// every try is spent.
    private func retryLater() {
        guard !retryPending else { return }
        guard let delay = backoff.nextDelay() else {
            if !gaveUp { Log.info("sound server: still gone; hud-follow-volume resumes with the next toast osd request") }
            gaveUp = true
            return
        }
        do {
            let timer = try retryTimer ?? makeRetryTimer()
            timer.arm(at: MonotonicClock.nanoseconds() + delay * 1_000_000, keepingEarlier: false)
            retryPending = true
        } catch {
            Log.warning("sound server: \(error)")
        }
    }

    private func makeRetryTimer() throws(SystemError) -> DeadlineTimer {
        let timer = try DeadlineTimer()
        try loop.add(fd: timer.fd, events: EventLoop.readable) { [unowned self] _ in self.retry() }
        retryTimer = timer
        return timer
    }

    private func retry() {
        retryTimer?.acknowledge()
        retryPending = false
        guard follows, context == nil else { return }
        // A refusal is logged where the context fails, which also asks for the next try; asking again
        // here (a refusal seen at once) finds it already waiting.
        if connect() != nil { retryLater() }
    }

    /// The server answers, or nobody follows it any more: no try waits, and a later loss starts over.
    private func stopRetrying() {
        backoff.reset()
        gaveUp = false
        guard retryPending else { return }
        retryPending = false
        retryTimer?.arm(at: nil, keepingEarlier: false)
    }

    /// Every waiting request fails (the connection is gone); the next one connects again.
    private func failAll(_ error: SoundError) {
        let failed = (current.map { [$0.request] } ?? []) + queue
        current = nil
        queue = []
        for request in failed {
            if case .client(let reply) = request.purpose { reply(.failure(error)) }
        }
    }

    private func subscribe() {
        guard let context, let pulse = library else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pulse.pa_context_set_subscribe_callback!(context, { context, event, _, me in
            Unmanaged<SoundServer>.fromOpaque(me!).takeUnretainedValue().serverChanged(context, event)
        }, me)
        let mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
            | PA_SUBSCRIPTION_MASK_SERVER.rawValue
        release(pulse.pa_context_subscribe!(context, pa_subscription_mask_t(rawValue: mask), nil, nil))
        // What the levels are now: the first change event is compared with these.
        for direction in [SoundDevice.Direction.output, .input] { follow(direction) }
    }

    private func serverChanged(_ changed: OpaquePointer?, _ event: pa_subscription_event_type_t) {
        guard changed == context else { return }
        switch event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue {
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue: follow(.output)
        case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue: follow(.input)
        case PA_SUBSCRIPTION_EVENT_SERVER.rawValue: follow(.output); follow(.input)
        default: break
        }
    }

    /// Reads the default `direction` device again, unless such a read already waits (a burst of events
    /// from a slider dragged is one read per request in flight).
    private func follow(_ direction: SoundDevice.Direction) {
        let waiting = queue.contains { request in
            if case .follow = request.purpose { return request.device.direction == direction }
            return false
        }
        guard !waiting else { return }
        queue.append(Request(device: SoundDevice(direction), change: .show, ceiling: 0, purpose: .follow))
        pump()
    }

    // MARK: One request at a time

    private func pump() {
        guard current == nil, !queue.isEmpty else { return }
        if context == nil, let error = connect() {
            failAll(error)
            return
        }
        guard let context, let pulse = library, pulse.pa_context_get_state!(context) == PA_CONTEXT_READY else { return }
        current = (queue.removeFirst(), .reading, [], false, false)
        read()
    }

    private func read() {
        guard let context, let pulse = library, let request = current?.request else { return }
        current?.found = false
        let me = Unmanaged.passUnretained(self).toOpaque()
        let operation: OpaquePointer? = switch request.device.direction {
        case .output:
            pulse.pa_context_get_sink_info_by_name!(context, request.device.serverName, { context, info, end, me in
                let server = Unmanaged<SoundServer>.fromOpaque(me!).takeUnretainedValue()
                server.received(context, info.map { (ChannelVolumes.channels($0.pointee.volume), $0.pointee.mute != 0) }, end: end)
            }, me)
        case .input:
            pulse.pa_context_get_source_info_by_name!(context, request.device.serverName, { context, info, end, me in
                let server = Unmanaged<SoundServer>.fromOpaque(me!).takeUnretainedValue()
                server.received(context, info.map { (ChannelVolumes.channels($0.pointee.volume), $0.pointee.mute != 0) }, end: end)
            }, me)
        }
        guard release(operation) else { return finish(.failure(lastError())) }
    }

    /// One answer to a read: the device's levels, then (`end` non-zero) the end of the list.
    private func received(_ answered: OpaquePointer?, _ levels: (channels: [UInt32], muted: Bool)?, end: Int32) {
        guard answered == context, let state = current else { return }
        if end == 0, let levels {
            if !state.found { current?.channels = levels.channels; current?.muted = levels.muted; current?.found = true }
            return
        }
        guard state.found else {
            return finish(.failure(end < 0 ? .noDevice(state.request.device.serverName) : lastError()))
        }
        let level = DeviceLevel(percent: ChannelVolumes.percent(of: state.channels), muted: state.muted)
        guard state.step == .reading else { return finish(.success(level)) }
        write(state.request, channels: state.channels, muted: state.muted)
    }

    private func write(_ request: Request, channels: [UInt32], muted: Bool) {
        guard let context, let pulse = library else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let done: pa_context_success_cb_t = { context, success, me in
            Unmanaged<SoundServer>.fromOpaque(me!).takeUnretainedValue().written(context, success: success != 0)
        }
        let name = request.device.serverName
        let operation: OpaquePointer?
        switch request.change {
        case .show:
            return finish(.success(DeviceLevel(percent: ChannelVolumes.percent(of: channels), muted: muted)))
        case .by, .set:
            var volume = ChannelVolumes.cvolume(ChannelVolumes.apply(request.change, to: channels, ceiling: request.ceiling))
            operation = request.device.direction == .output
                ? pulse.pa_context_set_sink_volume_by_name!(context, name, &volume, done, me)
                : pulse.pa_context_set_source_volume_by_name!(context, name, &volume, done, me)
        case .mute, .unmute, .toggleMute:
            let mute: Int32 = ChannelVolumes.mute(after: request.change, from: muted) ? 1 : 0
            operation = request.device.direction == .output
                ? pulse.pa_context_set_sink_mute_by_name!(context, name, mute, done, me)
                : pulse.pa_context_set_source_mute_by_name!(context, name, mute, done, me)
        }
        current?.step = .writing
        guard release(operation) else { return finish(.failure(lastError())) }
    }

    private func written(_ answered: OpaquePointer?, success: Bool) {
        guard answered == context, current != nil else { return }
        guard success else { return finish(.failure(.failed(lastErrorText()))) }
        current?.step = .readingBack
        read()
    }

    private func finish(_ result: Result<DeviceLevel, SoundError>) {
        guard let request = current?.request else { return }
        current = nil
        switch (request.purpose, result) {
        case (.client(let reply), _):
            if case .success(let level) = result, request.device.name == nil { lastSeen[request.device.direction] = level }
            reply(result)
        case (.follow, .success(let level)):
            let before = lastSeen.updateValue(level, forKey: request.device.direction)
            if let before, before != level { onLevelChanged(request.device.direction, level) }
        case (.follow, .failure):
            break
        }
        pump()
    }

    // MARK: libpulse's leftovers

    /// Drops our reference to an operation (its callback holds what we need); false if there was none
    /// (libpulse refused at once).
    @discardableResult
    private func release(_ operation: OpaquePointer?) -> Bool {
        guard let operation else { return false }
        library?.pa_operation_unref!(operation)
        return true
    }

    private func lastErrorText() -> String {
        guard let context, let pulse = library else { return "the connection is closed" }
        return errorText(pulse.pa_context_errno!(context))
    }

    /// libpulse's words for an error code.
    private func errorText(_ code: Int32) -> String {
        library?.pa_strerror!(code).map { String(cString: $0) } ?? "error \(code)"
    }

    private func lastError() -> SoundError { .failed(lastErrorText()) }
}

extension ChannelVolumes {
    /// The channel volumes of a `pa_cvolume`.
    static func channels(_ volume: pa_cvolume) -> [UInt32] {
        withUnsafeBytes(of: volume.values) { Array($0.bindMemory(to: UInt32.self).prefix(Int(volume.channels))) }
    }

    /// `channels` as a `pa_cvolume`.
    static func cvolume(_ channels: [UInt32]) -> pa_cvolume {
        var volume = pa_cvolume()
        volume.channels = UInt8(min(channels.count, Int(PA_CHANNELS_MAX)))
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let values = raw.bindMemory(to: UInt32.self)
            for (index, channel) in channels.prefix(values.count).enumerated() { values[index] = channel }
        }
        return volume
    }
}
