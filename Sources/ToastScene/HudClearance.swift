import ToastConfig

/// Where the HUD goes when a toast stack is at its anchor: past the stack, so that neither covers the
/// other (`anchor = bottom-center` put the stack over the HUD's bar). The stack stays where it is (a
/// HUD never moves toasts, which stay for seconds while a bar comes and goes with each key press);
/// the HUD takes its own place beyond the stack's farthest box, a toast gap away, and goes back to
/// its configured place when the stack is gone.
///
/// Margins are the surfaces' (each surface reaches `bleed` past its boxes for their shadows, so the
/// boxes are `bleed` further in); only a stack on the same edge and in the same column counts.
package enum HudClearance {
    /// A stack's surface on the HUD's output: its anchor, its margins and its height (logical pixels).
    package struct Stack: Equatable {
        package var anchor: ScreenAnchor
        package var margins: Margins
        package var height: Int

        package init(anchor: ScreenAnchor, margins: Margins, height: Int) {
            self.anchor = anchor
            self.margins = margins
            self.height = height
        }
    }

    /// The HUD surface's margins: `margins` (its configured place at `anchor`), or farther from the
    /// anchored edge past each stack of `stacks` there, its nearest box `gap` beyond their farthest.
    package static func margins(_ margins: Margins, anchor: ScreenAnchor, stacks: [Stack], bleed: Int, gap: Int) -> Margins {
        let sharing = stacks.filter { $0.anchor.isTop == anchor.isTop && $0.anchor.column == anchor.column && $0.height > 0 }
        // The farthest box edge from the anchored edge: the surface's far side less its bleed.
        guard let far = sharing.map({ edgeMargin($0.margins, anchor.isTop) + $0.height - bleed }).max() else { return margins }
        // The HUD's box starts `bleed` inside its surface.
        let needed = far + gap - bleed
        var placed = margins
        if anchor.isTop {
            placed.top = max(placed.top, needed)
        } else {
            placed.bottom = max(placed.bottom, needed)
        }
        return placed
    }

    private static func edgeMargin(_ margins: Margins, _ isTop: Bool) -> Int {
        isTop ? margins.top : margins.bottom
    }
}
