/// AT-SPI's words for what an object is and what state it is in (at-spi2-core's atspi-constants.h:
/// AtspiRole, AtspiStateType), only those toastd uses.
package enum AccessibleRole: UInt32, Sendable {
    case progressBar = 42
    case pushButton = 43
    case application = 75
    case notification = 101

    /// The role's name as `GetRoleName` answers it (atspi_role_get_name).
    package var name: String {
        switch self {
        case .progressBar: "progress bar"
        case .pushButton: "push button"
        case .application: "application"
        case .notification: "notification"
        }
    }
}

package enum AccessibleState: UInt32, Sendable {
    case enabled = 8
    case focusable = 11
    case focused = 12
    case sensitive = 24
    case showing = 25
    case visible = 30

    /// The two 32-bit words of `GetState` for a set of states.
    package static func words(_ states: [AccessibleState]) -> [UInt32] {
        var words: [UInt32] = [0, 0]
        for state in states { words[Int(state.rawValue / 32)] |= 1 << (state.rawValue % 32) }
        return words
    }
}

extension AccessibleTree.Node {
    package var role: AccessibleRole {
        switch self {
        case .application: .application
        case .toast: .notification
        case .button: .pushButton
        case .bar: .progressBar
        }
    }

    package var name: String {
        switch self {
        case .application: "toastd"
        case .toast(let toast, _): toast.summary
        case .button(let toast, let action): toast.actions[action].label
        case .bar(let bar): bar.name
        }
    }

    package var description: String {
        switch self {
        case .toast(let toast, _): toast.body
        case .bar(let bar): bar.muted ? "muted" : ""
        default: ""
        }
    }

    package var states: [AccessibleState] {
        switch self {
        case .application: []
        case .toast: [.enabled, .sensitive, .focusable, .showing, .visible]
        case .button: [.enabled, .sensitive, .focusable, .showing, .visible]
        case .bar: [.enabled, .showing, .visible]
        }
    }

    /// The D-Bus interfaces the object answers, as `GetInterfaces` lists them.
    package var interfaces: [String] {
        switch self {
        case .application: [AtspiInterface.accessible, AtspiInterface.application]
        case .toast: [AtspiInterface.accessible]
        case .button: [AtspiInterface.accessible, AtspiInterface.action]
        case .bar: [AtspiInterface.accessible, AtspiInterface.value, AtspiInterface.component]
        }
    }
}

/// The AT-SPI D-Bus names.
package enum AtspiInterface {
    package static let accessible = "org.a11y.atspi.Accessible"
    package static let application = "org.a11y.atspi.Application"
    package static let action = "org.a11y.atspi.Action"
    package static let value = "org.a11y.atspi.Value"
    package static let component = "org.a11y.atspi.Component"
    package static let cache = "org.a11y.atspi.Cache"
    package static let socket = "org.a11y.atspi.Socket"
    package static let eventObject = "org.a11y.atspi.Event.Object"
    package static let properties = "org.freedesktop.DBus.Properties"
    package static let introspectable = "org.freedesktop.DBus.Introspectable"
    package static let registryName = "org.a11y.atspi.Registry"
    package static let cachePath = "/org/a11y/atspi/cache"
    package static let nullPath = "/org/a11y/atspi/null"
}
