import CSystemd
import ToastVocabulary
#if canImport(Glibc)
import Glibc
#endif

/// The methods we answer, and where.
enum BusMethod: CaseIterable {
    case notify, closeNotification, getCapabilities, getServerInformation
    case showValue, loadingStart, loadingStop
    case introspect, propertiesGet, propertiesGetAll, propertiesSet

    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"

    var interface: String {
        switch self {
        case .notify, .closeNotification, .getCapabilities, .getServerInformation: return NotificationsBus.interface
        case .showValue, .loadingStart, .loadingStop: return NotificationsBus.hudInterface
        case .introspect: return Self.introspectable
        case .propertiesGet, .propertiesGetAll, .propertiesSet: return Self.properties
        }
    }

    var member: String {
        switch self {
        case .notify: return "Notify"
        case .closeNotification: return "CloseNotification"
        case .getCapabilities: return "GetCapabilities"
        case .getServerInformation: return "GetServerInformation"
        case .showValue: return "ShowValue"
        case .loadingStart: return "LoadingStart"
        case .loadingStop: return "LoadingStop"
        case .introspect: return "Introspect"
        case .propertiesGet: return "Get"
        case .propertiesGetAll: return "GetAll"
        case .propertiesSet: return "Set"
        }
    }

    /// Input signature.
    var signature: String {
        switch self {
        case .notify: return "susssasa{sv}i"
        case .closeNotification: return "u"
        case .getCapabilities, .getServerInformation, .introspect: return ""
        case .showValue: return "sisb"
        case .loadingStart: return "ss"
        case .loadingStop: return "s"
        case .propertiesGet: return "ss"
        case .propertiesGetAll: return "s"
        case .propertiesSet: return "ssv"
        }
    }

    /// Interfaces served at an object path.
    static func interfaces(at path: String) -> [String] {
        let own = path == NotificationsBus.hudPath ? NotificationsBus.hudInterface : NotificationsBus.interface
        return [own, introspectable, properties, "org.freedesktop.DBus.Peer"]
    }

    /// Resolves a call; `interface` may be absent (D-Bus allows it), then the member decides.
    static func resolve(path: String, interface: String?, member: String) -> Result<BusMethod, ResolveError> {
        let served = interfaces(at: path)
        if let interface, !served.contains(interface) { return .failure(.unknownInterface) }
        let candidates = allCases.filter { served.contains($0.interface) && (interface == nil || $0.interface == interface) }
        guard let method = candidates.first(where: { $0.member == member }) else { return .failure(.unknownMethod) }
        return .success(method)
    }

    enum ResolveError: Error { case unknownInterface, unknownMethod }
}

extension NotificationsBus {
    /// The one message callback of both objects. Returns 1 when answered, or a negative errno with
    /// `error` set (sd-bus then sends that error as the reply).
    func handleMethodCall(_ m: OpaquePointer, _ errorOut: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        guard sd_bus_message_is_method_call(m, nil, nil) > 0 else { return 0 }
        let path = string(sd_bus_message_get_path(m)) ?? ""
        let interface = string(sd_bus_message_get_interface(m))
        let member = string(sd_bus_message_get_member(m)) ?? ""
        let method: BusMethod
        switch BusMethod.resolve(path: path, interface: interface, member: member) {
        case .success(let found): method = found
        case .failure(.unknownInterface):
            return fail(errorOut, BusErrorName.unknownInterface, "No interface '\(interface ?? "")' at \(path)")
        case .failure(.unknownMethod):
            return fail(errorOut, BusErrorName.unknownMethod,
                        "No method '\(member)' in interface '\(interface ?? "(any)")' at \(path)")
        }
        guard sd_bus_message_has_signature(m, method.signature) > 0 else {
            let got = string(sd_bus_message_get_signature(m, 1)) ?? ""
            return fail(errorOut, BusErrorName.invalidArgs,
                        "\(member) takes (\(method.signature)), got (\(got))")
        }
        let sender = string(sd_bus_message_get_sender(m)) ?? ""
        do {
            return try perform(method, m, path: path, sender: sender)
        } catch let e as MessageError {
            return fail(errorOut, BusErrorName.invalidArgs, "\(member): cannot read arguments (\(e.what): \(errnoText(e.errno)))")
        } catch let e as BusError {
            if case .refused(let message, let name) = e { return fail(errorOut, name, message) }
            return fail(errorOut, BusErrorName.failed, e.description)
        } catch {
            return fail(errorOut, BusErrorName.failed, "\(error)")
        }
    }

    private func perform(_ method: BusMethod, _ m: OpaquePointer, path: String, sender: String) throws -> Int32 {
        let reader = MessageReader(m: m)
        switch method {
        case .notify:
            let notification = try Self.parseNotify(m, sender: sender)
            let id = try delegateOrFail().busNotify(notification).get()
            return reply(m) { w throws(MessageError) in try w.uint32(id) }
        case .closeNotification:
            let id = try reader.uint32()
            try delegateOrFail().busClose(id: id)
            return reply(m) { _ throws(MessageError) in }
        case .getCapabilities:
            return reply(m) { w throws(MessageError) in try w.strings(ServerIdentity.capabilities) }
        case .getServerInformation:
            return reply(m) { w throws(MessageError) in
                try w.string(ServerIdentity.name); try w.string(ServerIdentity.vendor)
                try w.string(ServerIdentity.version); try w.string(ServerIdentity.specVersion)
            }
        case .showValue:
            let kind = try reader.string(), value = try reader.int32(), label = try reader.string()
            let muted = try reader.bool()
            try delegateOrFail().busShowValue(kind: kind, value: value, label: label, muted: muted, sender: sender).get()
            return reply(m) { _ throws(MessageError) in }
        case .loadingStart:
            let key = try reader.string(), label = try reader.string()
            watchClient(sender)
            try delegateOrFail().busLoadingStart(key: key, label: label, sender: sender).get()
            return reply(m) { _ throws(MessageError) in }
        case .loadingStop:
            let key = try reader.string()
            try delegateOrFail().busLoadingStop(key: key, sender: sender).get()
            return reply(m) { _ throws(MessageError) in }
        case .introspect:
            let xml = path == Self.hudPath ? Introspection.hud : Introspection.notifications
            return reply(m) { w throws(MessageError) in try w.string(xml) }
        case .propertiesGetAll:
            // No properties on any of our interfaces: an empty dictionary, not an error.
            return reply(m) { w throws(MessageError) in try w.emptyVariantDictionary() }
        case .propertiesGet, .propertiesSet:
            let iface = try reader.string(), name = try reader.string()
            throw BusError.refused(message: "No property '\(name)' on interface '\(iface)'",
                                   name: BusErrorName.unknownProperty)
        }
    }

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

    private func delegateOrFail() throws(BusError) -> NotificationsBusDelegate {
        guard let delegate else { throw .refused(message: "toastd is shutting down") }
        return delegate
    }

    private func reply(_ call: OpaquePointer, _ fill: (MessageWriter) throws(MessageError) -> Void) -> Int32 {
        var r: OpaquePointer? = nil
        let rc = sd_bus_message_new_method_return(call, &r)
        guard rc >= 0, let r else { return rc }
        defer { sd_bus_message_unref(r) }
        do { try fill(MessageWriter(m: r)) } catch { return -error.errno }
        let sent = sd_bus_send(nil, r, nil)
        return sent < 0 ? sent : 1
    }

    private func fail(_ error: UnsafeMutablePointer<sd_bus_error>?, _ name: String, _ message: String) -> Int32 {
        let r = sd_bus_error_set(error, name, message)
        return r < 0 ? r : -EIO
    }

    private func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
}
