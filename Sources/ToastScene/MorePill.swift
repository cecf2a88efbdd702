import ToastConfig
import ToastRender

/// What the configuration's `[hidden]` sections make of the "+N more" pill (mako's hidden
/// placeholder): its colours, border, font, padding, its text (`format` with `%h` the toasts not
/// shown and `%t` all of the stack's) and whether it is drawn at all (`invisible`). Without such a
/// section, the pill keeps its own look and says "+N more".
package struct MorePillRule: Equatable, Sendable {
    /// The look keys of the `[hidden]` sections, merged in file order.
    package var look = LookPatch()
    /// `invisible = 1` in a `[hidden]` section: no pill, however many toasts wait.
    package var invisible = false

    package init() {}

    /// The `[hidden]` sections of `rules` (no other section matches the pill).
    package init(rules: RuleSet) {
        look = rules.look(for: .morePill)
        invisible = rules.behaviour(for: .morePill).invisible ?? false
    }

    /// How the renderer draws the pill for `hidden` toasts not shown of `total`; nil: its own look.
    package func pillLook(hidden: Int, total: Int) -> MorePillLook? {
        guard !look.isEmpty else { return nil }
        return MorePillLook(text: look.format?.expandPill(hidden: hidden, total: total),
                            background: look.background, textColor: look.textColor, borderColor: look.borderColor,
                            borderWidth: look.borderSize, cornerRadius: look.borderRadius, font: look.font?.body,
                            padding: look.padding)
    }
}
