/// Introspection XML, generated from the interface declarations (Interfaces.swift).
///
/// Names and types are written unescaped: D-Bus names are `[A-Za-z0-9_.]` and type signatures are
/// letters and `(){}`, so neither can hold an XML special character.
enum Introspection {
    static let header = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

    """

    /// The document Introspect answers for `object`.
    static func xml(for object: BusObject) -> String {
        var out = header + "<node>\n"
        for interface in object.interfaces { out += element(interface) }
        return out + "</node>\n"
    }

    private static func element(_ interface: BusInterface) -> String {
        var out = "  <interface name=\"\(interface.name)\">\n"
        for method in interface.methods {
            let args = method.inArgs.map { arg(at: 6, $0, direction: "in") }
                + method.outArgs.map { arg(at: 6, $0, direction: "out") }
            out += element("method", name: method.name, at: 4, children: args)
        }
        for signal in interface.signals {
            out += element("signal", name: signal.name, at: 4, children: signal.args.map { arg(at: 6, $0) })
        }
        for property in interface.properties {
            let access = property.set == nil ? "read" : "readwrite"
            out += "    <property name=\"\(property.name)\" type=\"\(property.type)\" access=\"\(access)\"/>\n"
        }
        return out + "  </interface>\n"
    }

    /// `<kind name="…"/>`, or the open tag, one line per child, and the close tag.
    private static func element(_ kind: String, name: String, at indent: Int, children: [String]) -> String {
        let pad = String(repeating: " ", count: indent)
        if children.isEmpty { return "\(pad)<\(kind) name=\"\(name)\"/>\n" }
        return "\(pad)<\(kind) name=\"\(name)\">\n" + children.joined() + "\(pad)</\(kind)>\n"
    }

    /// Signal arguments have no direction.
    private static func arg(at indent: Int, _ arg: BusArg, direction: String? = nil) -> String {
        let pad = String(repeating: " ", count: indent)
        let dir = direction.map { " direction=\"\($0)\"" } ?? ""
        return "\(pad)<arg name=\"\(arg.name)\" type=\"\(arg.type)\"\(dir)/>\n"
    }
}
