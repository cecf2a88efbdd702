import Glibc
import ToastConfig
import ToastCore
import ToastPlatform
import ToastProtocol
import ToastRender
import ToastScene
import ToastVocabulary

/// How the daemon's parts are connected at start: the socket, the service, the screen, the doors, and
/// the fds the loop watches.
extension Daemon {
    static func openControlSocket(_ options: DaemonOptions, loop: EventLoop) throws(StartupError) -> ControlServer {
        let path: String
        if let given = options.socketPath {
            path = given
        } else {
            switch SocketPath.resolve(Environment.variable) {
            case .success(let resolved): path = resolved
            case .failure(let error): throw StartupError("\(error)")
            }
        }
        do {
            let server = try ControlServer(path: path, loop: loop, takeOver: options.replace)
            if server.tookOver { Log.info("took over the control socket \(path) (--replace)") }
            return server
        } catch {
            throw StartupError("\(error)")
        }
    }

    static func makeService(_ config: DaemonConfig) throws(StartupError) -> ToastService {
        let pictureWorker: PictureWorker
        do {
            pictureWorker = try PictureWorker()
        } catch { throw StartupError("\(error)") }
        let service = ToastService(model: ToastModel(notifications: config.notifications, hud: config.hud),
                                   pictures: PictureLoader(icons: iconTheme(config)), pictureWorker: pictureWorker,
                                   clock: now)
        service.rules = config.rules
        return service
    }

    /// The overlays' placement and look, and what they draw: the animator's scene of the model.
    func setUpScreen() {
        animator.restyle(rules: config.rules, style: config.style, sort: config.sort)
        warnIfUnknown(output: options.output ?? config.output)
        screen.clickableActions = options.clickableActions || config.clickableActions
        screen.reconfigure(renderer: renderer, hudOutput: hudOutput(config), defaultStack: stackDefaults(config).key,
                           toasts: Self.toastPlacement(config), hud: Self.hudPlacement(config))
        placeToasts()
        Log.info(wayland.toplevels == nil
                 ? "output: the compositor's choice (it offers no zwlr_foreign_toplevel_manager_v1)"
                 : "output: \(stackDefaults(config).output.configValue) (focus from zwlr_foreign_toplevel_manager_v1)")
        screen.sceneProvider = { [unowned self] in
            var scene = self.animator.scene(for: self.service.model, now: Self.now(), maxVisible: self.renderer.style.maxVisible)
            self.service.showing(scene.toasts)
            self.spinnerStep = scene.nextStep
            if scene.huds.contains(where: { if case .bar = $0 { true } else { false } }) {
                scene.huds = scene.huds.map { hud in
                    guard case .bar(let bar) = hud else { return hud }
                    return .bar(self.withIcon(bar))
                }
            }
            return scene
        }
        screen.onActionClicked = { [unowned self] id, index, press in
            // The token first (spec 1.3: ActivationToken before ActionInvoked), then the action.
            let appID = self.service.model.notification(id: id)?.desktopEntry
            self.wayland.requestActivationToken(for: press, appID: appID) { [unowned self] token in
                self.service.invokeButton(id: id, index: index, activationToken: token)
            }
        }
        screen.onToastClicked = { [unowned self] id, press in self.service.click(id: id, button: press.button) }
        startBoundClicks()
        screen.onToastsDrawn = { [unowned self] toasts in self.service.displayed(Scene.notifications(drawnAs: toasts)) }
        screen.onNothingShown = { [unowned self] in self.memoryPolicy.screenEmptied() }
        screen.onSettled = { [unowned self] in self.memoryPolicy.screenSettled() }
    }

    /// The socket's reload and settings, and the HUD streams it hands values from.
    func connectFrontDoors() {
        socketDoor.onReload = { [unowned self] in self.reloadConfig() }
        socketDoor.settings = { [unowned self] in DaemonSettings(clickableActions: self.screen.clickableActions) }
        let streams = HudStreams(loop: loop)
        streams.onValue = { [unowned self] bar, value, muted in
            do {
                try self.service.showBar(kind: bar.kind, value: value, muted: muted, label: bar.label, icon: bar.icon)
                return nil
            } catch {
                return "\(error)"
            }
        }
        socketDoor.hudStreams = streams
    }

