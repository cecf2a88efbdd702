import ToastConfig
import ToastRender

/// Whether a new value of the value bar on screen needs a new scene, or is the bar's value alone.
///
/// A stream of volume steps changes one number: the model still takes each value first (the service
/// owns the HUD), but making the whole scene from it (toasts, fades, the spinner), laying out every
/// overlay and comparing what they hold cost a third of a value's instructions. When the HUD on screen
/// is that bar alone, faded in, nothing animating, and the new view of it differs in its value only,
/// the screen takes the value into the scene it holds and redraws the bar row; anything else (a new
/// label or icon name, the icon of another level, mute, a fade, a spinner, a toast moving) takes the
/// full path. Pure: the scene shown and the bar's new view in, the step out (the screen puts the view
/// into the scene it holds in place: a new scene made here was an array and a scene copied per value).
package enum HudValuePath {
    package enum Step: Equatable {
        /// Draw `shown` with the bar at its new value (the view given): its bar row alone changes.
        case barValue
        /// The bar shows this value already: nothing to draw.
        case unchanged
        /// More than the bar's value changed, or the HUD is not steady: make the scene from the model.
        case fullPath
    }

    /// The step from `shown` (the scene on screen) to `bar` (the bar's new view, icon included).
    package static func step(from shown: Scene, to bar: HudBarView) -> Step {
        guard !shown.isAnimating, shown.hudOpacity >= 1, shown.huds.count == 1,
              case .bar(let old) = shown.huds[0],
              old.label == bar.label, old.iconName == bar.iconName, old.muted == bar.muted, old.icon == bar.icon
        else { return .fullPath }
        return old.value == bar.value ? .unchanged : .barValue
    }
}

extension Array {
    /// Makes the array hold `element` alone, in the storage it has when it holds one element already:
    /// a steady bar's values replace the HUD they show in place, with no array made per value.
    package mutating func makeOnly(_ element: Element) {
        if count == 1 { self[0] = element } else { self = [element] }
    }
}
