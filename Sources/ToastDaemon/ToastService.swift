import ToastConfig
import ToastCore
import ToastPictures
import ToastPlatform
import ToastRender
import ToastScene
import ToastVocabulary

/// The one service between the front doors and the model. The control socket and D-Bus decode their
/// requests into ToastCore's types, call here, and encode what comes back; neither sees the daemon,
/// the surfaces or the other door. The service owns the model, the pictures (the loader with its icon
/// cache, and the worker that decodes large ones off the loop) and the clock; what the doors must
/// hear about afterwards (a toast closed, an action invoked, a loading owner let go) waits in
/// `drainEvents()` for the daemon to route.
///
/// Every change sets `hasChanges`; the daemon takes it once per loop turn (`takeChanges()`), so a
/// reply leaves before the layout and drawing, and a burst of requests costs one redraw.
final class ToastService {
    /// What is shown and kept. Read-only outside: the scene is drawn from it.
    private(set) var model: ToastModel
    private var pictures: PictureLoader
    /// The value bar's icons, made once each.
    private var hudIcons = HudIcons()
    /// Decodes large pictures off the loop; the daemon watches its fd and calls `picturesFinished()`.
    let pictureWorker: PictureWorker
    /// The picture job each notification waits for: a result whose ticket is not the notification's
    /// latest (it was replaced meanwhile) is dropped.
    private var pictureTickets: [NotificationID: UInt64] = [:]
    private var lastTicket: UInt64 = 0
    /// Monotonic now, the model's clock (a hand-driven one in tests).
    let now: () -> Instant
    /// Wall-clock now in milliseconds since the epoch: what `--until 09:00` and the modes file count in.
    var wallNow: () -> Int64 = { WallClock.milliseconds() }
    private(set) var hasChanges = false
    /// The configuration's criteria sections: what they decide about behaviour (timeouts, invisible,
    /// history) is settled here, when a notification arrives.
    var rules = RuleSet()
    /// The pixel size and text colour pictures are made for now (the daemon's: picture box × the
    /// largest output scale); icons and SVGs are looked up and rendered for it.
    var pictureTarget: () -> PictureLoader.Target = { PictureLoader.Target() }
    /// Commands that `exec` bindings asked for, for the daemon to start (`drainCommands()`).
    private var pendingCommands: [NotificationCommand] = []
    /// Plays a notification's sound (the daemon's `SoundPlayer`): given the sound and the app name.
    var playSound: (NotificationSound, String) -> Void = { _, _ in }
    /// The pointer is over a surface of ours; a toast has the keyboard: either pauses expiry.
    private var pointerOver = false
    private var keyboardHeld = false

    init(model: ToastModel, pictures: PictureLoader, pictureWorker: PictureWorker, clock: @escaping () -> Instant) {
        self.model = model
        self.pictures = pictures
        self.pictureWorker = pictureWorker
        self.now = clock
    }

    /// `body` given the model where it is. What runs after every change reads a few fields of the model:
    /// `service.model.field` from outside copied all of it for each (every array and table in it
    /// retained, then released), a tenth of a HUD value's instructions.
    func readModel<Result>(_ body: (borrowing ToastModel) -> Result) -> Result {
        // Lent through an inout access, whose exclusivity lets the model be passed where it is: a plain
        // read copied it to pass it.
        Self.lend(&model, to: body)
    }

    private static func lend<Result>(_ model: inout ToastModel, to body: (borrowing ToastModel) -> Result) -> Result {
        body(model)
    }

    /// Whether anything changed since the last call; clears the flag.
    func takeChanges() -> Bool {
        defer { hasChanges = false }
        return hasChanges
    }

    /// The model's events since the last call, for the front doors.
    func drainEvents() -> [CoreEvent] {
        model.drainEvents()
    }

    /// The commands bindings asked for since the last call, in order, for the daemon to run.
    func drainCommands() -> [NotificationCommand] {
        defer { pendingCommands = [] }
        return pendingCommands
    }

    /// Applies `change` to the model at the current time and notes that something may have changed.
    func change<Result, Failure: Error>(_ change: (inout ToastModel, Instant) throws(Failure) -> Result) throws(Failure) -> Result {
        hasChanges = true
        return try change(&model, now())
    }

    // MARK: Notifications

