import ToastRender

/// A corner or edge centre of an output that an overlay is pinned to (`anchor = top-right`).
public enum ScreenAnchor: String, CaseIterable, Equatable, Sendable {
    case topLeft = "top-left"
    case topCenter = "top-center"
    case topRight = "top-right"
    case bottomLeft = "bottom-left"
    case bottomCenter = "bottom-center"
    case bottomRight = "bottom-right"

    /// Horizontal position of the anchor.
    public enum Column: Equatable, Sendable { case left, center, right }

    /// True for the top row: a stack grows downwards, away from the top edge.
    public var isTop: Bool {
        switch self {
        case .topLeft, .topCenter, .topRight: true
        case .bottomLeft, .bottomCenter, .bottomRight: false
        }
    }

    public var column: Column {
        switch self {
        case .topLeft, .bottomLeft: .left
        case .topCenter, .bottomCenter: .center
        case .topRight, .bottomRight: .right
        }
    }

    /// `rect` of a stack laid out by `StackLayout` (newest on top, right-aligned) placed for this
    /// anchor within the stack's `size`: the newest toast goes nearest the anchored edge and the stack
    /// grows away from it, aligned to the anchored side.
    public func oriented(_ rect: Rect, in size: Size) -> Rect {
        var placed = rect
        if !isTop { placed.y = size.height - rect.y - rect.height }
        switch column {
        case .left: placed.x = 0
        case .center: placed.x = (size.width - rect.width) / 2
        case .right: placed.x = size.width - rect.width
        }
        return placed
    }
}

/// Distances from the output's edges in logical pixels; only those of anchored edges take effect.
public struct Margins: Equatable, Sendable {
    public var top, right, bottom, left: Int

    public init(top: Int, right: Int, bottom: Int, left: Int) {
        self.top = top; self.right = right; self.bottom = bottom; self.left = left
    }

    /// The same distance from every edge.
    public init(all: Int) { self.init(top: all, right: all, bottom: all, left: all) }
}
