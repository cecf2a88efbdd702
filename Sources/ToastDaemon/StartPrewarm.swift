/// Whether start-up pays fontconfig's, Pango's and the icon themes' first-use cost (`ToastRenderer.prewarm`,
/// `IconTheme.loadThemes`) before the loop runs, or leaves it to the first toast.
///
/// Started at login (a session's `exec`, a systemd unit), the daemon waits, often for minutes, before
/// its first toast: the prewarm (fontconfig and the three fonts a plain toast shows, then the icon
/// themes' indexes) makes that toast ~9 ms and the first HUD a few ms faster. Started by D-Bus
/// activation (dbus-daemon sets `DBUS_STARTER_BUS_TYPE` and `DBUS_STARTER_ADDRESS` in the environment
/// of what it starts), the daemon exists because a call is waiting, and the prewarm would only stand
/// between that call and its toast: measured on the activation path (docs/benchmarks.md, "First toast
/// after login"), notify-send → first commit 44.7 ms without it, 46.3 ms with it.
enum StartPrewarm {
    /// True unless the environment says D-Bus activation started this process.
    static func wanted(environment: (String) -> String?) -> Bool {
        environment("DBUS_STARTER_BUS_TYPE") == nil && environment("DBUS_STARTER_ADDRESS") == nil
    }
}
