import ToastCore
import ToastRender
import ToastVocabulary

/// The look a criteria section sets: each field it names replaces the global value for the toasts
/// it matches. Unset fields leave what is there.
struct LookPatch: Equatable, Sendable {
    var background: Color?
    var textColor: Color?
    var borderColor: Color?
    var progressColor: Color?
    var borderSize: Double?
    var borderRadius: Double?
    var padding: Int?
    var width: Int?
    var font: FontSet?
    var maxIconSize: Int?
    var iconLocation: ToastStyle.ImageLocation?
    var iconBorderRadius: Double?
    var icons: Bool?

    var isEmpty: Bool { self == LookPatch() }

    /// Later fields win.
    mutating func merge(_ later: LookPatch) {
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
    }

    /// `style` with this patch applied. A colour is set for every urgency: the toast it is applied to
    /// has one, and the renderer picks that one.
    func applied(to style: ToastStyle) -> ToastStyle {
        var style = style
        if let c = background { style.background = c; style.lowBackground = c; style.criticalBackground = c }
        if let c = textColor { style.summaryColor = c; style.bodyColor = c; style.actionText = c }
        if let c = borderColor { style.lowBorder = c; style.normalBorder = c; style.criticalBorder = c }
        if let c = progressColor { style.lowAccent = c; style.normalAccent = c; style.criticalAccent = c }
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
}

/// The fonts one `font` value gives: the body's, its bold for the summary, a smaller one for the caption.
struct FontSet: Equatable, Sendable {
    var body: String
    var bold: String
    var small: String
}

/// The behaviour a criteria section sets; unset fields leave the global behaviour.
struct BehaviourPatch: Equatable, Sendable {
    /// Milliseconds, nil inside for never.
    var defaultTimeout: Milliseconds??
    var ignoreTimeout: Bool?
    var invisible: Bool?
    /// Kept in the history when closed (mako's `history`).
    var history: Bool?

    var isEmpty: Bool { self == BehaviourPatch() }

    mutating func merge(_ later: BehaviourPatch) {
        if let v = later.defaultTimeout { defaultTimeout = v }
        if let v = later.ignoreTimeout { ignoreTimeout = v }
        if let v = later.invisible { invisible = v }
        if let v = later.history { history = v }
    }
}

/// One criteria section: what it matches, and what it sets for the notifications it matches.
struct Rule: Equatable, Sendable {
    var criteria: Criteria
    var look = LookPatch()
    var behaviour = BehaviourPatch()
}

/// The criteria sections of a configuration, in file order. Every matching rule applies, later ones
/// winning per key, as in mako.
struct RuleSet: Equatable, Sendable {
    var rules: [Rule] = []

    var isEmpty: Bool { rules.isEmpty }
    /// Whether any rule changes the look: without one, toasts are drawn with the global style alone.
    var changesLook: Bool { rules.contains { !$0.look.isEmpty } }

    /// The largest picture box any rule asks for (`max-icon-size`), or `base` if larger: pictures are
    /// made once, at the size the largest box shows them.
    func largestImageSize(base: Int) -> Int {
        rules.compactMap(\.look.maxIconSize).reduce(base, max)
    }

    /// Whether any toast may show a picture: `base` (the global `icons`), or a rule turning them on.
    func mayShowImages(base: Bool) -> Bool {
        base || rules.contains { $0.look.icons == true }
    }

    /// What the matching rules set for the look, merged in file order.
    func look(for subject: CriteriaSubject) -> LookPatch {
        var look = LookPatch()
        for rule in rules where !rule.look.isEmpty && rule.criteria.matches(subject) { look.merge(rule.look) }
        return look
    }

    /// What the matching rules set for the behaviour, merged in file order.
    func behaviour(for subject: CriteriaSubject) -> BehaviourPatch {
        var behaviour = BehaviourPatch()
        for rule in rules where !rule.behaviour.isEmpty && rule.criteria.matches(subject) {
            behaviour.merge(rule.behaviour)
        }
        return behaviour
    }

    /// `request` as the rules would have it: timeouts, invisibility and history decided. No rule, no
    /// change.
    func resolve(_ request: NotificationRequest) -> NotificationRequest {
        guard !rules.isEmpty else { return request }
        let behaviour = behaviour(for: CriteriaSubject(request))
        guard !behaviour.isEmpty else { return request }
        var request = request
        if let timeout = behaviour.defaultTimeout { request.rules.defaultTimeout = timeout }
        if let ignore = behaviour.ignoreTimeout { request.rules.ignoresClientTimeout = ignore }
        if let invisible = behaviour.invisible { request.rules.isInvisible = invisible }
        if behaviour.history == false { request.isTransient = true }
        return request
    }

    /// The style to draw `notification` with when rules change it; nil when none does (the renderer's
    /// own style applies, the common path).
    func style(for notification: Notification, base: ToastStyle) -> ToastStyle? {
        guard changesLook else { return nil }
        let look = look(for: CriteriaSubject(notification))
        return look.isEmpty ? nil : look.applied(to: base)
    }
}
