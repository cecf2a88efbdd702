import ToastCore
import ToastRender
import ToastVocabulary

/// The look a criteria section sets: each field it names replaces the global value for the toasts
/// it matches. Unset fields leave what is there.
package struct LookPatch: Equatable, Sendable {
    package var background: Color?
    package var textColor: Color?
    package var borderColor: Color?
    package var progressColor: Color?
    package var borderSize: Double?
    package var borderRadius: Double?
    package var padding: Int?
    package var width: Int?
    package var font: FontSet?
    /// `false`: the body is drawn as the text it is, tags and all (mako's `markup = 0`).
    package var markup: Bool?
    /// `false`: no action buttons are drawn (mako's `actions = 0`); a click on the toast still does
    /// what `on-button-*` says.
    package var actions: Bool?
    package var maxIconSize: Int?
    package var iconLocation: ToastStyle.ImageLocation?
    package var iconBorderRadius: Double?
    package var icons: Bool?
    /// The text of the toast (mako's `format`); nil: the caption, summary and body as toastd draws them.
    package var format: FormatString?
    /// The fields that group it with other open notifications (mako's `group-by`); empty: none.
    package var groupBy: [GroupField]?

    package var isEmpty: Bool { self == LookPatch() }
    /// Whether the patch changes the style (not only what text and buttons are drawn).
    package var changesStyle: Bool {
        var style = self
        style.markup = nil; style.actions = nil; style.format = nil; style.groupBy = nil
        return !style.isEmpty
    }

    /// Later fields win.
    package mutating func merge(_ later: LookPatch) {
        if let v = later.background { background = v }
        if let v = later.textColor { textColor = v }
        if let v = later.borderColor { borderColor = v }
        if let v = later.progressColor { progressColor = v }
        if let v = later.borderSize { borderSize = v }
        if let v = later.borderRadius { borderRadius = v }
        if let v = later.padding { padding = v }
        if let v = later.width { width = v }
        if let v = later.font { font = v }
        if let v = later.maxIconSize { maxIconSize = v }
        if let v = later.iconLocation { iconLocation = v }
        if let v = later.iconBorderRadius { iconBorderRadius = v }
        if let v = later.icons { icons = v }
        if let v = later.markup { markup = v }
        if let v = later.actions { actions = v }
        if let v = later.format { format = v }
        if let v = later.groupBy { groupBy = v }
    }

    /// `view` as this patch has it drawn: its style (over `base`), its body as plain text when markup
    /// is off, no buttons when actions are off, its text made by `format`. `groupCount` is how many
    /// notifications the toast stands for (`group-by`): without a format that shows it (`%g`), it
    /// goes before the summary as mako's grouped format has it, `(3) Summary`.
    package func applied(to view: ToastView, base: ToastStyle, id: NotificationID = 0, groupCount: Int = 1) -> ToastView {
        var view = view
        if changesStyle { view.style = applied(to: base) }
        if let format {
            var fields = FormatString.Fields(appName: view.appName, summary: view.summary, body: view.body, id: id,
                                             groupCount: groupCount, bodyIsMarkup: markup != false)
            let linkColor = (view.style ?? base).linkColor
            var text = format.expand(fields, linkColor: linkColor)
            if !MarkupSanitizer.isValidPangoMarkup(text) {
                // A body's markup inside the user's (an attribute, say) can break both: the body as text.
                fields.bodyIsMarkup = false
                text = format.expand(fields, linkColor: linkColor)
            }
            view.formatted = text
        } else if groupCount > 1 {
            view.summary = "(\(groupCount)) \(view.summary)"
        }
        if markup == false { view.body = Self.escapingMarkup(view.body) }
        if actions == false { view.actions = [] }
        return view
    }

    /// `text` with the characters markup gives meaning to written as entities: drawn as they are.
    package static func escapingMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `style` with this patch applied. A colour is set for every urgency: the toast it is applied to
    /// has one, and the renderer picks that one.
    package func applied(to style: ToastStyle) -> ToastStyle {
        var style = style
        if let c = background { style.backgrounds = PerUrgency(all: c) }
        if let c = textColor { style.summaryColor = c; style.bodyColor = c; style.actionText = c }
        if let c = borderColor { style.borders = PerUrgency(all: c) }
        if let c = progressColor { style.accents = PerUrgency(all: c) }
        if let v = borderSize { style.borderWidth = v }
        if let v = borderRadius { style.cornerRadius = v }
        if let v = padding { style.padding = v }
        if let v = width { style.width = v }
        if let v = maxIconSize { style.imageSize = v }
        if let v = iconLocation { style.imageLocation = v }
        if let v = iconBorderRadius { style.imageCornerRadius = v }
        if let v = icons { style.showsImages = v }
        if let font {
            style.font = font.body; style.summaryFont = font.bold; style.captionFont = font.small
            style.actionFont = font.body
        }
        return style
    }

    package init(background: Color? = nil, textColor: Color? = nil, borderColor: Color? = nil, progressColor: Color? = nil, borderSize: Double? = nil, borderRadius: Double? = nil, padding: Int? = nil, width: Int? = nil, font: FontSet? = nil, markup: Bool? = nil, actions: Bool? = nil, maxIconSize: Int? = nil, iconLocation: ToastStyle.ImageLocation? = nil, iconBorderRadius: Double? = nil, icons: Bool? = nil, format: FormatString? = nil, groupBy: [GroupField]? = nil) {
        self.background = background
        self.textColor = textColor
        self.borderColor = borderColor
        self.progressColor = progressColor
        self.borderSize = borderSize
        self.borderRadius = borderRadius
        self.padding = padding
        self.width = width
        self.font = font
        self.markup = markup
        self.actions = actions
        self.maxIconSize = maxIconSize
        self.iconLocation = iconLocation
        self.iconBorderRadius = iconBorderRadius
        self.icons = icons
        self.format = format
        self.groupBy = groupBy
    }
}