    /// Shows (or replaces) a notification. Its picture is resolved first; a large one follows when
    /// the worker has decoded it.
    func notify(_ request: NotificationRequest) throws(NotificationError) -> NotificationID {
        let (resolved, onNotify) = rules.resolveArrival(request, modes: model.modes)
        let (request, pending) = pictures.prepare(resolved, for: pictureTarget())
        let id = try change { (model, now) throws(NotificationError) in try model.notify(request, now: now) }
        // Only what is shown makes a sound: do-not-disturb and `invisible` keep it quiet.
        if let sound = request.soundToPlay, model.notification(id: id)?.isVisible == true {
            playSound(sound, request.appName)
        }
        // A pattern, not `!= .none`: the derived `==` of a payload enum went through its witness table.
        if case .none = onNotify {} else { perform(onNotify, on: id) }
        pictureTickets[id] = nil
        if let pending {
            lastTicket += 1
            if pictureWorker.submit(PictureWorker.Job(id: id, ticket: lastTicket, picture: pending)) {
                pictureTickets[id] = lastTicket
            } else {
                Log.warning("the picture of \(id) would hold more than \(PictureLimits.maxPendingBytes >> 20) MiB of pictures waiting; showing none")
            }
        }
        return id
    }

    /// The worker finished pictures: each goes to its notification if that still shows what it was
    /// asked for; a file's is kept in the cache, and a HUD icon's makes the HUD look again.
    func picturesFinished() {
        for finished in pictureWorker.takeFinished() {
            if let key = finished.cacheKey { pictures.cache.remember(key, finished.image) }
            guard let id = finished.id else {
                hudIcons.forget()
                change { model, _ in model.hudLookChanged() }
                continue
            }
            guard pictureTickets[id] == finished.ticket else { continue }
            pictureTickets[id] = nil
            guard let image = finished.image else {
                Log.warning("the picture of \(id) could not be decoded\(finished.problem.map { ": \($0)" } ?? ""); showing none")
                continue
            }
            change { model, _ in model.setPicture(id: id, image) }
        }
    }

    /// Closes an open notification; returns whether it was open.
    @discardableResult
    func close(id: NotificationID, reason: CloseReason) -> Bool {
        change { model, now in model.close(id: id, reason: reason, now: now) } != nil
    }

    /// The newest notification showing (do-not-disturb hides the others): what `dismiss` and `action`
    /// act on when a client names no id, as `makoctl dismiss` and `makoctl invoke` do.
    var newestShowing: NotificationID? {
        model.all.first(where: \.isVisible)?.id
    }

    /// Dismisses the newest notification showing, with the notifications drawn as one with it
    /// (`group-by`); returns its id, or nil when none shows.
    func dismissNewest() -> NotificationID? {
        guard groupsApply, let newest = newestShowing else {
            return change { model, now in model.dismissNewest(now: now) }
        }
        dismissGroup(of: newest)
        return newest
    }

    /// Whether open notifications may be drawn as one (`group-by`, or a flood).
    var groupsApply: Bool { ToastGroups.apply(rules: rules, model: model) }

    /// The open notifications drawn as one toast (`group-by`, floods), as the screen groups them.
    var groups: ToastGroups {
        ToastGroups(model.all, rules: rules, modes: model.modes)
    }

    /// Dismisses `id` and the notifications drawn as one with it, oldest first (so the history keeps
    /// the newest on top), each with its own `NotificationClosed`.
    func dismissGroup(of id: NotificationID) {
        let members = groupsApply ? groups.group(of: id) : [id]
        for member in members.reversed() { close(id: member, reason: .dismissed) }
    }

    /// Dismisses every open notification, hidden ones too.
    func dismissAll() {
        change { model, now in _ = model.dismissAll(now: now) }
    }

    /// Puts back the history an earlier run kept (the history file), behind what closed since.
    func loadHistory(_ entries: [HistoryEntry]) {
        guard !entries.isEmpty else { return }
        change { model, _ in model.loadHistory(entries) }
    }

    /// Reopens the most recently closed notification; nil when the history is empty.
    func restoreLast() -> NotificationID? {
        change { model, now in model.restoreLast(now: now) }
    }

    /// Reopens the history entry with this id (nil: the most recent); nil when there is none.
    func restore(id: NotificationID?) -> NotificationID? {
        change { model, now in model.restore(id: id, now: now) }
    }

    /// Forgets the history; returns how many entries it held.
    @discardableResult
    func clearHistory() -> Int {
        change { model, _ in model.clearHistory() }
    }

