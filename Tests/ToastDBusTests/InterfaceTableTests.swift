import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import ToastDBus

/// The interface table (Interfaces.swift) against the published interfaces, and the introspection
/// XML and the dispatch that are derived from it.
final class InterfaceTableTests: XCTestCase {
    /// What the specs (Desktop Notifications 1.3, the D-Bus standard interfaces) and docs/dbus.md say
    /// each object serves, written independently of the table: in-arg and out-arg types per method,
    /// arg types per signal.
    private static let expected: [String: [Parsed.Interface]] = [
        NotificationsBus.objectPath: [
            Parsed.Interface(name: "org.freedesktop.Notifications", methods: [
                .init(name: "Notify", ins: ["s", "u", "s", "s", "s", "as", "a{sv}", "i"], outs: ["u"]),
                .init(name: "CloseNotification", ins: ["u"], outs: []),
                .init(name: "GetCapabilities", ins: [], outs: ["as"]),
                .init(name: "GetServerInformation", ins: [], outs: ["s", "s", "s", "s"]),
            ], signals: [
                .init(name: "NotificationClosed", types: ["u", "u"]),
                .init(name: "ActionInvoked", types: ["u", "s"]),
                .init(name: "ActivationToken", types: ["u", "s"]),
                .init(name: "NotificationReplied", types: ["u", "s"]),
            ]),
            // dunst's src/dbus.c (1.13) but NotificationRemoveFromHistory, which toastd does not have.
            Parsed.Interface(name: "org.dunstproject.cmd0", methods: [
                .init(name: "ContextMenuCall", ins: [], outs: []),
                .init(name: "NotificationAction", ins: ["u"], outs: []),
                .init(name: "NotificationClearHistory", ins: [], outs: []),
                .init(name: "NotificationCloseLast", ins: [], outs: []),
                .init(name: "NotificationCloseAll", ins: [], outs: []),
                .init(name: "NotificationListHistory", ins: [], outs: ["aa{sv}"]),
                .init(name: "NotificationPopHistory", ins: ["u"], outs: []),
                .init(name: "NotificationShow", ins: [], outs: []),
                .init(name: "RuleEnable", ins: ["s", "i"], outs: []),
                .init(name: "RuleList", ins: [], outs: ["aa{sv}"]),
                .init(name: "ConfigReload", ins: ["as"], outs: []),
                .init(name: "Ping", ins: [], outs: []),
            ], signals: [
                .init(name: "NotificationHistoryRemoved", types: ["u"]),
                .init(name: "NotificationHistoryCleared", types: ["u"]),
                .init(name: "ConfigReloaded", types: ["as"]),
            ], properties: ["paused": "b readwrite", "pauseLevel": "u readwrite", "displayedLength": "u read",
                            "historyLength": "u read", "waitingLength": "u read"]),
        ] + standard,
        // mako's dbus/mako.c: 1.9's methods and 1.7's (which Debian's makoctl calls).
        "/fr/emersion/Mako": [
            Parsed.Interface(name: "fr.emersion.Mako", methods: [
                .init(name: "DismissNotifications", ins: ["a{sv}"], outs: []),
                .init(name: "DismissAllNotifications", ins: [], outs: []),
                .init(name: "DismissGroupNotifications", ins: [], outs: []),
                .init(name: "DismissLastNotification", ins: [], outs: []),
                .init(name: "DismissNotification", ins: ["u", "b"], outs: []),
                .init(name: "InvokeAction", ins: ["u", "s"], outs: []),
                .init(name: "RestoreNotification", ins: [], outs: []),
                .init(name: "ListNotifications", ins: [], outs: ["aa{sv}"]),
                .init(name: "ListHistory", ins: [], outs: ["aa{sv}"]),
                .init(name: "Reload", ins: [], outs: []),
                .init(name: "SetMode", ins: ["s"], outs: []),
                .init(name: "ListModes", ins: [], outs: ["as"]),
                .init(name: "SetModes", ins: ["as"], outs: []),
            ], signals: [], properties: ["Modes": "as read", "Notifications": "aa{sv} read"]),
        ] + standard,
        NotificationsBus.hudPath: [
            Parsed.Interface(name: "org.toastd.Hud1", methods: [
                .init(name: "ShowValue", ins: ["s", "i", "s", "b"], outs: []),
                .init(name: "LoadingStart", ins: ["s", "s"], outs: []),
                .init(name: "LoadingStop", ins: ["s"], outs: []),
            ], signals: []),
        ] + standard,
    ]

