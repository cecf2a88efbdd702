// Stand-in for the rest of ToastDaemon when building the config fuzz target: Placement.swift extends
// OverlaySurface, which lives with the Wayland glue the fuzz build leaves out.
final class OverlaySurface {}
