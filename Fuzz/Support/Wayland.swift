// Stand-in for the Wayland module when building the config fuzz target: ToastDaemon's Placement.swift
// (ScreenAnchor, Margins, which ConfigParser needs) also maps anchors to layer-shell edges. The real
// module is generated from protocol XML by a SwiftPM plugin; this is the one type Placement.swift uses.
public enum ZwlrLayerSurfaceV1 {
    public struct Anchor: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let top = Anchor(rawValue: 1)
        public static let bottom = Anchor(rawValue: 2)
        public static let left = Anchor(rawValue: 4)
        public static let right = Anchor(rawValue: 8)
    }
}
