import ToastVocabulary

// Every D-Bus interface we serve, each declared once: its methods with their arguments and the code
// that answers them, and its signals. Dispatch, the signature check and the introspection XML all
// come from these declarations (BusInterface.swift, MethodDispatch.swift, Introspection.swift).

extension BusObject {
    /// /org/freedesktop/Notifications.
    static let notifications = BusObject(path: NotificationsBus.objectPath, interfaces: [
        .notifications, .dunst, .introspectable, .properties, .peer,
    ])

    /// /org/toastd/Hud.
    static let hud = BusObject(path: NotificationsBus.hudPath, interfaces: [
        .hud, .introspectable, .properties, .peer,
    ])

    /// /fr/emersion/Mako: mako's control interface, for makoctl.
    static let mako = BusObject(path: MakoControl.path, interfaces: [
        .mako, .introspectable, .properties, .peer,
    ])

    /// Every object we export.
    static let all = [notifications, hud, mako]
    /// The paths of `all`, and the names of the interfaces they serve (each once).
    static let paths = all.map(\.path)
    static let interfaceNames = all.flatMap { $0.interfaces.map(\.name) }.reduce(into: [String]()) { names, name in
        if !names.contains(name) { names.append(name) }
    }
}

extension BusInterface {
    /// org.freedesktop.Notifications, spec 1.3. What toastd says about itself comes from ServerIdentity.
    static let notifications = BusInterface(NotificationsBus.interface, methods: [
        BusMethod("Notify",
                  in: ["app_name": "s", "replaces_id": "u", "app_icon": "s", "summary": "s", "body": "s",
                       "actions": "as", "hints": "a{sv}", "expire_timeout": "i"],
                  out: ["id": "u"]) { bus, call in
            let notification = try NotificationsBus.parseNotify(call.message, sender: call.sender)
            let id = try bus.delegateOrFail().busNotify(notification).get()
            return BusReply { w throws(MessageError) in try w.uint32(id) }
        },
        BusMethod("CloseNotification", in: ["id": "u"]) { bus, call in
            let id = try call.reader.uint32()
            try bus.delegateOrFail().busClose(id: id)
            return .empty
        },
        BusMethod("GetCapabilities", out: ["capabilities": "as"]) { bus, _ in
            let capabilities = bus.capabilities
            return BusReply { w throws(MessageError) in try w.strings(capabilities) }
        },
        BusMethod("GetServerInformation",
                  out: ["name": "s", "vendor": "s", "version": "s", "spec_version": "s"]) { _, _ in
            BusReply { w throws(MessageError) in
                try w.string(ServerIdentity.name); try w.string(ServerIdentity.vendor)
                try w.string(ServerIdentity.version); try w.string(ServerIdentity.specVersion)
            }
        },
    ], signals: [
        BusSignal("NotificationClosed", ["id": "u", "reason": "u"]),
        BusSignal("ActionInvoked", ["id": "u", "action_key": "s"]),
        BusSignal("ActivationToken", ["id": "u", "activation_token": "s"]),
        BusSignal("NotificationReplied", ["id": "u", "text": "s"]),
    ])

    /// org.toastd.Hud1: value bars and loading spinners.
    static let hud = BusInterface(NotificationsBus.hudInterface, methods: [
        BusMethod("ShowValue", in: ["kind": "s", "value": "i", "label": "s", "muted": "b"]) { bus, call in
            let r = call.reader
            let kind = try r.string(), value = try r.int32(), label = try r.string(), muted = try r.bool()
            try bus.delegateOrFail().busShowValue(kind: kind, value: value, label: label, muted: muted,
                                                  sender: call.sender).get()
            return .empty
        },
        BusMethod("LoadingStart", in: ["key": "s", "label": "s"]) { bus, call in
            let r = call.reader
            let key = try r.string(), label = try r.string()
            bus.watchClient(call.sender)
            try bus.delegateOrFail().busLoadingStart(key: key, label: label, sender: call.sender).get()
            return .empty
        },
        BusMethod("LoadingStop", in: ["key": "s"]) { bus, call in
            let key = try call.reader.string()
            try bus.delegateOrFail().busLoadingStop(key: key, sender: call.sender).get()
            return .empty
        },
    ])

