import ToastCore

/// Where a criteria section puts the toasts it matches (`anchor`, `output`, `layer`, `max-visible`,
/// `fullscreen`): toasts that differ in anchor, output or layer are separate stacks, each its own
/// layer surface, as in mako. Unset fields leave the global values.
package struct StackPatch: Equatable, Sendable {
    package var anchor: ScreenAnchor?
    /// As written: `focused`, `all` or an output name (see `OutputChoice`).
    package var output: String?
    package var layer: StackLayer?
    package var maxVisible: Int?
    package var fullscreen: FullscreenPolicy?

    package var isEmpty: Bool { self == StackPatch() }

    /// Later fields win.
    package mutating func merge(_ later: StackPatch) {
        if let v = later.anchor { anchor = v }
        if let v = later.output { output = v }
        if let v = later.layer { layer = v }
        if let v = later.maxVisible { maxVisible = v }
        if let v = later.fullscreen { fullscreen = v }
    }
}

/// The global placement of toasts, which rules change per toast.
package struct StackDefaults: Equatable, Sendable {
    package var output: OutputChoice = .compositor
    package var anchor: ScreenAnchor = .topRight
    package var layer: StackLayer = .overlay
    package var fullscreen: FullscreenPolicy = .show
    /// Whether the compositor tells the focus: a rule's `output = focused` means something.
    package var focusKnown = false

    /// The stack of a toast no rule places.
    package var key: StackKey { StackKey(output: output, anchor: anchor, layer: layer) }

    package init(output: OutputChoice = .compositor, anchor: ScreenAnchor = .topRight, layer: StackLayer = .overlay,
                 fullscreen: FullscreenPolicy = .show, focusKnown: Bool = false) {
        self.output = output
        self.anchor = anchor
        self.layer = layer
        self.fullscreen = fullscreen
        self.focusKnown = focusKnown
    }
}

extension RuleSet {
    /// What the matching rules set for the placement, merged in file order.
    package func stack(for subject: CriteriaSubject) -> StackPatch {
        var stack = StackPatch()
        for rule in rules where !rule.stack.isEmpty && rule.criteria.matches(subject) { stack.merge(rule.stack) }
        return stack
    }

    /// Where `notification` goes when it arrives: the rules' stack over `defaults`; for a `focused`
    /// stack, `focusedOutput()` (the name of the output with the focus now) is kept with it, so it
    /// stays there until it closes.
    package func placement(of notification: Notification, modes: [String], defaults: StackDefaults,
                   focusedOutput: () -> String?) -> ToastPlacement {
        var patch = StackPatch()
        if rules.contains(where: { !$0.stack.isEmpty }) {
            patch = stack(for: CriteriaSubject(notification, modes: modes))
        }
        let output = patch.output.map { OutputChoice(configured: $0, focusKnown: defaults.focusKnown) } ?? defaults.output
        let key = StackKey(output: output, anchor: patch.anchor ?? defaults.anchor, layer: patch.layer ?? defaults.layer)
        return ToastPlacement(place: StackPlace(key: key, output: output == .focused ? focusedOutput() : nil),
                              maxVisible: patch.maxVisible, fullscreen: patch.fullscreen ?? defaults.fullscreen)
    }
}
