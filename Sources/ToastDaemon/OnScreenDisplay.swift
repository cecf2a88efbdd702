import ToastConfig
import ToastCore
import ToastDevices
import ToastPlatform
import ToastProtocol
import ToastVocabulary

/// `toast osd`: changes a device's level through its owner (the sound server, the kernel's backlight,
/// logind) and shows the bar with the value read back, so the bar never shows a number the device does
/// not hold. Lock keys are only read. With `hud-follow-volume`, volume changes made by other programs
/// show the bar too.
final class OnScreenDisplay {
    private let service: ToastService
    private let sound: SoundServer
    private let sysfs: SysfsDevices
    /// Writes backlights this process may not write itself.
    private let logind: LogindBrightness
    private let players: MediaPlayers
    private var settings = OsdConfig()
    /// The media toast shown last (its buttons control the player).
    private var mediaToast: NotificationID?

    init(service: ToastService, loop: EventLoop, sysfsRoot: String?) {
        self.service = service
        sound = SoundServer(loop: loop)
        sysfs = SysfsDevices(root: sysfsRoot)
        logind = LogindBrightness(loop: loop)
        players = MediaPlayers(loop: loop)
        players.onTrackChanged = { [unowned self] track in self.showTrack(track) }
        sound.onLevelChanged = { [unowned self] direction, level in
            self.show(direction == .output ? .volume : .mic, DeviceLevel(percent: level.percent, muted: level.muted))
        }
    }

    /// The keys `volume-step`, `volume-max`, `brightness-step`, `hud-follow-volume`.
    func configure(_ new: OsdConfig) {
        settings = new
        sound.follows = new.followVolume
        if new.mediaToasts, let error = players.watch() { Log.warning("mpris: \(error)") }
    }

    /// Carries out `params`; `reply` gets the level (at once, or once the sound server answered).
    func handle(_ params: OsdParams, reply: @escaping (Reply) -> Void) {
        switch params.target {
        case .volume, .mic:
            let device = SoundDevice(params.target == .volume ? .output : .input, name: params.device)
            let change = levelChange(params.action, step: settings.volumeStep)
            sound.change(device, change, ceiling: params.max ?? settings.volumeMax) { [unowned self] result in
                switch result {
                case .success(let level): reply(self.show(params.target, level))
                case .failure(let error): reply(.error(Self.protocolError(error)))
                }
            }
        case .brightness:
            let kind = params.leds == nil ? nil : "keyboard-brightness"
            changeBrightness(params) { [unowned self] result in
                switch result {
                case .success(let level): reply(self.show(.brightness, level, kind: kind))
                case .failure(let error): reply(.error(Self.protocolError(error)))
                }
            }
        case .media:
            let method = switch params.action {
            case .next: "Next"
            case .previous: "Previous"
            case .stop: "Stop"
            default: "PlayPause"
            }
            control(method) { result in
                switch result {
                case .success(let status): reply(.ok(.playback(status)))
                case .failure(let error): reply(.error(Self.protocolError(error)))
                }
            }
        case .capslock, .numlock:
            do throws(DeviceError) {
                let on = try sysfs.lockKey(params.target.rawValue)
                reply(show(params.target, DeviceLevel(percent: on ? 100 : 0, muted: !on)))
            } catch {
                reply(.error(Self.protocolError(error)))
            }
        }
    }

    /// Writes the new brightness directly when this process may, else through logind; then reads it back.
    private func changeBrightness(_ params: OsdParams, done: @escaping (Result<DeviceLevel, DeviceError>) -> Void) {
        do throws(DeviceError) {
            let device = try sysfs.brightnessDevice(class: params.leds == nil ? "backlight" : "leds",
                                                    name: params.leds ?? params.device)
            let now = try device.read()
            let wanted = BrightnessLevels.value(after: levelChange(params.action, step: settings.brightnessStep),
                                                from: now.value, max: now.max)
            if wanted == now.value { return done(.success(Self.level(now))) }
            if device.isWritable {
                try device.write(wanted)
                return done(.success(Self.level(try device.read())))
            }
            logind.set(device, to: wanted) { error in
                if let error { return done(.failure(error)) }
                done(Result { () throws(DeviceError) in Self.level(try device.read()) })
            }
        } catch {
            done(.failure(error))
        }
    }

