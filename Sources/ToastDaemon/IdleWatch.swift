import Wayland

/// The compositor's word on whether the seat has been idle for a while: `ext_idle_notifier_v1` where
/// offered (KWin 5.27, sway 1.8), else KDE's `org_kde_kwin_idle` (sway 1.7, phoc). The two say the
/// same thing (idle after N milliseconds without input, resumed at the next input) in two dialects;
/// this is the one type that knows both.
final class IdleWatch {
    /// Which protocol the compositor offers, bound.
    enum Notifier {
        case ext(ExtIdleNotifierV1)
        case kde(OrgKdeKwinIdle)

        var interfaceName: String {
            switch self {
            case .ext: ExtIdleNotifierV1.wlInterfaceName
            case .kde: OrgKdeKwinIdle.wlInterfaceName
            }
        }
    }

    private var extNotification: ExtIdleNotificationV1?
    private var kdeTimeout: OrgKdeKwinIdleTimeout?

    /// Starts watching `seat` for `threshold` milliseconds without input; `onChange` hears true when
    /// the seat went idle, false when input came back.
    init(notifier: Notifier, seat: WlSeat, threshold: UInt32, onChange: @escaping (Bool) -> Void) {
        switch notifier {
        case .ext(let manager):
            let notification = manager.getIdleNotification(timeout: threshold, seat: seat)
            notification.onEvent = { event in
                switch event {
                case .idled: onChange(true)
                case .resumed: onChange(false)
                }
            }
            extNotification = notification
        case .kde(let manager):
            let timeout = manager.getIdleTimeout(seat: seat, timeout: threshold)
            timeout.onEvent = { event in
                switch event {
                case .idle: onChange(true)
                case .resumed: onChange(false)
                }
            }
            kdeTimeout = timeout
        }
    }

    deinit {
        extNotification?.destroy()
        kdeTimeout?.release()
    }
}