    /// Invokes action `key` of notification `id` (nil: its default action), then closes it unless it
    /// is resident. An activation token goes to the app first (`ActivationToken`).
    func invokeAction(id: NotificationID, key: String?, activationToken: String? = nil) throws(ActionError) {
        try change { (model, now) throws(ActionError) in
            try model.invokeAction(id: id, key: key, activationToken: activationToken, now: now)
        }
    }

    /// Answers `id` with `text` (`InlineReply`) and closes it.
    func reply(id: NotificationID, text: String) throws(ActionError) {
        try change { (model, now) throws(ActionError) in try model.reply(id: id, text: text, now: now) }
    }

    /// The newest open notification that takes a reply (`toast reply` without an id).
    var newestReplyable: NotificationID? {
        model.all.first(where: InlineReply.accepts)?.id
    }

    /// The pointer came over the toasts or the center (true) or left them: timeouts stop, then run
    /// again with at least a second left.
    func hover(_ over: Bool) {
        pointerOver = over
        pauseExpiryWhileAttended()
    }

    /// A toast took the keyboard (true: `toast focus`, a reply being typed) or gave it back: timeouts
    /// stop meanwhile, as under the pointer.
    func holdKeyboard(_ held: Bool) {
        keyboardHeld = held
        pauseExpiryWhileAttended()
    }

    private func pauseExpiryWhileAttended() {
        let paused = pointerOver || keyboardHeld
        guard paused != model.notifications.expiryPaused else { return }
        change { model, now in if paused { model.pauseExpiry(now: now) } else { model.resumeExpiry(now: now) } }
    }

    /// Forgets one history entry; returns whether there was one.
    @discardableResult
    func forget(historyID id: NotificationID) -> Bool {
        change { model, _ in model.forget(historyID: id) }
    }

    /// A click on the `index`th action button of `id` (the buttons are `buttonActions`, in order). A
    /// toast already closed (still fading out) has no buttons: nothing happens.
    func invokeButton(id: NotificationID, index: Int, activationToken: String? = nil) {
        guard let actions = model.notification(id: id)?.buttonActions, actions.indices.contains(index) else { return }
        do {
            try invokeAction(id: id, key: actions[index].key, activationToken: activationToken)
        } catch {
            Log.warning("action \(actions[index].key) of \(id): \(error)")
        }
    }

    /// A click on a toast off its buttons (or with another button than the left one anywhere on it):
    /// what the rules' `on-button-*` bind to that button, else mako's defaults. The left button
    /// invokes the default action (what chat and mail apps send: open the conversation) if there is
    /// one, else dismisses; the right one dismisses; the middle one does nothing. A toast already
    /// closed (still fading out) takes no click.
    func click(id: NotificationID, button: PointerButton) {
        guard let notification = model.notification(id: id) else { return }
        perform(rules.binding(for: button, on: notification, modes: model.modes), on: id)
    }

    /// Does what `binding` says to notification `id` (mako's semantics: invoking an action closes the
    /// notification even when it offers no such action). Nothing when `id` is no longer open.
    func perform(_ binding: Binding, on id: NotificationID) {
        guard let notification = model.notification(id: id) else { return }
        switch binding {
        case .none:
            break
        case .dismiss, .dismissGroup:
            // The toast stands for its group: what the user dismissed is all of it.
            dismissGroup(of: id)
        case .dismissAll:
            dismissAll()
        case .invokeDefaultAction, .invokeAction:
            let key = if case .invokeAction(let key) = binding { key } else { NotificationAction.defaultKey }
            if notification.actions.contains(where: { $0.key == key }) {
                do {
                    try invokeAction(id: id, key: key)
                } catch {
                    Log.warning("action \(key) of \(id): \(error)")
                }
            } else {
                close(id: id, reason: .dismissed)
            }
        case .exec(let command):
            pendingCommands.append(NotificationCommand(command: command, notification: notification))
            hasChanges = true
        }
    }

    /// Turns do-not-disturb on, off, or over (`nil`); returns the new state.
    @discardableResult
    func setDoNotDisturb(_ on: Bool?) -> Bool {
        change { model, now in
            if let on { model.setDoNotDisturb(on, now: now) } else { model.toggleDoNotDisturb(now: now) }
            return model.doNotDisturb
        }
    }