/// The fonts one `font` value gives: the body's, its bold for the summary, a smaller one for the caption.
package struct FontSet: Equatable, Sendable {
    package var body: String
    package var bold: String
    package var small: String
}

/// The behaviour a criteria section sets; unset fields leave the global behaviour.
package struct BehaviourPatch: Equatable, Sendable {
    /// Milliseconds, nil inside for never.
    package var defaultTimeout: Milliseconds??
    package var ignoreTimeout: Bool?
    package var invisible: Bool?
    /// Kept in the history when closed (mako's `history`).
    package var history: Bool?
    /// What happens when it arrives (`on-notify`).
    package var onNotify: Binding?
    /// What a click with each button does (`on-button-left`, ...; `clickable-actions`).
    package var onButtonLeft: Binding?
    package var onButtonRight: Binding?
    package var onButtonMiddle: Binding?
    /// The sound to play instead of the client's (nil inside: none).
    package var sound: NotificationSound??

    package var isEmpty: Bool { self == BehaviourPatch() }

    package mutating func merge(_ later: BehaviourPatch) {
        if let v = later.defaultTimeout { defaultTimeout = v }
        if let v = later.ignoreTimeout { ignoreTimeout = v }
        if let v = later.invisible { invisible = v }
        if let v = later.history { history = v }
        if let v = later.onNotify { onNotify = v }
        if let v = later.onButtonLeft { onButtonLeft = v }
        if let v = later.onButtonRight { onButtonRight = v }
        if let v = later.onButtonMiddle { onButtonMiddle = v }
        if let v = later.sound { sound = v }
    }

    /// What a click with `button` does: the rule's binding, else mako's default for the button.
    package func binding(for button: PointerButton) -> Binding {
        switch button {
        case .left: onButtonLeft ?? button.defaultBinding
        case .right: onButtonRight ?? button.defaultBinding
        case .middle: onButtonMiddle ?? button.defaultBinding
        }
    }
}

/// One criteria section: what it matches, and what it sets for the notifications it matches.
package struct Rule: Equatable, Sendable {
    package var criteria: Criteria
    package var look = LookPatch()
    package var behaviour = BehaviourPatch()
    /// Its own stack (`anchor`, `output`, `layer`), `max-visible` and `fullscreen` (StackRules.swift).
    package var stack = StackPatch()
}

