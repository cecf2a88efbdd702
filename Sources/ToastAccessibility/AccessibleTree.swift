/// What toastd shows a screen reader: its application object, one NOTIFICATION object per shown toast,
/// each toast's actions as PUSH_BUTTON children, and the HUD's value bar as a PROGRESS_BAR after the
/// toasts. Pure: the D-Bus side (`AccessibilityBus`) answers
/// from it and sends the events `update` returns.
package struct AccessibleTree: Equatable, Sendable {
    /// One shown toast as a screen reader reads it.
    package struct Toast: Equatable, Sendable {
        package var id: UInt32
        package var summary: String
        /// The body without markup.
        package var body: String
        /// Keys and labels of the action buttons, in order.
        package var actions: [Action]
        package var critical: Bool

        package init(id: UInt32, summary: String, body: String, actions: [Action], critical: Bool) {
            self.id = id; self.summary = summary; self.body = body; self.actions = actions; self.critical = critical
        }
    }

    package struct Action: Equatable, Sendable {
        package var key: String
        package var label: String
        package init(key: String, label: String) { self.key = key; self.label = label }
    }

    /// The HUD's value bar as a screen reader reads it: a progress bar with the Value interface.
    package struct Bar: Equatable, Sendable {
        /// What the bar says it measures ("Volume").
        package var name: String
        /// Percent, 0...`maximum`.
        package var value: Int
        package var muted: Bool
        package var maximum: Int
        /// Its size on screen in logical pixels (Component's extents: a reader skips a sizeless bar).
        package var width: Int
        package var height: Int

        package init(name: String, value: Int, muted: Bool, maximum: Int, width: Int, height: Int) {
            self.name = name; self.value = value; self.muted = muted; self.maximum = maximum
            self.width = width; self.height = height
        }

        /// The value in words (Value's `Text`), which a reader says instead of the bare number.
        package var valueText: String { muted ? "\(value)%, muted" : "\(value)%" }
    }

    /// What changed about the bar.
    package enum BarChange: Equatable, Sendable {
        /// The bar appeared at `index` among the application's children (after the toasts).
        case shown(Bar, index: Int)
        /// Its name, value or muting changed.
        case changed(from: Bar, to: Bar)
        /// The bar left; it was at `index`.
        case hidden(Bar, index: Int)
    }

    /// What changed, in the order a toolkit tells it.
    package enum Change: Equatable, Sendable {
        /// A toast appeared at `index` among the application's children.
        case added(Toast, index: Int)
        /// A toast's text or actions changed (a replacement).
        case changed(Toast)
        /// A toast left; it was at `index`.
        case removed(Toast, index: Int)
    }

    /// What has the keyboard: a toast given it (`toast focus`, a click into its reply field), or the
    /// button Tab chose on it.
    package struct Focus: Equatable, Sendable {
        package var toast: UInt32
        /// The index of the chosen action among the toast's; nil: the toast itself.
        package var action: Int?
        package init(toast: UInt32, action: Int? = nil) { self.toast = toast; self.action = action }
    }

    /// Where the focus went: the paths of the object that lost it and of the one that has it, nil where
    /// none (or where the object is no longer in the tree: its removal says enough).
    package struct FocusChange: Equatable, Sendable {
        package var lost: String?
        package var gained: String?
        package init(lost: String?, gained: String?) { self.lost = lost; self.gained = gained }
    }

    /// The shown toasts, oldest first: the application's children.
    package private(set) var toasts: [Toast] = []
    /// The object with the keyboard; only one that is in the tree.
    package private(set) var focus: Focus?
    /// The value bar on screen, the application's last child.
    package private(set) var bar: Bar?

    package init() {}

    /// Makes the tree show `shown`; returns what changed (removals first, from the end, so each
    /// index is the one the child had when it left).
    package mutating func update(_ shown: [Toast]) -> [Change] {
        var changes: [Change] = []
        let ids = Set(shown.map(\.id))
        for index in toasts.indices.reversed() where !ids.contains(toasts[index].id) {
            changes.append(.removed(toasts.remove(at: index), index: index))
        }
        for toast in shown {
            if let index = toasts.firstIndex(where: { $0.id == toast.id }) {
                if toasts[index] != toast {
                    toasts[index] = toast
                    changes.append(.changed(toast))
                }
            } else {
                toasts.append(toast)
                changes.append(.added(toast, index: toasts.count - 1))
            }
        }
        return changes
    }

    /// Makes the tree show `new` as its bar; what changed, if anything. Call after `update(_:)`, so an
    /// index counts the toasts shown now.
    package mutating func update(bar new: Bar?) -> BarChange? {
        defer { bar = new }
        switch (bar, new) {
        case (nil, nil): return nil
        case (nil, let new?): return .shown(new, index: toasts.count)
        case (let old?, nil): return .hidden(old, index: toasts.count)
        case (let old?, let new?): return old == new ? nil : .changed(from: old, to: new)
        }
    }

    /// Makes `new` the focused object (nil, or one not in the tree: none); what changed, if anything.
    /// Call after `update(_:)`.
    package mutating func update(focus new: Focus?) -> FocusChange? {
        let new = new.flatMap { focus in path(of: focus).map { _ in focus } }
        guard new != focus else { return nil }
        defer { focus = new }
        let change = FocusChange(lost: focus.flatMap(path(of:)), gained: new.flatMap(path(of:)))
        return change.lost == nil && change.gained == nil ? nil : change
    }

    /// The path of the object `focus` names, nil when the tree has no such object.
    private func path(of focus: Focus) -> String? {
        guard let toast = toasts.first(where: { $0.id == focus.toast }) else { return nil }
        guard let action = focus.action else { return Self.path(toast: focus.toast) }
        return toast.actions.indices.contains(action) ? Self.path(toast: focus.toast, action: action) : nil
    }

    /// The states of `node`: its own (`Node.states`), and FOCUSED on the object with the keyboard.
    package func states(of node: Node) -> [AccessibleState] {
        let focused: Bool = switch node {
        case .toast(let toast, _): focus == Focus(toast: toast.id)
        case .button(let toast, let action): focus == Focus(toast: toast.id, action: action)
        case .application, .bar: false
        }
        return node.states + (focused ? [.focused] : [])
    }

    // MARK: Objects

    /// An object of the tree, as its path names it.
    package enum Node: Equatable, Sendable {
        case application
        case toast(Toast, index: Int)
        case button(Toast, action: Int)
        case bar(Bar)
    }

    package static let prefix = "/org/a11y/atspi/accessible"
    package static let rootPath = prefix + "/root"
    package static let barPath = prefix + "/hud"

    package static func path(toast id: UInt32) -> String { "\(prefix)/toast\(id)" }
    package static func path(toast id: UInt32, action: Int) -> String { "\(prefix)/toast\(id)/action\(action)" }

    /// The object at `path`, nil for none (a toast gone, a path nobody made).
    package func node(at path: String) -> Node? {
        if path == Self.rootPath { return .application }
        if path == Self.barPath { return bar.map { .bar($0) } }
        guard path.hasPrefix(Self.prefix + "/toast") else { return nil }
        let rest = path.dropFirst(Self.prefix.count + "/toast".count).split(separator: "/", omittingEmptySubsequences: false)
        guard let first = rest.first, let id = UInt32(first),
              let index = toasts.firstIndex(where: { $0.id == id }) else { return nil }
        let toast = toasts[index]
        switch rest.count {
        case 1: return .toast(toast, index: index)
        case 2:
            guard rest[1].hasPrefix("action"), let action = Int(rest[1].dropFirst("action".count)),
                  toast.actions.indices.contains(action) else { return nil }
            return .button(toast, action: action)
        default: return nil
        }
    }

    /// The paths of a node's children.
    package func children(of node: Node) -> [String] {
        switch node {
        case .application: toasts.map { Self.path(toast: $0.id) } + (bar == nil ? [] : [Self.barPath])
        case .toast(let toast, _): toast.actions.indices.map { Self.path(toast: toast.id, action: $0) }
        case .button, .bar: []
        }
    }
}