    /// Sets the modes on (`toast mode`); returns them, as the model keeps them (duplicates dropped, at
    /// most `ModeNames.maxCount`).
    @discardableResult
    func changeModes(_ names: [String]) -> [String] {
        guard names != model.modes else { return model.modes }
        return change { model, now in
            model.setModes(names, now: now)
            return model.modes
        }
    }

    /// The screen drew toasts standing for these notifications (`Scene.notifications(drawnAs:)`: a
    /// toast's group is seen with it): their timeouts run. Only a deadline moves, nothing to redraw.
    func displayed(_ ids: Set<NotificationID>) {
        guard model.all.contains(where: { $0.isVisible && !$0.isOnScreen && ids.contains($0.id) }) else { return }
        change { model, now in model.markDisplayed(ids, now: now) }
    }

    /// The screen's new scene shows these toasts: any other notification on screen left it (under "+N
    /// more"), and its timeout stops. Usually none did: that is found without a change, and without
    /// the set of what the toasts' groups stand for (`Scene.Toast.grouped`: a flood's are thousands).
    func showing(_ toasts: [Scene.Toast]) {
        let ids = Set(toasts.lazy.map(\.id))
        guard readModel({ $0.notifications.hasOnScreen(except: { ids.contains($0) }) }) else { return }
        let shown = Scene.notifications(drawnAs: toasts)
        guard model.notifications.hasOnScreen(except: { shown.contains($0) }) else { return }
        change { model, now in _ = model.markOffScreen(except: { shown.contains($0) }, now: now) }
    }

    /// The seat went away (idle past `idle-threshold`) or came back.
    func setAway(_ away: Bool) {
        guard away != model.notifications.isAway else { return }
        change { model, now in _ = model.setAway(away, now: now) }
    }

    // MARK: HUD

    /// Shows or updates the value bar of `kind`.
    func showBar(kind: String, value: Int, muted: Bool, label: String?, icon: String? = nil) throws(HUDError) {
        try change { (model, now) throws(HUDError) in
            _ = try model.showBar(kind: kind, value: value, muted: muted, label: label, icon: icon, now: now)
        }
    }

    /// Starts (or claims) loading key `key` for `owner`.
    func loadingStart(key: String, label: String?, owner: ClientID, detach: Bool = false) throws(HUDError) {
        try change { (model, now) throws(HUDError) in
            _ = try model.loadingStart(key: key, label: label, owner: owner, detach: detach, now: now)
        }
    }

    /// Stops loading key `key`; returns whether it was running. `requester` is who asked (its own keys
    /// do not release it; see `HUD.loadingStop`).
    func loadingStop(key: String, requester: ClientID?) -> Bool {
        change { model, _ in model.loadingStop(key: key, requester: requester) }
    }

    // MARK: Clients, time, settings

    /// A client went away: its attached loading keys stop after their grace period.
    func clientLeft(_ client: ClientID) {
        change { model, now in model.ownerDisconnected(client, now: now) }
    }

    /// The timer fired: does whatever is due now.
    func advanceClock() {
        change { model, now in model.advance(to: now) }
    }

    /// A new icon search (configuration reload): the old one's cache goes with it.
    func replaceIcons(_ icons: IconTheme) {
        pictures.replaceIcons(icons)
        hudIcons.forget()
    }

    /// `bar` with its theme icon (see `HudIcons`), for buffers at `scale` in `renderer`'s colours.
    /// The icon themes read ahead of the first icon (`IconTheme.loadThemes`).
    func loadIconThemes() {
        pictures.loadIconThemes()
    }

    func withIcon(_ bar: HudBarView, scale: Int, renderer: ToastRenderer) -> HudBarView {
        // The two colours, not the whole style: copying a `ToastStyle` per value retained all its strings.
        hudIcons.decorate(bar, scale: scale, text: renderer.style.summaryColor, muted: renderer.style.captionColor) { name, side, tint in
            let (image, pending) = pictures.smallIcon(name, side: side, scale: scale, tint: tint)
            if let pending {
                lastTicket += 1
                _ = pictureWorker.submit(PictureWorker.Job(id: nil, ticket: lastTicket, picture: pending))
            }
            return image
        }
    }

    /// New settings (configuration reload) for what comes next.
    func reconfigure(notifications: NotificationConfig, hud: HUDConfig) {
        change { model, _ in model.reconfigure(notifications: notifications, hud: hud) }
    }
}
