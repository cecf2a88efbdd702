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

    /// Newest first, including toasts still fading out.
    var toasts: [Toast] = []
    /// Open toasts beyond the visible count (the "+N more" pill).
    var hiddenCount = 0
    /// Top to bottom: the value bar, then the spinner.
    var huds: [HudView] = []
    var hudOpacity = 1.0
    /// True while something moves: the surfaces keep asking for frame callbacks.
    var isAnimating = false
    /// When the spinner turns its next step (nil: no spinner turning). A steady spinner is not
    /// `isAnimating`: the daemon's timer redraws it at each step instead.
    var nextStep: Instant?
}
