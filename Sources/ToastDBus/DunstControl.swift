import ToastVocabulary

// dunst's control interface, org.dunstproject.cmd0 on /org/freedesktop/Notifications, as dunst 1.9
// to 1.13 serve it (src/dbus.c): what dunstctl calls, so its commands and bar modules keep working.
// Pausing is do-not-disturb; dunst's context menu and rules have no counterpart here and say so.

/// Names of dunst's control interface.
public enum DunstControl {
    public static let interface = "org.dunstproject.cmd0"
    /// The `pauseLevel` that `paused = true` stands for (dunst's maximum).
    static let fullPause: UInt32 = 100

    /// One history entry as NotificationListHistory answers it: `a{sv}` with dunst's keys and types.
    static func record(_ n: ControlledNotification) -> [VariantEntry] {
        let urgency = ["LOW", "NORMAL", "CRITICAL"][Int(min(n.urgency, 2))]
        return [
            VariantEntry("body", .string(n.body)),
            VariantEntry("message", .string(n.body.isEmpty ? n.summary : "\(n.summary)\n\(n.body)")),
            VariantEntry("summary", .string(n.summary)),
            VariantEntry("appname", .string(n.appName)),
            VariantEntry("category", .string(n.category)),
            VariantEntry("default_action_name", .string(n.actions.first { $0.key == "default" }?.key ?? "")),
            VariantEntry("icon_path", .string(n.appIcon)),
            VariantEntry("id", .int32(Int32(bitPattern: n.id))),
            VariantEntry("timestamp", .int64(n.arrivedMicroseconds)),
            VariantEntry("timeout", .int64(0)),
            VariantEntry("progress", .int32(n.progress)),
            VariantEntry("urgency", .string(urgency)),
            VariantEntry("stack_tag", .string(n.tag)),
            VariantEntry("urls", .string("")),
        ]
    }

    static func isPaused(_ control: CompatControlDelegate) -> Bool {
        control.controlModes().contains(ModeNames.doNotDisturb)
    }

    static func setPaused(_ on: Bool, _ control: CompatControlDelegate) throws(BusError) {
        let modes = control.controlModes().filter { $0 != ModeNames.doNotDisturb }
        try control.controlSetModes(on ? modes + [ModeNames.doNotDisturb] : modes).get()
    }

    static func unsupported(_ what: String) -> BusError {
        .refused(message: "toastd has no \(what)", name: BusErrorName.notSupported)
    }
}

extension BusInterface {
    static let dunst = BusInterface(DunstControl.interface, methods: [
        BusMethod("ContextMenuCall") { _, _ in
            throw DunstControl.unsupported("context menu: `toast menu` picks an action with wofi, fuzzel, tofi or bemenu")
        },
        // The action of the `number`th toast showing (0: the newest): its default one, as dunst does
        // for a toast with a single action.
        BusMethod("NotificationAction", in: ["number": "u"]) { bus, call in
            let number = Int(try call.reader.uint32())
            let control = try bus.controlOrFail()
            let showing = control.controlShowing()
            guard number < showing.count else {
                throw BusError.refused(message: "Couldn't activate action for notification in position \(number), "
                                       + "\(showing.count) notifications currently open", name: BusErrorName.invalidArgs)
            }
            let toast = showing[number]
            control.controlInvoke(id: toast.id, key: toast.actions.count == 1 ? toast.actions[0].key : "default")
            return .empty
        },
        BusMethod("NotificationClearHistory") { bus, _ in
            _ = try bus.controlOrFail().controlClearHistory()
            return .empty
        },
        BusMethod("NotificationCloseLast") { bus, _ in
            try bus.controlOrFail().controlDismiss(id: nil, group: false, all: false)
            return .empty
        },
        BusMethod("NotificationCloseAll") { bus, _ in
            try bus.controlOrFail().controlDismiss(id: nil, group: false, all: true)
            return .empty
        },
        BusMethod("NotificationListHistory", out: ["notifications": "aa{sv}"]) { bus, _ in
            let records = try bus.controlOrFail().controlHistory().map(DunstControl.record)
            return BusReply { w throws(MessageError) in try w.plain(.records(records)) }
        },
        BusMethod("NotificationPopHistory", in: ["id": "u"]) { bus, call in
            let id = try call.reader.uint32()
            guard try bus.controlOrFail().controlRestore(id: id) else {
                throw BusError.refused(message: "no notification \(id) in the history", name: BusErrorName.invalidArgs)
            }
            return .empty
        },
        BusMethod("NotificationShow") { bus, _ in
            _ = try bus.controlOrFail().controlRestore(id: nil)
            return .empty
        },
        BusMethod("RuleEnable", in: ["name": "s", "state": "i"]) { _, _ in
            throw DunstControl.unsupported("named rules: change toastd's configuration and run `toast reload`")
        },
        BusMethod("RuleList", out: ["rules": "aa{sv}"]) { _, _ in
            BusReply { w throws(MessageError) in try w.plain(.records([])) }
        },
        BusMethod("ConfigReload", in: ["configs": "as"]) { bus, _ in
            try bus.controlOrFail().controlReload().get()
            return .empty
        },
        BusMethod("Ping") { _, _ in .empty },
    ], signals: [
        BusSignal("NotificationHistoryRemoved", ["id": "u"]),
        BusSignal("NotificationHistoryCleared", ["count": "u"]),
        BusSignal("ConfigReloaded", ["configs": "as"]),
    ], properties: [
        BusProperty("paused", type: "b", get: { bus in .bool(DunstControl.isPaused(try bus.controlOrFail())) },
                    set: { bus, value in
                        guard let on = value.boolean else {
                            throw BusError.refused(message: "paused takes a boolean", name: BusErrorName.invalidArgs)
                        }
                        try DunstControl.setPaused(on, try bus.controlOrFail())
                    }),
        BusProperty("pauseLevel", type: "u",
                    get: { bus in .uint32(DunstControl.isPaused(try bus.controlOrFail()) ? DunstControl.fullPause : 0) },
                    set: { bus, value in
                        guard let level = value.integer, level >= 0 else {
                            throw BusError.refused(message: "pauseLevel takes an unsigned number", name: BusErrorName.invalidArgs)
                        }
                        try DunstControl.setPaused(level > 0, try bus.controlOrFail())
                    }),
        BusProperty("displayedLength", type: "u") { bus in .uint32(UInt32(try bus.controlOrFail().controlShowing().count)) },
        BusProperty("historyLength", type: "u") { bus in .uint32(UInt32(try bus.controlOrFail().controlHistory().count)) },
        BusProperty("waitingLength", type: "u") { bus in .uint32(try bus.controlOrFail().controlWaitingCount()) },
    ])
}