    private static let standard: [Parsed.Interface] = [
        Parsed.Interface(name: "org.freedesktop.DBus.Introspectable", methods: [
            .init(name: "Introspect", ins: [], outs: ["s"]),
        ], signals: []),
        Parsed.Interface(name: "org.freedesktop.DBus.Properties", methods: [
            .init(name: "Get", ins: ["s", "s"], outs: ["v"]),
            .init(name: "GetAll", ins: ["s"], outs: ["a{sv}"]),
            .init(name: "Set", ins: ["s", "s", "v"], outs: []),
        ], signals: [
            .init(name: "PropertiesChanged", types: ["s", "a{sv}", "as"]),
        ]),
        Parsed.Interface(name: "org.freedesktop.DBus.Peer", methods: [
            .init(name: "Ping", ins: [], outs: []),
            .init(name: "GetMachineId", ins: [], outs: ["s"]),
        ], signals: []),
    ]

    private static let objects: [BusObject] = [.notifications, .hud, .mako]

    func testGeneratedXMLParsesAndListsEveryMethodAndSignalWithItsTypes() throws {
        for object in Self.objects {
            let xml = Introspection.xml(for: object)
            XCTAssertTrue(xml.hasPrefix("<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
                                        + " \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"), xml)
            let parsed = try Parsed.document(xml)
            let expected = try XCTUnwrap(Self.expected[object.path])
            XCTAssertEqual(parsed.map(\.name), expected.map(\.name), object.path)
            for (got, want) in zip(parsed, expected) {
                XCTAssertEqual(got.methods.map(\.name), want.methods.map(\.name), "\(object.path) \(want.name)")
                XCTAssertEqual(got.methods.map(\.ins), want.methods.map(\.ins), "\(object.path) \(want.name) in-args")
                XCTAssertEqual(got.methods.map(\.outs), want.methods.map(\.outs), "\(object.path) \(want.name) out-args")
                XCTAssertEqual(got.signals, want.signals, "\(object.path) \(want.name) signals")
                XCTAssertEqual(got.properties, want.properties, "\(object.path) \(want.name) properties")
            }
        }
    }

    /// Arg names and directions come from the table too (gdbus shows them).
    func testXMLCarriesTheTableArgNamesAndDirections() throws {
        for object in Self.objects {
            let parsed = try Parsed.document(Introspection.xml(for: object))
            XCTAssertEqual(parsed.count, object.interfaces.count)
            for (got, interface) in zip(parsed, object.interfaces) {
                XCTAssertEqual(got.methods.map(\.argNames),
                               interface.methods.map { ($0.inArgs + $0.outArgs).map(\.name) }, interface.name)
                XCTAssertEqual(got.methods.map(\.directions),
                               interface.methods.map { $0.inArgs.map { _ in "in" } + $0.outArgs.map { _ in "out" } },
                               interface.name)
                XCTAssertEqual(got.signals.map(\.names), interface.signals.map { $0.args.map(\.name) }, interface.name)
                XCTAssertFalse(got.signals.contains { $0.hasDirection }, "signal args have no direction")
            }
        }
    }

