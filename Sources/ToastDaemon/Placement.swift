import ToastConfig
import ToastRender
import Wayland

extension ScreenAnchor {
    /// The layer-shell edges: one vertical edge, plus a horizontal one unless centred.
    var edges: ZwlrLayerSurfaceV1.Anchor {
        var edges: ZwlrLayerSurfaceV1.Anchor = isTop ? .top : .bottom
        switch column {
        case .left: edges.insert(.left)
        case .center: break
        case .right: edges.insert(.right)
        }
        return edges
    }
}

extension OverlaySurface {
    /// Where on the output the surface sits: pinned to `anchor`, `margins` away from its edges.
    package struct Placement: Equatable {
        package var anchor: ScreenAnchor
        package var margins: Margins
        /// `overlay` (above fullscreen windows) unless a rule says `top`.
        package var layer: StackLayer = .overlay
    }
}
