import ToastConfig
import ToastCore
import ToastRender
import ToastVocabulary

/// What is on screen at one moment: the toast stack and the HUD, each view with its opacity.
/// Computed from the model by `Animator`; the surfaces only draw it.
package struct Scene: Equatable {
    package struct Toast: Equatable {
        package var id: NotificationID
        package var view: ToastView
        package var opacity: Double
        /// How far the toast is slid out toward the screen edge it comes from, 0 (in place) to 1.
        package var slide: Double = 0
        /// The open notifications the toast stands for when it stands for more than its own (`group-by`,
        /// a flood), newest first, `id` among them, as the scene grouped them; empty otherwise. They
        /// are seen when it is drawn: the screen reports them from the scene, so no one groups the
        /// open notifications again per frame (a flood's are thousands).
        package var grouped: [NotificationID] = []

        /// Every notification the toast stands for: its own and its group's.
        package var standsFor: [NotificationID] { grouped.isEmpty ? [id] : grouped }
    }

    /// The notifications `toasts` stand for (`Toast.standsFor`), all together.
    package static func notifications(drawnAs toasts: some Sequence<Toast>) -> Set<NotificationID> {
        var ids = Set<NotificationID>()
        for toast in toasts {
            if toast.grouped.isEmpty { ids.insert(toast.id) } else { ids.formUnion(toast.grouped) }
        }
        return ids
    }

    /// One stack's share of the toasts: one surface per output it shows on.
    package struct Stack: Equatable {
        package var place: StackPlace
        /// Newest first, including toasts still fading out.
        package var toasts: [Toast] = []
        /// Open toasts of this stack beyond its visible count (its "+N more" pill).
        package var hiddenCount = 0
        /// Open toasts of this stack, shown or not (the pill's `%t`).
        package var totalCount = 0
    }

    /// Newest first, including toasts still fading out: every stack's.
    package var toasts: [Toast] = []
    /// Open toasts beyond the visible count (the "+N more" pill), every stack's.
    package var hiddenCount = 0
    /// Open toasts, shown or not, for the pill's `%t` (a stack's scene: the stack's).
    package var totalCount = 0
    /// How the pill looks (`[hidden]` sections).
    package var morePill = MorePillRule()
    /// The toasts by stack, each in scene order.
    package var stacks: [Stack] = []
    /// Open toasts waiting for a fullscreen window to go (`fullscreen`): drawn nowhere yet.
    package var heldCount = 0
    /// Top to bottom: the value bar, then the spinner.
    package var huds: [HudView] = []
    package var hudOpacity = 1.0
    /// One stack as a scene of its own, for its painter.
    package func scene(of stack: Stack) -> Scene {
        Scene(toasts: stack.toasts, hiddenCount: stack.hiddenCount, totalCount: stack.totalCount, morePill: morePill,
              isAnimating: isAnimating)
    }

    /// True while something moves: the surfaces keep asking for frame callbacks.
    package var isAnimating = false
    /// When the spinner turns its next step (nil: no spinner turning). A steady spinner is not
    /// `isAnimating`: the daemon's timer redraws it at each step instead.
    package var nextStep: Instant?

    package init(toasts: [Toast] = [], hiddenCount: Int = 0, totalCount: Int = 0, morePill: MorePillRule = MorePillRule(),
                 stacks: [Stack] = [], heldCount: Int = 0, huds: [HudView] = [], hudOpacity: Double = 1,
                 isAnimating: Bool = false, nextStep: Instant? = nil) {
        self.toasts = toasts
        self.hiddenCount = hiddenCount
        self.totalCount = totalCount
        self.morePill = morePill
        self.stacks = stacks
        self.heldCount = heldCount
        self.huds = huds
        self.hudOpacity = hudOpacity
        self.isAnimating = isAnimating
        self.nextStep = nextStep
    }
}
