/// Whether start-up pays fontconfig's and Pango's first-use cost (`ToastRenderer.prewarm`) before the
/// loop runs, or leaves it to the first toast.
///
/// Started at login (a session's `exec`, a systemd unit), the daemon waits, often for minutes, before
/// its first toast: the prewarm makes that toast ~13 ms faster. Started by D-Bus activation (dbus-daemon
/// sets `DBUS_STARTER_BUS_TYPE` and `DBUS_STARTER_ADDRESS` in the environment of what it starts), the
/// daemon exists because a call is waiting: the prewarm, which shapes a sample in every font role and
/// face, only stands between that call and its toast, which loads just the fonts it shows. Measured on
/// the activation path (docs/benchmarks.md, "First toast after login"): notify-send → first commit
/// 74 → 60 ms (mako 60), the daemon's CPU until idle 51 → 39 ms, Anonymous with the toast shown 3.31 →
/// 3.05 MB.
enum StartPrewarm {
    /// True unless the environment says D-Bus activation started this process.
    static func wanted(environment: (String) -> String?) -> Bool {
        environment("DBUS_STARTER_BUS_TYPE") == nil && environment("DBUS_STARTER_ADDRESS") == nil
    }
}