/// The criteria sections of a configuration, in file order. Every matching rule applies, later ones
/// winning per key, as in mako.
package struct RuleSet: Equatable, Sendable {
    package var rules: [Rule] = []

    package var isEmpty: Bool { rules.isEmpty }
    /// Whether any rule changes the look: without one, toasts are drawn with the global style alone.
    package var changesLook: Bool { rules.contains { !$0.look.isEmpty } }
    /// Whether any rule groups notifications (`group-by`): without one, every toast stands alone.
    package var groups: Bool { rules.contains { $0.look.groupBy?.isEmpty == false } }

    /// The largest picture box any rule asks for (`max-icon-size`), or `base` if larger: pictures are
    /// made once, at the size the largest box shows them.
    package func largestImageSize(base: Int) -> Int {
        rules.compactMap(\.look.maxIconSize).reduce(base, max)
    }

    /// Whether any toast may show a picture: `base` (the global `icons`), or a rule turning them on.
    package func mayShowImages(base: Bool) -> Bool {
        base || rules.contains { $0.look.icons == true }
    }

    /// What the matching rules set for the look, merged in file order.
    package func look(for subject: CriteriaSubject) -> LookPatch {
        var look = LookPatch()
        for rule in rules where !rule.look.isEmpty && rule.criteria.matches(subject) { look.merge(rule.look) }
        return look
    }

    /// What the matching rules set for the behaviour, merged in file order.
    package func behaviour(for subject: CriteriaSubject) -> BehaviourPatch {
        var behaviour = BehaviourPatch()
        for rule in rules where !rule.behaviour.isEmpty && rule.criteria.matches(subject) {
            behaviour.merge(rule.behaviour)
        }
        return behaviour
    }

    /// `request` as the rules would have it: timeouts, invisibility and history decided. No rule, no
    /// change.
    package func resolve(_ request: NotificationRequest) -> NotificationRequest {
        resolveArrival(request).request
    }

    /// `request` as the rules would have it (see `resolve`), and what its arrival does (`on-notify`;
    /// `.none` when no rule says).
    package func resolveArrival(_ request: NotificationRequest, modes: [String] = ModeNames.initial)
        -> (request: NotificationRequest, onNotify: Binding)
    {
        guard !rules.isEmpty else { return (request, .none) }
        let behaviour = behaviour(for: CriteriaSubject(request, modes: modes))
        guard !behaviour.isEmpty else { return (request, .none) }
        return (apply(behaviour, to: request), behaviour.onNotify ?? .none)
    }

    private func apply(_ behaviour: BehaviourPatch, to request: NotificationRequest) -> NotificationRequest {
        var request = request
        if let timeout = behaviour.defaultTimeout { request.rules.defaultTimeout = timeout }
        if let ignore = behaviour.ignoreTimeout { request.rules.ignoresClientTimeout = ignore }
        if let invisible = behaviour.invisible { request.rules.isInvisible = invisible }
        if behaviour.history == false { request.isTransient = true }
        if let sound = behaviour.sound { request.rules.sound = sound }
        return request
    }

    /// What a click with `button` on `notification` does: the matching rules' `on-button-*`, else
    /// mako's default for that button.
    package func binding(for button: PointerButton, on notification: Notification, modes: [String] = ModeNames.initial) -> Binding {
        guard !rules.isEmpty else { return button.defaultBinding }
        return behaviour(for: CriteriaSubject(notification, modes: modes)).binding(for: button)
    }

    /// The look the matching rules give `notification`; nil when no rule changes any look (the
    /// common path: the renderer's own style, the text as it came). `groupCount`: how many
    /// notifications its toast stands for (`group-by`), for `[grouped]` and `[group-index=0]`.
    package func look(of notification: Notification, modes: [String] = ModeNames.initial, groupCount: Int = 1) -> LookPatch? {
        guard changesLook else { return nil }
        var subject = CriteriaSubject(notification, modes: modes)
        if groupCount > 1 { subject.groupIndex = 0 }
        let look = look(for: subject)
        return look.isEmpty ? nil : look
    }

    /// The style to draw `notification` with when rules change it; nil when none does (the renderer's
    /// own style applies, the common path).
    package func style(for notification: Notification, base: ToastStyle, modes: [String] = ModeNames.initial) -> ToastStyle? {
        guard changesLook else { return nil }
        let look = look(for: CriteriaSubject(notification, modes: modes))
        return look.isEmpty ? nil : look.applied(to: base)
    }

    package init(rules: [Rule] = []) {
        self.rules = rules
    }
}
