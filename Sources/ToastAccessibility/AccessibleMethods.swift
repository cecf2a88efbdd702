import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// The calls a screen reader makes on toastd's objects: org.a11y.atspi.Accessible, Application,
/// Action, Component (the bar's extents) and Cache, and org.freedesktop.DBus.Properties on each
/// (Value's are properties only).
extension AccessibilityBus {
    /// The one message callback of every object. Returns 1 when answered, or a negative errno with
    /// `error` set (sd-bus sends it as the reply); 0 for what is not a call to us.
    func handleCall(_ m: OpaquePointer, _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        guard sd_bus_message_is_method_call(m, nil, nil) > 0 else { return 0 }
        let path = sd_bus_message_get_path(m).map { String(cString: $0) } ?? ""
        let interface = sd_bus_message_get_interface(m).map { String(cString: $0) } ?? ""
        let member = sd_bus_message_get_member(m).map { String(cString: $0) } ?? ""
        if path == AtspiInterface.cachePath, interface == AtspiInterface.cache, member == "GetItems" {
            // Nothing is cached ahead: a reader asks for what it reads.
            return reply(m) { w in w.emptyArray("((so)(so)(so)iiassusau)") }
        }
        guard let node = tree.node(at: path) else {
            return fail(error, "org.freedesktop.DBus.Error.UnknownObject", "No object at \(path)")
        }
        switch interface {
        case AtspiInterface.properties: return properties(m, member, node, error)
        case AtspiInterface.accessible: return accessible(m, member, node, error)
        case AtspiInterface.application where node == .application:
            if member == "GetLocale" { return reply(m) { w in w.string("") } }
        case AtspiInterface.action: if case .button(let toast, let action) = node { return self.action(m, member, toast, action, error) }
        case AtspiInterface.component: if case .bar(let bar) = node, let answer = component(m, member, bar) { return answer }
        case AtspiInterface.introspectable where member == "Introspect":
            return reply(m) { w in w.string("<node/>") }
        default: break
        }
        return fail(error, "org.freedesktop.DBus.Error.UnknownMethod", "No method \(interface).\(member) at \(path)")
    }

