// mako's control interface, fr.emersion.Mako at /fr/emersion/Mako, as mako 1.7 to 1.9 serve it
// (dbus/mako.c): the methods makoctl calls, old and new, with their signatures and reply shapes, so
// key bindings and bar modules written for makoctl keep working with toastd.

/// Names of mako's control object.
public enum MakoControl {
    public static let path = "/fr/emersion/Mako"
    public static let interface = "fr.emersion.Mako"

    /// One notification as ListNotifications and ListHistory answer it: `a{sv}` with mako's keys.
    static func record(_ n: ControlledNotification) -> [VariantEntry] {
        [
            VariantEntry("app-name", .string(n.appName)),
            VariantEntry("app-icon", .string(n.appIcon)),
            VariantEntry("category", .string(n.category)),
            VariantEntry("desktop-entry", .string(n.desktopEntry)),
            VariantEntry("summary", .string(n.summary)),
            VariantEntry("body", .string(n.body)),
            VariantEntry("id", .uint32(n.id)),
            VariantEntry("urgency", .byte(n.urgency)),
            VariantEntry("actions", .stringPairs(n.actions)),
        ]
    }

    /// The id argument: 0 means the newest notification showing.
    static func target(_ id: UInt32) -> UInt32? { id == 0 ? nil : id }
}

extension NotificationsBus {
    /// The control delegate, or the error a call gets while there is none.
    func controlOrFail() throws(BusError) -> CompatControlDelegate {
        guard let controlDelegate else { throw .refused(message: "toastd is shutting down") }
        return controlDelegate
    }
}

extension BusInterface {
    static let mako = BusInterface(MakoControl.interface, methods: [
        // mako 1.8+: one method, options in a dictionary (makoctl dismiss [-a|-g|-n id]).
        BusMethod("DismissNotifications", in: ["options": "a{sv}"]) { bus, call in
            let options = try call.reader.variantDictionary(keeping: ["id", "group", "all", "history"])
            let id = UInt32(clamping: options["id"]?.integer ?? 0)
            let group = options["group"]?.boolean ?? false, all = options["all"]?.boolean ?? false
            // mako refuses these together (-EINVAL).
            guard !(all && group), !((all || group) && id != 0) else {
                throw BusError.refused(message: "give one of id, group and all", name: BusErrorName.invalidArgs)
            }
            try bus.controlOrFail().controlDismiss(id: MakoControl.target(id), group: group, all: all)
            return .empty
        },
        // mako 1.7's methods (Debian's makoctl calls these).
        BusMethod("DismissAllNotifications") { bus, _ in
            try bus.controlOrFail().controlDismiss(id: nil, group: false, all: true)
            return .empty
        },
        BusMethod("DismissGroupNotifications") { bus, _ in
            try bus.controlOrFail().controlDismiss(id: nil, group: true, all: false)
            return .empty
        },
        BusMethod("DismissLastNotification") { bus, _ in
            try bus.controlOrFail().controlDismiss(id: nil, group: false, all: false)
            return .empty
        },
        BusMethod("DismissNotification", in: ["id": "u", "group": "b"]) { bus, call in
            let r = call.reader
            let id = try r.uint32(), group = try r.bool()
            try bus.controlOrFail().controlDismiss(id: MakoControl.target(id), group: group, all: false)
            return .empty
        },
        BusMethod("InvokeAction", in: ["id": "u", "action_key": "s"]) { bus, call in
            let r = call.reader
            let id = try r.uint32(), key = try r.string()
            try bus.controlOrFail().controlInvoke(id: MakoControl.target(id), key: key)
            return .empty
        },
        // An empty history is no error in mako.
        BusMethod("RestoreNotification") { bus, _ in
            _ = try bus.controlOrFail().controlRestore(id: nil)
            return .empty
        },
        BusMethod("ListNotifications", out: ["notifications": "aa{sv}"]) { bus, _ in
            let records = try bus.controlOrFail().controlShowing().map(MakoControl.record)
            return BusReply { w throws(MessageError) in try w.plain(.records(records)) }
        },
        BusMethod("ListHistory", out: ["notifications": "aa{sv}"]) { bus, _ in
            let records = try bus.controlOrFail().controlHistory().map(MakoControl.record)
            return BusReply { w throws(MessageError) in try w.plain(.records(records)) }
        },
        BusMethod("Reload") { bus, _ in
            if case .failure(let error) = try bus.controlOrFail().controlReload() {
                throw BusError.refused(message: "Unable to parse configuration file: \(error.description)",
                                       name: "fr.emersion.Mako.InvalidConfig")
            }
            return .empty
        },
        BusMethod("SetMode", in: ["mode": "s"]) { bus, call in
            let mode = try call.reader.string()
            try bus.controlOrFail().controlSetModes([mode]).get()
            return .empty
        },
        BusMethod("ListModes", out: ["modes": "as"]) { bus, _ in
            let modes = try bus.controlOrFail().controlModes()
            return BusReply { w throws(MessageError) in try w.strings(modes) }
        },
        BusMethod("SetModes", in: ["modes": "as"]) { bus, call in
            let modes = try call.reader.strings()
            try bus.controlOrFail().controlSetModes(modes).get()
            return .empty
        },
    ], properties: [
        BusProperty("Modes", type: "as") { bus in .strings(try bus.controlOrFail().controlModes()) },
        BusProperty("Notifications", type: "aa{sv}") { bus in
            .records(try bus.controlOrFail().controlShowing().map(MakoControl.record))
        },
    ])
}
