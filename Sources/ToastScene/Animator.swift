import ToastConfig
import ToastCore
import ToastRender
import ToastVocabulary

/// Turns the model into `Scene`s over time: fades toasts and HUDs in and out and turns the spinner.
/// Pure: time comes in as `now`. Leaving items are remembered here, because the model forgets a
/// notification the moment it closes.
package struct Animator {
    /// Fade duration; 0 turns animations off (every change is drawn at once, the spinner stands still).
    package var fadeMilliseconds: Milliseconds = 160
    /// One turn of the spinner.
    package var spinnerPeriod: Milliseconds = 1000
    /// The wheel has this many spokes and turns a spoke at a time: each step is drawn once, on the
    /// daemon's timer (`Scene.nextStep`), not on every frame callback. Redrawing a wheel that moves a
    /// fraction of a spoke at 60 Hz cost ~1.7 % of a core, nearly all of it Cairo stroking twelve spokes.
    package static let spinnerSteps: Int64 = 12
    /// The first frame of a fade-in is already partly visible, so the first commit shows the toast.
    package var minimumOpacity = 0.2

    private var order: [NotificationID] = []
    /// How the scene lists them (mako's `sort`); `order` stays newest first.
    private var sort = ToastSort.default
    /// The renderer's view of each toast in the scene, remade only when the notification changes.
    private var lastViews: [NotificationID: (revision: UInt64, groupCount: Int, view: ToastView)] = [:]
    /// The open notifications drawn as one (`group-by`), for the model generation and modes in `groupsOf`.
    private var groups = ToastGroups()
    private var groupsOf: (generation: UInt64, modes: [String])?
    private var leaving: [NotificationID: Instant] = [:]
    /// Toasts shown without a fade-in: they came in a burst (see `burstSize`).
    private var instant: Set<NotificationID> = []
    /// More toasts than this arriving within one fade duration (together or one after another) are a
    /// burst: they appear at once. A column of overlapping fades reads as flicker, and each fading toast is a blend per frame.
    package var burstSize = 2
    private var lastHuds: [HudView] = []
    /// The criteria sections and the style their looks are applied to: a toast a rule restyles gets
    /// its own style in its view. Set with `restyle`.
    package private(set) var rules = RuleSet()
    package private(set) var style = ToastStyle()
    /// The "+N more" pill as the rules' `[hidden]` sections have it.
    private var morePill = MorePillRule()
    private var hudLeavingSince: Instant?

    /// The modes the views in `lastViews` were made for.
    private var lastModes = ModeNames.initial

    /// Each open or fading toast's place, chosen when it was first seen (see `placer`), and its stack's number.
    private var places: [NotificationID: (placement: ToastPlacement, slot: Int)] = [:]
    /// The stacks toasts were placed in, by number (`slot`), and each one's `max-visible`.
    private var slotPlaces: [StackPlace] = []
    private var slotMaxVisible: [Int?] = []
    private var slotOfPlace: [StackPlace: Int] = [:]

    /// The number of `placement`'s stack, given when it is first seen.
    private mutating func slot(of placement: ToastPlacement) -> Int {
        if let slot = slotOfPlace[placement.place] { return slot }
        slotPlaces.append(placement.place)
        slotMaxVisible.append(placement.maxVisible)
        slotOfPlace[placement.place] = slotPlaces.count - 1
        return slotPlaces.count - 1
    }

    private mutating func forgetSlots() {
        slotPlaces = []
        slotMaxVisible = []
        slotOfPlace = [:]
    }
    /// Where a toast arriving now goes: its stack, and for `output = focused` the output with the
    /// focus now. Called once per toast. By default every toast is in one stack.
    package var placer: (Notification) -> ToastPlacement = { _ in Self.defaultPlacement }
    /// Whether a toast not yet drawn waits (a fullscreen window has the focus where it would show).
    package var holds: (Notification, ToastPlacement) -> Bool = { _, _ in false }
    package static let defaultPlacement = ToastPlacement(
        place: StackPlace(key: StackKey(output: .compositor, anchor: .topRight, layer: .overlay)))

    /// What one stack may show while a scene is made.
    private struct StackRoom {
        var room: Int
        var openCount = 0
        var criticalCount = 0
        var normalRoom = 0
        var criticalRoom = 0
    }

    /// Forgets every toast's place (configuration reload: the stacks are made anew).
    package mutating func forgetPlaces() {
        places = [:]
        forgetSlots()
    }

    package init(animations: Bool) {
        if !animations { fadeMilliseconds = 0 }
    }

    package var animationsEnabled: Bool { fadeMilliseconds > 0 }

    /// New rules or global style (configuration reload): every toast's view is made again.
    package mutating func restyle(rules: RuleSet, style: ToastStyle, sort: ToastSort = .default) {
        self.sort = sort
        guard rules != self.rules || style != self.style else { return }
        self.rules = rules
        self.style = style
        morePill = MorePillRule(rules: rules)
        lastViews = [:]
        groupsOf = nil
    }

    /// The scene at `now`. Only `maxVisible` toasts are in it, critical ones first, then the newest (the
    /// rest is `hiddenCount`, drawn as "+N more"), so the cost of a frame does not grow with a backlog of
    /// open notifications. They keep their order, newest on top.
    package mutating func scene(for model: ToastModel, now: Instant, maxVisible: Int) -> Scene {
        var scene = Scene()
        scene.morePill = morePill
        var animating = false
        // A `[mode=...]` section may change the look of what is open: made again when the modes change.
        if model.modes != lastModes {
            lastModes = model.modes
            if rules.changesLook { lastViews = [:] }
        }

        // Toasts: new ids go on top; closed ones stay in place while they fade out. With none open,
        // fading or placed (a HUD alone), there is nothing of theirs to work out: a stream of HUD values
        // made the toasts' sets and tables for nothing at every value.
        if !model.all.isEmpty || !order.isEmpty || !places.isEmpty || !groups.isEmpty {
            animating = addToasts(to: &scene, model: model, now: now, maxVisible: maxVisible)
        }

        // HUD: the bar and the spinner share one surface and fade together.
        var huds: [HudView] = []
        var hudShownAt: Instant?
        if let bar = model.hud.bar {
            huds.append(.bar(view(of: bar)))
            hudShownAt = bar.shownAt
        }
        if let spinner = model.hud.spinner {
            var phase = 0.0
            if animationsEnabled {
                let steps = Self.spinnerSteps, period = max(1, spinnerPeriod)
                let step = max(0, now - spinner.since) * steps / period
                phase = Double(step % steps) / Double(steps)
                // The first millisecond at or after the next step's start (rounded up: never early).
                scene.nextStep = spinner.since + ((step + 1) * period + steps - 1) / steps
            }
            huds.append(.spinner(SpinnerView(label: spinner.label, phase: phase)))
            hudShownAt = min(hudShownAt ?? spinner.since, spinner.since)
        }
        if !huds.isEmpty {
            hudLeavingSince = nil
            lastHuds = huds
            let progress = fraction(since: hudShownAt ?? now, now: now)
            if progress < 1 { animating = true }
            scene.huds = huds
            scene.hudOpacity = max(minimumOpacity, progress)
        } else if !lastHuds.isEmpty && animationsEnabled {
            let since = hudLeavingSince ?? now
            hudLeavingSince = since
            let progress = fraction(since: since, now: now)
            if progress < 1 {
                animating = true
                scene.huds = lastHuds
                scene.hudOpacity = 1 - progress
            } else {
                lastHuds = []
                hudLeavingSince = nil
            }
        } else {
            lastHuds = []
        }
        scene.isAnimating = animating
        return scene
    }

    /// The open toasts that are in a stack, each with its stack's number (`slot`), and the room each
    /// stack has; those held over a fullscreen window are in none.
    private struct Placing {
        var rooms: [StackRoom?]
        /// The stacks in the order their first toast came.
        var stackOrder: [Int] = []
        var held: Set<NotificationID> = []
        /// Indices into the model's open notifications, newest first.
        var open: [(index: Int, slot: Int)] = []
    }

    /// The toasts of the scene at `now` (see `scene`): adds them and their stacks to `scene`; returns
    /// whether any is fading.
    private mutating func addToasts(to scene: inout Scene, model: ToastModel, now: Instant, maxVisible: Int) -> Bool {
        // `model.visible` would copy every open notification at each update: with a backlog (a burst of
        // a hundred) that copy was most of a scene's cost. Read the store in place, copy only the shown.
        let all = model.all
        refreshGroups(all, model: model)
        let known = Set(order)
        var placing = place(all, known: known, maxVisible: maxVisible)
        let shown = chooseShown(all, placing: &placing)
        scene.hiddenCount = placing.open.count - shown.count
        scene.totalCount = placing.open.count
        var shownByID: [NotificationID: Notification] = [:]
        for notification in shown { shownByID[notification.id] = notification }
        let newIDs = updateOrder(shown: shown, shownByID: shownByID, all: all, known: known, now: now)
        updateViews(shown, modes: model.modes)
        if !newIDs.isEmpty && animationsEnabled { showBurstAtOnce(newIDs: newIDs, shownByID: shownByID, now: now) }
        let animating = appendToasts(to: &scene, shownByID: shownByID, now: now)
        forgetFinished(scene, shownByID: shownByID, all: all, openCount: placing.open.count, heldCount: placing.held.count)
        scene.stacks = stacks(of: scene, placing: placing, shownByID: shownByID)
        // With nothing placed, the stacks' numbers start again (the table never grows for good).
        if places.isEmpty { forgetSlots() }
        scene.heldCount = placing.held.count
        return animating
    }

    /// Groups the open toasts by the rules' `group-by` (once per model generation and modes).
    private mutating func refreshGroups(_ all: OpenNotifications, model: ToastModel) {
        if ToastGroups.apply(rules: rules, model: model) {
            if groupsOf?.generation != model.generation || groupsOf?.modes != model.modes {
                groups = ToastGroups(all, rules: rules, modes: model.modes)
                groupsOf = (model.generation, model.modes)
            }
        } else if !groups.isEmpty {
            groups = ToastGroups()
        }
    }

    /// Each open toast's stack. It is decided once, when the toast is first seen open: it never jumps to
    /// another output while it shows. One that waits over a fullscreen window (`fullscreen`) is in no
    /// stack yet: it is not drawn and its timeout does not start.
    /// This runs over every open notification at every update: with a backlog of a hundred in a burst,
    /// hashing each one's stack (strings and all) several times was most of a scene's cost. Each stack
    /// has a number (`slot`) and each toast keeps its own, so one lookup by id is all.
    private mutating func place(_ all: OpenNotifications, known: Set<NotificationID>, maxVisible: Int) -> Placing {
        var placing = Placing(rooms: Array(repeating: nil, count: slotPlaces.count))
        let grouping = !groups.isEmpty
        // A group is one toast, its newest: the others are neither drawn nor counted in "+N more".
        for i in all.indices where all[i].isVisible && !(grouping && groups.isCovered(all[i].id)) {
            let id = all[i].id
            let slot: Int
            if let placed = places[id] {
                slot = placed.slot
            } else {
                let placement = placer(all[i])
                if !known.contains(id) && holds(all[i], placement) {
                    placing.held.insert(id)
                    continue
                }
                slot = self.slot(of: placement)
                places[id] = (placement, slot)
                if slot >= placing.rooms.count {
                    placing.rooms.append(contentsOf: repeatElement(nil, count: slot + 1 - placing.rooms.count))
                }
            }
            if placing.rooms[slot] == nil {
                placing.rooms[slot] = StackRoom(room: max(1, slotMaxVisible[slot] ?? maxVisible))
                placing.stackOrder.append(slot)
            }
            placing.rooms[slot]!.openCount += 1
            if all[i].urgency == .critical { placing.rooms[slot]!.criticalCount += 1 }
            placing.open.append((i, slot))
        }
        return placing
    }

    /// The toasts drawn, newest first. Critical toasts take their places first: one that needs the
    /// user (and never expires) must not wait under "+N more" behind newer chatter. The rest fill what
    /// is left, newest first.
    private func chooseShown(_ all: OpenNotifications, placing: inout Placing) -> [Notification] {
        for slot in placing.stackOrder {
            placing.rooms[slot]!.normalRoom = max(0, placing.rooms[slot]!.room - placing.rooms[slot]!.criticalCount)
            placing.rooms[slot]!.criticalRoom = placing.rooms[slot]!.room
        }
        var rooms = placing.rooms
        var shown: [Notification] = []
        for (i, slot) in placing.open {
            if all[i].urgency == .critical {
                guard rooms[slot]!.criticalRoom > 0 else { continue }
                rooms[slot]!.criticalRoom -= 1
            } else {
                guard rooms[slot]!.normalRoom > 0 else { continue }
                rooms[slot]!.normalRoom -= 1
            }
            shown.append(all[i])
        }
        return shown
    }

    /// Puts the newly shown toasts on top of `order` and starts the fade-out of the closed ones; returns
    /// the new ones. One pushed under "+N more" by newer ones just goes (a burst would otherwise keep a
    /// tall column of fading toasts on screen).
    private mutating func updateOrder(shown: [Notification], shownByID: [NotificationID: Notification],
                                      all: OpenNotifications, known: Set<NotificationID>, now: Instant) -> [NotificationID] {
        // `order` holds only what the last scene drew (a few toasts): a search of the open ones for each
        // costs less than the set of every open id that was made here at each scene of a burst.
        for id in order where shownByID[id] == nil && leaving[id] == nil && animationsEnabled {
            if !all.contains(where: { $0.id == id && $0.isVisible }) { leaving[id] = now }
        }
        let newIDs = shown.map(\.id).filter { !known.contains($0) }
        order = newIDs + order.filter { shownByID[$0] != nil || leaving[$0] != nil }
        return newIDs
    }

    /// The view of each shown toast whose notification or group changed, styled by the rules.
    private mutating func updateViews(_ shown: [Notification], modes: [String]) {
        for notification in shown {
            let count = groups.count(of: notification.id)
            if let last = lastViews[notification.id], last.revision == notification.revision, last.groupCount == count {
                continue
            }
            var view = Self.view(of: notification)
            if let look = rules.look(of: notification, modes: modes, groupCount: count) {
                view = look.applied(to: view, base: style, id: notification.id, groupCount: count)
            }
            if notification.isFlood && count > 1 { view = Self.floodView(view, of: notification, count: count) }
            lastViews[notification.id] = (notification.revision, count, view)
        }
    }

    /// Toasts that came within the last fade duration (shown at once or not) are the burst so far: past
    /// `burstSize` of them, they show at once instead of as a column of fades.
    private mutating func showBurstAtOnce(newIDs: [NotificationID], shownByID: [NotificationID: Notification], now: Instant) {
        let fadingIn = order.filter { id in
            guard let notification = shownByID[id], !newIDs.contains(id) else { return false }
            return fraction(since: notification.shownAt ?? now, now: now) < 1
        }
        if fadingIn.count + newIDs.count > burstSize {
            instant.formUnion(fadingIn)
            instant.formUnion(newIDs)
        }
    }

    /// Adds the shown and the leaving toasts to `scene` in `order`, each at its opacity and slide now;
    /// returns whether any is fading.
    private mutating func appendToasts(to scene: inout Scene, shownByID: [NotificationID: Notification], now: Instant) -> Bool {
        var animating = false
        for id in sort.arrange(order, urgency: { lastViews[$0]?.view.urgency }) {
            guard let view = lastViews[id]?.view else { continue }
            if let notification = shownByID[id] {
                leaving[id] = nil
                let progress = instant.contains(id) ? 1 : fraction(since: notification.shownAt ?? now, now: now)
                if progress < 1 { animating = true }
                scene.toasts.append(.init(id: id, view: view, opacity: max(minimumOpacity, progress),
                                          slide: 1 - Self.easeOut(progress), grouped: groups.members(of: id)))
            } else if let since = leaving[id] {
                let progress = fraction(since: since, now: now)
                if progress >= 1 { continue }
                animating = true
                scene.toasts.append(.init(id: id, view: view, opacity: 1 - progress, slide: Self.easeIn(progress)))
            }
        }
        return animating
    }

    /// Forgets what has finished fading. A place is kept while its toast is open or fading.
    private mutating func forgetFinished(_ scene: Scene, shownByID: [NotificationID: Notification],
                                         all: OpenNotifications, openCount: Int, heldCount: Int) {
        let inScene = Set(scene.toasts.map(\.id))
        order.removeAll { !inScene.contains($0) }
        leaving = leaving.filter { inScene.contains($0.key) }
        // `keys.contains`: `shownByID[$0] != nil` copied the notification out to compare it with nil.
        instant = instant.filter { inScene.contains($0) && shownByID.keys.contains($0) }
        lastViews = lastViews.filter { inScene.contains($0.key) }
        if places.count > openCount + heldCount {
            var keep = inScene
            for i in all.indices where all[i].isVisible { keep.insert(all[i].id) }
            places = places.filter { keep.contains($0.key) }
        }
    }

    /// The stacks, each its own surface: their toasts in scene order, their own "+N more".
    private func stacks(of scene: Scene, placing: Placing, shownByID: [NotificationID: Notification]) -> [Scene.Stack] {
        var stackScenes: [Scene.Stack?] = Array(repeating: nil, count: slotPlaces.count)
        var slotsInOrder: [Int] = []
        for toast in scene.toasts {
            guard let slot = places[toast.id]?.slot else { continue }
            if stackScenes[slot] == nil {
                stackScenes[slot] = Scene.Stack(place: places[toast.id]!.placement.place)
                slotsInOrder.append(slot)
            }
            stackScenes[slot]!.toasts.append(toast)
        }
        for slot in placing.stackOrder where stackScenes[slot] == nil {
            stackScenes[slot] = Scene.Stack(place: slotPlaces[slot])
            slotsInOrder.append(slot)
        }
        for slot in slotsInOrder {
            if slot < placing.rooms.count, let room = placing.rooms[slot] {
                let shownHere = stackScenes[slot]!.toasts.lazy.filter { shownByID[$0.id] != nil }.count
                stackScenes[slot]!.hiddenCount = room.openCount - shownHere
                stackScenes[slot]!.totalCount = room.openCount
            }
        }
        return slotsInOrder.compactMap { stackScenes[$0] }.filter { !$0.toasts.isEmpty || $0.hiddenCount > 0 }
    }

    /// Decelerating curve for entrances: fast at first, settling into place.
    package static func easeOut(_ t: Double) -> Double { 1 - (1 - t) * (1 - t) }
    /// Accelerating curve for exits.
    package static func easeIn(_ t: Double) -> Double { t * t }

    private func fraction(since: Instant, now: Instant) -> Double {
        guard fadeMilliseconds > 0 else { return 1 }
        return min(1, max(0, Double(now - since) / Double(fadeMilliseconds)))
    }

    /// The renderer's view of a notification: plain fields, the default action left out of the pills;
    /// `style` when rules give it one of its own.
    package static func view(of notification: Notification, style: ToastStyle? = nil) -> ToastView {
        var image: RGBAImage?
        if case .pixels(let pixels) = notification.image { image = pixels }
        return ToastView(summary: notification.summary, body: notification.body, appName: notification.appName,
                         urgency: notification.urgency,
                         progress: notification.progress, image: image,
                         actions: notification.buttonActions.map(\.label), style: style)
    }

    /// "volume" → "Volume": the bar's label when the client gave none.
    /// The last kind titled and its title: a stream of values asks for the same one at every value, and
    /// upper-casing a character goes through Unicode's tables.
    private var lastTitle: (kind: String, title: String)?

    /// The renderer's view of the value bar (its theme icon is the daemon's to add).
    private mutating func view(of bar: ValueBar) -> HudBarView {
        HudBarView(label: bar.label ?? title(ofKind: bar.kind), iconName: bar.icon ?? bar.kind, value: bar.value, muted: bar.isMuted)
    }

    /// The bar's view when the HUD is the model's bar alone, faded in, with nothing leaving: what
    /// `scene` would show of it at `now`, with no toasts' or spinner's work (`HudValuePath` decides
    /// whether the screen can take the new value without a scene). Remembered, as `scene` remembers
    /// what it shows, so the bar fades out at its latest value. Nil otherwise: a scene is needed.
    package mutating func steadyBar(for model: ToastModel, now: Instant) -> HudBarView? {
        guard let bar = model.hud.bar, model.hud.spinner == nil, hudLeavingSince == nil,
              fraction(since: bar.shownAt, now: now) >= 1 else { return nil }
        let view = view(of: bar)
        lastHuds.makeOnly(.bar(view))
        return view
    }

    private mutating func title(ofKind kind: String) -> String {
        if let lastTitle, lastTitle.kind == kind { return lastTitle.title }
        let title = Self.title(ofKind: kind)
        lastTitle = (kind, title)
        return title
    }

    package static func title(ofKind kind: String) -> String {
        guard let first = kind.first else { return kind }
        return first.uppercased() + kind.dropFirst()
    }
}