    func testEveryMethodSignatureIsItsInArgTypesConcatenated() throws {
        for object in Self.objects {
            let expected = try XCTUnwrap(Self.expected[object.path])
            for interface in object.interfaces {
                let want = try XCTUnwrap(expected.first { $0.name == interface.name }, interface.name)
                for method in interface.methods {
                    XCTAssertEqual(method.signature, method.inArgs.map(\.type).joined(), method.name)
                    let spec = try XCTUnwrap(want.methods.first { $0.name == method.name }, method.name)
                    XCTAssertEqual(method.signature, spec.ins.joined(), "\(interface.name).\(method.name)")
                    // Concatenation only round-trips when every arg is exactly one complete type.
                    for arg in method.inArgs + method.outArgs {
                        XCTAssertTrue(Self.isSingleCompleteType(arg.type), "\(method.name).\(arg.name): \(arg.type)")
                    }
                }
                for signal in interface.signals {
                    for arg in signal.args {
                        XCTAssertTrue(Self.isSingleCompleteType(arg.type), "\(signal.name).\(arg.name): \(arg.type)")
                    }
                }
            }
        }
        XCTAssertEqual(BusInterface.notifications.methods.first { $0.name == "Notify" }?.signature, "susssasa{sv}i")
    }

    func testSignalsWeEmitAreDeclared() {
        // NotificationsBus.emit… sends these members on the Notifications interface.
        let declared = BusInterface.notifications.signals.map(\.name)
        for name in ["NotificationClosed", "ActionInvoked", "ActivationToken", "NotificationReplied"] {
            XCTAssertTrue(declared.contains(name), name)
        }
    }

    func testEveryAnsweredMethodResolvesWithAndWithoutItsInterface() {
        for object in Self.objects {
            for interface in object.interfaces {
                for method in interface.methods {
                    // A member only: dunst's own Ping answers where Peer's would.
                    let bare = object.interfaces.contains { $0.name != interface.name && $0.methods.contains { $0.name == method.name && $0.handler != nil } }
                    for named in bare && method.handler == nil ? [interface.name] : [interface.name, nil] {
                        let found = try? BusObject.resolve(path: object.path, interface: named, member: method.name).get()
                        if method.handler == nil {
                            // sd-bus answers these before our callback: if one ever reached us, it is unknown.
                            XCTAssertNil(found, "\(interface.name).\(method.name)")
                        } else {
                            XCTAssertEqual(found?.name, method.name, "\(object.path) \(named ?? "-").\(method.name)")
                            XCTAssertEqual(found?.signature, method.signature)
                        }
                    }
                }
            }
        }
        XCTAssertNotNil(BusInterface.peer.methods.first { $0.name == "Ping" }, "Peer is declared for introspection")
    }

    func testResolveRefusals() {
        func resolve(_ path: String, _ interface: String?, _ member: String) -> BusObject.ResolveError? {
            if case .failure(let e) = BusObject.resolve(path: path, interface: interface, member: member) { return e }
            return nil
        }
        let notifications = NotificationsBus.objectPath, hud = NotificationsBus.hudPath
        XCTAssertEqual(resolve(notifications, "org.example.Nope", "GetCapabilities"), .unknownInterface)
        XCTAssertEqual(resolve(notifications, NotificationsBus.hudInterface, "LoadingStop"), .unknownInterface)
        XCTAssertEqual(resolve(hud, NotificationsBus.interface, "Notify"), .unknownInterface)
        XCTAssertEqual(resolve(notifications, NotificationsBus.interface, "Frobnicate"), .unknownMethod)
        XCTAssertEqual(resolve(notifications, nil, "Frobnicate"), .unknownMethod)
        XCTAssertEqual(resolve(notifications, nil, "LoadingStop"), .unknownMethod)
        XCTAssertEqual(resolve(hud, nil, "Notify"), .unknownMethod)
        XCTAssertEqual(resolve(notifications, NotificationsBus.interface, "Introspect"), .unknownMethod)
        XCTAssertNil(resolve(notifications, nil, "GetAll"))
        XCTAssertNil(resolve(hud, "org.freedesktop.DBus.Introspectable", "Introspect"))
    }

    /// One complete D-Bus type and nothing after it.
    private static func isSingleCompleteType(_ signature: String) -> Bool {
        var rest = Substring(signature)
        return completeType(&rest) && rest.isEmpty
    }

