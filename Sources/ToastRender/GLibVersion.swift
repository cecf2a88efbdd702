internal import CCairo

/// The version of the GLib the process runs with (not the one it was built against).
public enum GLibVersion {
    /// `(major, minor)` of the loaded libglib, read from its exported version numbers.
    public static var running: (major: Int, minor: Int) {
        (Int(glib_major_version), Int(glib_minor_version))
    }
}
