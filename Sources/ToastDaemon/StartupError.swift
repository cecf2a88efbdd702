import Wayland

/// Why toastd could not start: one line for the user, and the exit status that tells a supervisor
/// whether trying again can help.
public struct StartupError: Error, CustomStringConvertible {
    /// Anything that may pass: no display yet, the name taken, the socket busy.
    public static let failed: Int32 = 1
    /// The compositor cannot host toastd (no `zwlr_layer_shell_v1`): EX_CONFIG. Restarting will not
    /// help, and the systemd unit lists it in `RestartPreventExitStatus=` (docs/man/toastd.1.scd).
    public static let compositorUnsuitable: Int32 = 78

    public let description: String
    public let exitStatus: Int32

    init(_ description: String, exitStatus: Int32 = StartupError.failed) {
        self.description = description
        self.exitStatus = exitStatus
    }

    /// A failure to set up with the compositor: a missing global means this compositor will never do.
    init(compositor error: any Error) {
        if error is WaylandSetupError {
            self.init("cannot use this compositor: \(error)", exitStatus: Self.compositorUnsuitable)
        } else {
            self.init("cannot use the Wayland display: \(error)")
        }
    }
}