    private static func level(_ brightness: (value: Int, max: Int)) -> DeviceLevel {
        DeviceLevel(percent: BrightnessLevels.percent(brightness.value, of: brightness.max), muted: false)
    }

    /// What `action` does to a level (a media command, never given here, changes none).
    private func levelChange(_ action: OsdAction, step: Int) -> LevelChange {
        switch action {
        case .show, .playPause, .next, .previous, .stop: .show
        case .up: .by(step)
        case .down: .by(-step)
        case .by(let points): .by(points)
        case .set(let percent): .set(percent)
        case .mute: .mute
        case .unmute: .unmute
        case .toggleMute: .toggleMute
        }
    }

    /// Shows the bar of `target` at `level`; the reply that reports it.
    @discardableResult
    private func show(_ target: OsdTarget, _ level: DeviceLevel, kind: String? = nil) -> Reply {
        let value = min(max(level.percent, HudParams.valueRange.lowerBound), HudParams.valueRange.upperBound)
        let label: String? = switch target {
        case .capslock: "Caps Lock"
        case .numlock: "Num Lock"
        default: nil
        }
        do {
            try service.showBar(kind: kind ?? target.rawValue, value: value, muted: level.muted, label: label)
        } catch {
            return .error(SocketFrontDoor.protocolError(error))
        }
        return .ok(.level(LevelInfo(value: level.percent, muted: level.muted)))
    }

    /// Sends `method` to the player that changed state last and shows what it did.
    private func control(_ method: String, done: @escaping (Result<String, DeviceError>) -> Void) {
        players.command(method) { [unowned self] result in
            if case .success(let status) = result { self.showToast(summary: status, body: method == "PlayPause" ? "" : method) }
            done(result)
        }
    }

    /// The media toast's buttons: the player's own controls (`control`), by key.
    static let mediaActions = [NotificationAction(key: "play-pause", label: "Play/Pause"), NotificationAction(key: "next", label: "Next")]

    /// A media toast: one at a time (tag `toastd-media`, replaced in place), not kept in the history,
    /// with play/pause and next buttons.
    private func showToast(summary: String, body: String, cover: String? = nil) {
        var request = NotificationRequest(appName: "Media", summary: summary, body: body)
        request.tag = "toastd-media"
        request.isTransient = true
        request.actions = Self.mediaActions
        if let cover { HintInterpreter.apply([HintName.imagePath: .string(cover)], to: &request) }
        mediaToast = try? service.notify(request)
    }

    /// The service's events: a button of the media toast pressed (a click, `toast action`, a screen
    /// reader) controls the player. The toast has no client of its own to tell.
    func deliver(_ event: CoreEvent) {
        guard case .actionInvoked(let id, let key, origin: nil) = event, id == mediaToast,
              Self.mediaActions.contains(where: { $0.key == key }) else { return }
        control(key == "next" ? "Next" : "PlayPause") { result in
            if case .failure(let error) = result { Log.warning("mpris: \(key): \(error)") }
        }
    }

    /// `mpris = true`: a player's new track.
    private func showTrack(_ track: MediaTrack) {
        guard settings.mediaToasts else { return }
        showToast(summary: track.title, body: track.artist ?? "", cover: track.coverPath)
    }

    static func protocolError(_ error: SoundError) -> ProtocolError {
        switch error {
        case .unavailable: ProtocolError(.unavailable, error.description)
        case .noDevice: ProtocolError(.notFound, error.description)
        case .failed: ProtocolError(.internalError, error.description)
        }
    }

    static func protocolError(_ error: DeviceError) -> ProtocolError {
        switch error {
        case .unavailable: ProtocolError(.unavailable, error.description)
        case .noDevice: ProtocolError(.notFound, error.description)
        case .failed: ProtocolError(.internalError, error.description)
        }
    }
}

extension Daemon {
    /// `toast osd` through the control socket, with the configuration's steps and ceiling.
    func startOnScreenDisplay() -> OnScreenDisplay {
        let display = OnScreenDisplay(service: service, loop: loop,
                                      sysfsRoot: Environment.variable(SysfsDevices.environmentVariable))
        display.configure(config.osd)
        socketDoor.onOsd = { [unowned display] params, reply in display.handle(params, reply: reply) }
        return display
    }
}
