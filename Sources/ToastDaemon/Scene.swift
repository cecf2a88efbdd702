import ToastCore
import ToastRender
import ToastVocabulary

/// What is on screen at one moment: the toast stack and the HUD, each view with its opacity.
/// Computed from the model by `Animator`; the surfaces only draw it.
struct Scene: Equatable {
    struct Toast: Equatable {
        var id: NotificationID
        var view: ToastView
        var opacity: Double
        /// How far the toast is slid out toward the screen edge it comes from, 0 (in place) to 1.
        var slide: Double = 0
    }

    /// One stack's share of the toasts: one surface per output it shows on.
    struct Stack: Equatable {
        var place: StackPlace
        /// Newest first, including toasts still fading out.
        var toasts: [Toast] = []
        /// Open toasts of this stack beyond its visible count (its "+N more" pill).
        var hiddenCount = 0
        /// Open toasts of this stack, shown or not (the pill's `%t`).
        var totalCount = 0
    }

    /// Newest first, including toasts still fading out: every stack's.
    var toasts: [Toast] = []
    /// Open toasts beyond the visible count (the "+N more" pill), every stack's.
    var hiddenCount = 0
    /// Open toasts, shown or not, for the pill's `%t` (a stack's scene: the stack's).
    var totalCount = 0
    /// How the pill looks (`[hidden]` sections).
    var morePill = MorePillRule()
    /// The toasts by stack, each in scene order.
    var stacks: [Stack] = []
    /// Open toasts waiting for a fullscreen window to go (`fullscreen`): drawn nowhere yet.
    var heldCount = 0
    /// Top to bottom: the value bar, then the spinner.
    var huds: [HudView] = []
    var hudOpacity = 1.0
    /// One stack as a scene of its own, for its painter.
    func scene(of stack: Stack) -> Scene {
        Scene(toasts: stack.toasts, hiddenCount: stack.hiddenCount, totalCount: stack.totalCount, morePill: morePill,
              isAnimating: isAnimating)
    }

    /// True while something moves: the surfaces keep asking for frame callbacks.
    var isAnimating = false
    /// When the spinner turns its next step (nil: no spinner turning). A steady spinner is not
    /// `isAnimating`: the daemon's timer redraws it at each step instead.
    var nextStep: Instant?
}