    private func accessible(_ m: OpaquePointer, _ member: String, _ node: AccessibleTree.Node,
                            _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32
    {
        let children = tree.children(of: node)
        switch member {
        case "GetChildAtIndex":
            let index = Int(AtspiReader.int32(m) ?? -1)
            let path = children.indices.contains(index) ? children[index] : AtspiInterface.nullPath
            return reply(m) { w in w.reference(self.uniqueName, path) }
        case "GetChildren":
            return reply(m) { w in w.open("a", "(so)"); for c in children { w.reference(self.uniqueName, c) }; w.close() }
        case "GetIndexInParent":
            return reply(m) { w in w.int32(Int32(self.indexInParent(node))) }
        case "GetRelationSet": return reply(m) { w in w.emptyArray("(ua(so))") }
        case "GetRole": return reply(m) { w in w.uint32(node.role.rawValue) }
        case "GetRoleName", "GetLocalizedRoleName": return reply(m) { w in w.string(node.role.name) }
        case "GetState":
            return reply(m) { w in w.open("a", "u"); for word in AccessibleState.words(tree.states(of: node)) { w.uint32(word) }; w.close() }
        case "GetAttributes": return reply(m) { w in w.emptyArray("{ss}") }
        case "GetApplication": return reply(m) { w in w.reference(self.uniqueName, AccessibleTree.rootPath) }
        case "GetInterfaces": return reply(m) { w in w.strings(node.interfaces) }
        default: return fail(error, "org.freedesktop.DBus.Error.UnknownMethod", "No method \(member)")
        }
    }

    private func indexInParent(_ node: AccessibleTree.Node) -> Int {
        switch node {
        case .application: -1
        case .toast(_, let index): index
        case .button(_, let action): action
        case .bar: tree.toasts.count
        }
    }

    /// The bar's box: its size, at the origin of its own surface (a layer surface has no place on a
    /// desktop a client may know). nil for what the bar does not answer.
    private func component(_ m: OpaquePointer, _ member: String, _ bar: AccessibleTree.Bar) -> Int32? {
        switch member {
        case "GetExtents":
            return reply(m) { w in w.open("r", "iiii"); w.int32(0); w.int32(0); w.int32(Int32(clamping: bar.width))
                w.int32(Int32(clamping: bar.height)); w.close() }
        case "GetSize": return reply(m) { w in w.int32(Int32(clamping: bar.width)); w.int32(Int32(clamping: bar.height)) }
        case "GetPosition": return reply(m) { w in w.int32(0); w.int32(0) }
        case "Contains": return reply(m) { w in w.bool(false) }
        default: return nil
        }
    }

    private func action(_ m: OpaquePointer, _ member: String, _ toast: AccessibleTree.Toast, _ action: Int,
                        _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32
    {
        switch member {
        case "GetName", "GetLocalizedName": return reply(m) { w in w.string("click") }
        case "GetDescription": return reply(m) { w in w.string(toast.actions[action].label) }
        case "GetKeyBinding": return reply(m) { w in w.string("") }
        case "GetActions":
            return reply(m) { w in
                w.open("a", "(sss)"); w.open("r", "sss"); w.string("click"); w.string(toast.actions[action].label)
                w.string(""); w.close(); w.close()
            }
        case "DoAction":
            guard AtspiReader.int32(m) == 0 else { return reply(m) { w in w.bool(false) } }
            onAction(toast.id, toast.actions[action].key)
            return reply(m) { w in w.bool(true) }
        default: return fail(error, "org.freedesktop.DBus.Error.UnknownMethod", "No method \(member)")
        }
    }

    // MARK: Properties

    private func properties(_ m: OpaquePointer, _ member: String, _ node: AccessibleTree.Node,
                            _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32
    {
        switch member {
        case "Get":
            guard let interface = AtspiReader.string(m), let name = AtspiReader.string(m),
                  let write = property(interface, name, node) else {
                return fail(error, "org.freedesktop.DBus.Error.UnknownProperty", "No such property")
            }
            return reply(m) { w in write(&w) }
        case "GetAll":
            let interface = AtspiReader.string(m) ?? ""
            let names = Self.propertyNames[interface] ?? []
            return reply(m) { w in
                w.open("a", "{sv}")
                for name in names {
                    guard let write = self.property(interface, name, node) else { continue }
                    w.open("e", "sv"); w.string(name); write(&w); w.close()
                }
                w.close()
            }
        case "Set":
            // The registry sets the application's Id; nothing here depends on it. A reader setting the
            // bar's CurrentValue changes nothing either: the device owns the level, not the picture.
            return reply(m) { _ in }
        default: return fail(error, "org.freedesktop.DBus.Error.UnknownMethod", "No method \(member)")
        }
    }

    private static let propertyNames = [
        AtspiInterface.accessible: ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId", "HelpText"],
        AtspiInterface.application: ["ToolkitName", "Version", "ToolkitVersion", "AtspiVersion", "InterfaceVersion", "Id"],
        AtspiInterface.action: ["NActions"],
        AtspiInterface.value: ["MinimumValue", "MaximumValue", "MinimumIncrement", "CurrentValue", "Text"],
    ]

    /// Writes a property's value as a variant; nil for a property the object does not have.
    private func property(_ interface: String, _ name: String, _ node: AccessibleTree.Node) -> ((inout AtspiWriter) -> Void)? {
        func text(_ s: String) -> (inout AtspiWriter) -> Void { { w in w.open("v", "s"); w.string(s); w.close() } }
        func number(_ i: Int) -> (inout AtspiWriter) -> Void { { w in w.open("v", "i"); w.int32(Int32(clamping: i)); w.close() } }
        switch (interface, name) {
        case (AtspiInterface.accessible, "Name"): return text(node.name)
        case (AtspiInterface.accessible, "Description"): return text(node.description)
        case (AtspiInterface.accessible, "Locale"), (AtspiInterface.accessible, "HelpText"): return text("")
        case (AtspiInterface.accessible, "AccessibleId"): return text("")
        case (AtspiInterface.accessible, "ChildCount"): return number(tree.children(of: node).count)
        case (AtspiInterface.accessible, "Parent"):
            let (name, path): (String, String)
            switch node {
            case .application: (name, path) = (parent.name, parent.path)
            case .toast: (name, path) = (uniqueName, AccessibleTree.rootPath)
            case .button(let toast, _): (name, path) = (uniqueName, AccessibleTree.path(toast: toast.id))
            case .bar: (name, path) = (uniqueName, AccessibleTree.rootPath)
            }
            return { w in w.open("v", "(so)"); w.reference(name, path); w.close() }
        case (AtspiInterface.application, "ToolkitName"): return node == .application ? text("toastd") : nil
        case (AtspiInterface.application, "Version"), (AtspiInterface.application, "ToolkitVersion"):
            return node == .application ? text("1") : nil
        case (AtspiInterface.application, "AtspiVersion"): return node == .application ? text("2.1") : nil
        case (AtspiInterface.application, "InterfaceVersion"):
            return node == .application ? { w in w.open("v", "u"); w.uint32(1); w.close() } : nil
        case (AtspiInterface.application, "Id"): return node == .application ? number(0) : nil
        case (AtspiInterface.action, "NActions"):
            if case .button = node { return number(1) }
            return nil
        case (AtspiInterface.value, _):
            guard case .bar(let bar) = node else { return nil }
            func real(_ d: Int) -> (inout AtspiWriter) -> Void { { w in w.open("v", "d"); w.double(Double(d)); w.close() } }
            switch name {
            case "MinimumValue": return real(0)
            case "MaximumValue": return real(bar.maximum)
            case "MinimumIncrement": return real(1)
            case "CurrentValue": return real(bar.value)
            case "Text": return text(bar.valueText)
            default: return nil
            }
        default: return nil
        }
    }

    // MARK: Replies

    private func reply(_ call: OpaquePointer, _ fill: (inout AtspiWriter) -> Void) -> Int32 {
        var r: OpaquePointer? = nil
        let rc = sd_bus_message_new_method_return(call, &r)
        guard rc >= 0, let r else { return rc }
        defer { sd_bus_message_unref(r) }
        var w = AtspiWriter(r)
        fill(&w)
        guard !w.failed else { return -EINVAL }
        let sent = sd_bus_send(bus, r, nil)
        return sent < 0 ? sent : 1
    }

    private func fail(_ error: UnsafeMutablePointer<sd_bus_error>?, _ name: String, _ message: String) -> Int32 {
        let r = sd_bus_error_set(error, name, message)
        return r < 0 ? r : -EIO
    }
}