    /// org.freedesktop.DBus.Introspectable: the XML generated from the object's interfaces.
    static let introspectable = BusInterface("org.freedesktop.DBus.Introspectable", methods: [
        BusMethod("Introspect", out: ["xml_data": "s"]) { _, call in
            let xml = Introspection.xml(for: BusObject.at(call.path))
            return BusReply { w throws(MessageError) in try w.string(xml) }
        },
    ])

    /// org.freedesktop.DBus.Properties, over the properties the object's interfaces declare (dunst's
    /// `paused`, mako's `Modes`); an interface without any answers GetAll with an empty dictionary.
    static let properties = BusInterface("org.freedesktop.DBus.Properties", methods: [
        BusMethod("Get", in: ["interface_name": "s", "property_name": "s"], out: ["value": "v"]) { bus, call in
            let r = call.reader
            let property = try Self.property(at: call.path, interface: try r.string(), name: try r.string())
            let value = try property.get(bus)
            return BusReply { w throws(MessageError) in try w.variant(value) }
        },
        BusMethod("GetAll", in: ["interface_name": "s"], out: ["props": "a{sv}"]) { bus, call in
            let name = try call.reader.string()
            let declared = BusObject.at(call.path).interfaces.first { $0.name == name }?.properties ?? []
            let entries = try declared.map { VariantEntry($0.name, try $0.get(bus)) }
            return BusReply { w throws(MessageError) in try w.dictionary(entries) }
        },
        BusMethod("Set", in: ["interface_name": "s", "property_name": "s", "value": "v"]) { bus, call in
            let r = call.reader
            let interface = try r.string(), name = try r.string()
            let property = try Self.property(at: call.path, interface: interface, name: name)
            guard let set = property.set else {
                throw BusError.refused(message: "Property '\(name)' is read-only", name: BusErrorName.propertyReadOnly)
            }
            guard case .variant(let value)? = try r.value() else {
                throw BusError.refused(message: "Set needs a value", name: BusErrorName.invalidArgs)
            }
            try set(bus, value)
            return .empty
        },
    ], signals: [
        BusSignal("PropertiesChanged",
                  ["interface_name": "s", "changed_properties": "a{sv}", "invalidated_properties": "as"]),
    ])

    /// org.freedesktop.DBus.Peer: sd-bus answers it for every object before our callback runs.
    static let peer = BusInterface("org.freedesktop.DBus.Peer", methods: [
        BusMethod("Ping", handler: nil),
        BusMethod("GetMachineId", out: ["machine_uuid": "s"], handler: nil),
    ])

    /// The property `name` of `interface` at `path`, or the error Get and Set answer.
    private static func property(at path: String, interface: String, name: String) throws(BusError) -> BusProperty {
        guard let property = BusObject.at(path).interfaces.first(where: { $0.name == interface })?
            .properties.first(where: { $0.name == name }) else {
            throw .refused(message: "No property '\(name)' on interface '\(interface)'", name: BusErrorName.unknownProperty)
        }
        return property
    }
}

extension NotificationsBus {
    /// Reads Notify's arguments `(susssasa{sv}i)`; the signature must have been checked.
    static func parseNotify(_ m: OpaquePointer, sender: String) throws(MessageError) -> BusNotification {
        let r = MessageReader(m: m)
        let appName = try r.string()
        let replacesId = try r.uint32()
        let appIcon = try r.string()
        let summary = try r.string()
        let body = try r.string()
        let actions = Hints.actions(try r.strings())
        let hints = Hints.values(try r.variantDictionary(keeping: HintName.known))
        let timeout = try r.int32()
        return BusNotification(sender: sender, replacesId: replacesId, appName: appName, appIcon: appIcon,
                               summary: summary, body: body, actions: actions,
                               expiry: ExpireTimeout(specValue: timeout), hints: hints.values,
                               hintProblems: hints.problems)
    }
}