    /// What the service asks of the rest: sounds, and the size pictures are decoded at.
    func connectService() {
        service.playSound = { [unowned self] sound, app in self.soundPlayer.play(sound, app: app) }
        service.pictureTarget = { [unowned self] in
            PictureLoader.Target(size: self.service.rules.largestImageSize(base: self.renderer.style.imageSize),
                                 scale: self.wayland.outputs.map(\.scale).max() ?? 1,
                                 tint: self.renderer.style.bodyColor,
                                 wanted: self.service.rules.mayShowImages(base: self.renderer.style.showsImages))
        }
    }

    /// The fds the loop sleeps on: the compositor, the one timer, finished pictures, signals, the bus.
    func watchEvents() throws(StartupError) {
        do {
            try loop.add(fd: wayland.display.fd, events: EventLoop.readable) { [unowned self] _ in
                self.waylandReadable = true
            }
            try loop.add(fd: timer.fd, events: EventLoop.readable) { [unowned self] _ in self.timerFired() }
            try loop.add(fd: service.pictureWorker.fd, events: EventLoop.readable) { [unowned self] _ in
                self.service.picturesFinished()
            }
            try loop.add(fd: signals.fd, events: EventLoop.readable) { [unowned self] _ in self.handleSignals() }
            if let bus = busDoor?.bus {
                busWatch.events = bus.epollEvents
                // Processed at the top of the next turn.
                try loop.add(fd: bus.fd, events: busWatch.events) { [unowned self] _ in self.busWatch.readable = true }
            }
        } catch {
            throw StartupError("\(error)")
        }
    }

    /// The model's next deadline, the spinner's next step, or toasts that waited for a frame callback too long.
    private func timerFired() {
        timer.acknowledge()
        service.advanceClock()
        let now = Self.now()
        if [spinnerStep, screen.deferredUntil].contains(where: { $0.map { now >= $0 } ?? false }) {
            screen.update()
        }
        armTimer()
    }

    private func handleSignals() {
        for signal in signals.drain() {
            if signal == SIGHUP {
                reloadConfig()
            } else if signal == SIGCHLD {
                // Each owner reaps only its own pids: none may take another's children.
                // Sounds first: the commands waiting for a slot start when the runner reaps.
                soundPlayer.reap()
                commands.reap()
                service.pictureWorker.reap()
            } else {
                Log.info("signal \(signal): exiting")
                running = false
            }
        }
    }

    /// The `sound` capability is offered while there is a player to honour it.
    func offerSound() {
        busDoor?.bus?.capabilities = ServerIdentity.capabilities + (soundPlayer.isAvailable ? [ServerIdentity.soundCapability] : [])
        Log.info(soundPlayer.command.map { "sounds play with: \($0.joined(separator: " "))" } ?? "no sound player; sounds are not played")
    }

    /// Starts keeping the history in its file if the configuration says so, reading back what an
    /// earlier run kept (once per run); stops when it says not to.
    func keepHistory() {
        guard config.persistentHistory else {
            if let keeper = historyKeeper {
                keeper.save(service.model)
                loop.remove(fd: keeper.timer.fd)
                historyKeeper = nil
            }
            return
        }
        guard historyKeeper == nil,
              let path = HistoryFile.defaultPath(Environment.variable) else { return }
        do {
            let hadOwn = !service.model.history.isEmpty
            let keeper = try HistoryKeeper(file: HistoryFile(path: path))
            if !historyLoaded {
                historyLoaded = true
                service.loadHistory(keeper.load(limits: config.notifications.limits))
            }
            // What the file holds is what the model holds, unless this run closed toasts before the
            // history was kept (a reload turned it on): then the file is behind.
            if !hadOwn { keeper.markSaved(service.model.historyGeneration) }
            try loop.add(fd: keeper.timer.fd, events: EventLoop.readable) { [unowned self] _ in
                keeper.timer.acknowledge()
                keeper.save(self.service.model)
            }
            historyKeeper = keeper
        } catch {
            Log.warning("history not kept across restarts: \(error)")
        }
    }
}
