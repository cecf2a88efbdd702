// The shape of a D-Bus interface, as one declaration that dispatch, the signature check and the
// introspection XML all read. The interfaces themselves are declared in Interfaces.swift.

/// One argument of a method or signal: its name (shown by introspection only) and its D-Bus type,
/// a single complete type such as `s`, `as` or `a{sv}`.
struct BusArg: Equatable, Sendable {
    let name: String
    let type: String
}

/// One incoming method call, as a handler sees it.
struct BusCall {
    /// The sd-bus message; its signature has been checked against the method's in-args.
    let message: OpaquePointer
    /// The object path it was sent to.
    let path: String
    /// The caller's unique bus name (empty if the bus did not say).
    let sender: String

    /// Reads the in-args in declaration order.
    var reader: MessageReader { MessageReader(m: message) }
}

/// What a handler answers: it appends the out-args, in declaration order, to the method return.
struct BusReply {
    let fill: (MessageWriter) throws(MessageError) -> Void

    /// A method return without arguments.
    static var empty: BusReply { BusReply { _ throws(MessageError) in } }
}

/// A method: its arguments and the code that answers it.
struct BusMethod: Sendable {
    /// Reads the in-args from `call`, acts (usually through the bus's delegate) and says what to reply.
    /// Throws `MessageError` (sent as InvalidArgs) or `BusError` (`.refused` keeps its error name).
    typealias Handler = @Sendable (NotificationsBus, BusCall) throws -> BusReply

    let name: String
    let inArgs: [BusArg]
    let outArgs: [BusArg]
    /// Nil when sd-bus answers the method itself, before our object callback runs (the Peer
    /// interface): it is then introspected but never dispatched by us.
    let handler: Handler?

    /// The input signature a call must carry: the in-arg types in order (joined once, not per call).
    let signature: String

    /// Arguments are written `["name": "type", …]`: a literal that keeps their order.
    init(_ name: String, in inArgs: KeyValuePairs<String, String> = [:], out outArgs: KeyValuePairs<String, String> = [:],
         handler: Handler?) {
        self.name = name
        self.inArgs = inArgs.map { BusArg(name: $0.key, type: $0.value) }
        self.outArgs = outArgs.map { BusArg(name: $0.key, type: $0.value) }
        self.handler = handler
        signature = self.inArgs.map(\.type).joined()
    }
}

/// A signal we may emit; declared for introspection.
struct BusSignal: Sendable {
    let name: String
    let args: [BusArg]

    init(_ name: String, _ args: KeyValuePairs<String, String> = [:]) {
        self.name = name
        self.args = args.map { BusArg(name: $0.key, type: $0.value) }
    }
}

/// A property, read (and written) through org.freedesktop.DBus.Properties.
struct BusProperty: Sendable {
    typealias Getter = @Sendable (NotificationsBus) throws -> OutValue
    typealias Setter = @Sendable (NotificationsBus, BusValue) throws -> Void

    let name: String
    let type: String
    let get: Getter
    /// Nil for a read-only property.
    let set: Setter?

    init(_ name: String, type: String, get: @escaping Getter, set: Setter? = nil) {
        self.name = name
        self.type = type
        self.get = get
        self.set = set
    }
}

/// An interface: a name, its methods, its signals and its properties.
struct BusInterface: Sendable {
    let name: String
    let methods: [BusMethod]
    let signals: [BusSignal]
    let properties: [BusProperty]

    init(_ name: String, methods: [BusMethod], signals: [BusSignal] = [], properties: [BusProperty] = []) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }
}

/// An exported object: the interfaces served at its path, in introspection order.
struct BusObject: Sendable {
    let path: String
    let interfaces: [BusInterface]

    /// The object at `path`. Only our paths are registered with sd-bus, so anything that is neither
    /// the Hud path nor mako's is the Notifications object.
    static func at(_ path: String) -> BusObject {
        switch path {
        case NotificationsBus.hudPath: .hud
        case MakoControl.path: .mako
        default: .notifications
        }
    }

    enum ResolveError: Error, Equatable { case unknownInterface, unknownMethod }

    /// The method a call names; `interface` may be absent (D-Bus allows it), then the member decides,
    /// searching the interfaces in order. Methods sd-bus answers itself are not found here.
    static func resolve(path: String, interface: String?, member: String) -> Result<BusMethod, ResolveError> {
        // Loops, not filtered arrays: this runs for every call (each Notify), and the arrays copied
        // every method of the object.
        var interfaceServed = interface == nil
        for served in at(path).interfaces where interface == nil || served.name == interface {
            interfaceServed = true
            if let method = served.methods.first(where: { $0.name == member && $0.handler != nil }) {
                return .success(method)
            }
        }
        return .failure(interfaceServed ? .unknownMethod : .unknownInterface)
    }
}