    private static func completeType(_ s: inout Substring) -> Bool {
        guard let c = s.popFirst() else { return false }
        switch c {
        case "y", "b", "n", "q", "i", "u", "x", "t", "d", "h", "s", "o", "g", "v":
            return true
        case "a":
            if s.first == "{" {
                s.removeFirst()
                guard let key = s.popFirst(), "ybnqiuxtdhsog".contains(key), completeType(&s) else { return false }
                return s.popFirst() == "}"
            }
            return completeType(&s)
        case "(":
            var members = 0
            while s.first != ")" {
                guard completeType(&s) else { return false }
                members += 1
            }
            s.removeFirst()
            return members > 0
        default:
            return false
        }
    }
}

/// Every method of the table answers a call with the wrong arguments with InvalidArgs, naming the
/// signature the table declares.
final class InterfaceTableDispatchTests: BusTestCase {
    func testWrongSignatureNamesTheDeclaredOne() throws {
        for object in [BusObject.notifications, .hud, .mako] {
            for interface in object.interfaces {
                for method in interface.methods where method.handler != nil {
                    // No arguments for a method that takes some, one too many for one that takes none.
                    let args = method.signature.isEmpty ? ["string:extra"] : []
                    let got = method.signature.isEmpty ? "s" : ""
                    let client = try dbusSend(path: object.path, "\(interface.name).\(method.name)", args)
                    XCTAssertNotEqual(client.status, 0, "\(interface.name).\(method.name)")
                    XCTAssertTrue(client.stderr.contains("Error \(BusErrorName.invalidArgs): "
                                                         + "\(method.name) takes (\(method.signature)), got (\(got))"),
                                  client.stderr)
                }
            }
        }
        XCTAssertEqual(delegate.notifications.count, 0)
        XCTAssertEqual(delegate.closed, [])
    }
}

/// Introspection XML read back with XMLParser.
private enum Parsed {
    struct Method: Equatable {
        var name: String
        var ins: [String]
        var outs: [String]
        var argNames: [String] = []
        var directions: [String] = []
    }

    struct Signal: Equatable {
        var name: String
        var types: [String]
        var names: [String] = []
        var hasDirection = false

        static func == (a: Signal, b: Signal) -> Bool { a.name == b.name && a.types == b.types }
    }

    struct Interface {
        var name: String
        var methods: [Method]
        var signals: [Signal]
        /// Name to "type access".
        var properties: [String: String] = [:]
    }

    struct ParseError: Error, CustomStringConvertible { var description: String }

    static func document(_ xml: String) throws -> [Interface] {
        let reader = Reader()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = reader
        guard parser.parse() else {
            throw ParseError(description: "XML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        if let problem = reader.problem { throw ParseError(description: problem) }
        return reader.interfaces
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var interfaces: [Interface] = []
        var problem: String?
        private var inSignal = false

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let name = attributes["name"] ?? ""
            switch element {
            case "node": break
            case "interface": interfaces.append(Interface(name: name, methods: [], signals: []))
            case "method":
                inSignal = false
                interfaces[interfaces.count - 1].methods.append(Method(name: name, ins: [], outs: []))
            case "signal":
                inSignal = true
                interfaces[interfaces.count - 1].signals.append(Signal(name: name, types: []))
            case "property":
                interfaces[interfaces.count - 1].properties[name] = "\(attributes["type"] ?? "") \(attributes["access"] ?? "")"
            case "arg":
                let type = attributes["type"] ?? ""
                let last = interfaces.count - 1
                if inSignal {
                    let s = interfaces[last].signals.count - 1
                    interfaces[last].signals[s].types.append(type)
                    interfaces[last].signals[s].names.append(name)
                    if attributes["direction"] != nil { interfaces[last].signals[s].hasDirection = true }
                } else {
                    let m = interfaces[last].methods.count - 1
                    let direction = attributes["direction"]
                    // A method arg without direction is "in" (the introspection format's default).
                    if direction == "out" { interfaces[last].methods[m].outs.append(type) }
                    else { interfaces[last].methods[m].ins.append(type) }
                    interfaces[last].methods[m].argNames.append(name)
                    interfaces[last].methods[m].directions.append(direction ?? "(none)")
                }
            default:
                problem = "unexpected element <\(element)>"
            }
        }
    }
}
