import CWayland

/// The base of every generated interface type: one client-side Wayland object.
///
/// Lifetime rule: the Swift object owns its `wl_proxy`. Its user data points back at the object
/// without retaining it, and `deinit` destroys the client-side proxy, after which libwayland never
/// dispatches to it again; so no event can reach a freed Swift object. Keep a strong reference to
/// every object you want events from (a `WlCallback` too). A destructor request (`destroy()`,
/// `release()`) and a destructor event (`wl_callback.done`) destroy the proxy early and mark the
/// object dead; a request on a dead object is a programming error (precondition). Every proxy keeps
/// its `WaylandDisplay` alive.
public class Proxy {
    /// The `wl_proxy`, nil once the object was destroyed.
    public private(set) var rawProxy: OpaquePointer?
    /// The version this object was bound or created with.
    public let version: UInt32
    /// The connection this object belongs to.
    public let connection: WaylandDisplay
    /// False for the borrowed `wl_display` proxy, which the connection owns.
    private let ownsProxy: Bool

    /// The protocol object id (0 once destroyed).
    public var id: UInt32 { rawProxy.map { wl_proxy_get_id($0) } ?? 0 }

    /// False once a destructor request or event destroyed the object.
    public var isAlive: Bool { rawProxy != nil }

    /// Index of this interface in the generated table (overridden by every generated type).
    class var interfaceIndex: Int { fatalError("Proxy is abstract") }

    /// The `wl_interface` libwayland uses for this type.
    public class var wlInterface: UnsafePointer<wl_interface> { InterfaceTable.shared[interfaceIndex] }

    /// The interface name, as the registry advertises it.
    public class var wlInterfaceName: String { String(cString: wlInterface.pointee.name) }

    /// The highest version the generated code knows.
    public class var wlMaxVersion: UInt32 { UInt32(wlInterface.pointee.version) }

    /// Takes ownership of a proxy libwayland just created and routes its events to this object.
    required init(adopting raw: OpaquePointer, connection: WaylandDisplay, version: UInt32) {
        self.rawProxy = raw
        self.version = version
        self.connection = connection
        self.ownsProxy = true
        // The last argument becomes the proxy's user data: this object, unretained.
        let added = wl_proxy_add_dispatcher(raw, proxyDispatcher, dispatcherMarker,
                                            Unmanaged.passUnretained(self).toOpaque())
        precondition(added == 0, "wl_proxy_add_dispatcher failed")
    }

    /// Wraps a proxy owned elsewhere (the `wl_display`): no dispatcher, never destroyed here.
    init(borrowing raw: OpaquePointer, connection: WaylandDisplay, version: UInt32) {
        self.rawProxy = raw
        self.version = version
        self.connection = connection
        self.ownsProxy = false
    }

    deinit {
        if ownsProxy, let rawProxy { wl_proxy_destroy(rawProxy) }
    }

    /// Decodes one event and hands it to the handler (overridden by every generated type).
    func dispatch(opcode: UInt32, arguments: UnsafeMutablePointer<wl_argument>?) {}

    // MARK: Helpers for generated requests

    /// The live proxy for a request introduced in `since`; traps on misuse, before the wire.
    @inline(__always)
    final func requestTarget(since: UInt32, _ request: StaticString) -> OpaquePointer {
        guard let rawProxy else {
            preconditionFailure("\(Self.wlInterfaceName).\(request) called on a destroyed object")
        }
        precondition(version >= since,
                     "\(Self.wlInterfaceName).\(request) needs version \(since), object has version \(version)")
        return rawProxy
    }

    /// This object's proxy as a non-null request argument.
    final var argumentProxy: OpaquePointer {
        guard let rawProxy else { preconditionFailure("\(Self.wlInterfaceName) object passed to a request after it was destroyed") }
        return rawProxy
    }

    /// Sends a request that creates no object.
    @inline(__always)
    final func marshal(_ raw: OpaquePointer, opcode: UInt32, _ arguments: UnsafeMutablePointer<wl_argument>?,
                       destructor: Bool = false) {
        wl_proxy_marshal_array_flags(raw, opcode, nil, version,
                                     destructor ? UInt32(WL_MARSHAL_FLAG_DESTROY) : 0, arguments)
        if destructor { rawProxy = nil }
    }

    /// Sends a request that creates an object of type `T` and returns it.
    @inline(__always)
    final func marshal<T: Proxy>(_ raw: OpaquePointer, opcode: UInt32, _ arguments: UnsafeMutablePointer<wl_argument>?,
                                 creating type: T.Type, version newVersion: UInt32, destructor: Bool = false) -> T {
        let created = wl_proxy_marshal_array_flags(raw, opcode, T.wlInterface, newVersion,
                                                   destructor ? UInt32(WL_MARSHAL_FLAG_DESTROY) : 0, arguments)
        if destructor { rawProxy = nil }
        guard let created else { fatalError("libwayland could not allocate a \(T.wlInterfaceName) proxy") }
        return T(adopting: created, connection: connection, version: newVersion)
    }

    // MARK: Helpers for generated events

    /// Called after a destructor event was handled: the server destroyed the object.
    final func destroyedByServer() {
        if ownsProxy, let rawProxy { wl_proxy_destroy(rawProxy) }
        rawProxy = nil
    }

    /// The Swift object behind an object argument of an event: nil if null, not ours, or not a `T`.
    @inline(__always)
    final func object<T: Proxy>(_ object: OpaquePointer?, as type: T.Type) -> T? {
        guard let object, wl_proxy_get_listener(object) == UnsafeRawPointer(dispatcherMarker),
              let data = wl_proxy_get_user_data(object) else { return nil }
        return Unmanaged<Proxy>.fromOpaque(data).takeUnretainedValue() as? T
    }

    /// Wraps the proxy libwayland created for a new_id argument of an event.
    @inline(__always)
    final func adopt<T: Proxy>(_ object: OpaquePointer?, as type: T.Type) -> T {
        guard let object else { fatalError("libwayland delivered a null new_id") }
        return T(adopting: object, connection: connection, version: wl_proxy_get_version(object))
    }
}

// MARK: Argument conversions used by generated code

@inline(__always)
func fixedToDouble(_ value: Int32) -> Double { Double(value) / 256 }

@inline(__always)
func doubleToFixed(_ value: Double) -> Int32 { Int32(truncatingIfNeeded: Int64((value * 256).rounded())) }

@inline(__always)
func bytes(of array: UnsafeMutablePointer<wl_array>?) -> [UInt8] {
    guard let array, array.pointee.size > 0, let data = array.pointee.data else { return [] }
    return Array(UnsafeRawBufferPointer(start: data, count: array.pointee.size))
}

@inline(__always)
func string(of pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// Runs `body` with a C string for an optional Swift string (NULL for nil).
@inline(__always)
func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// Runs `body` with a `wl_array` viewing `bytes` (nil for a nil array).
@inline(__always)
func withWLArray<R>(_ bytes: [UInt8]?, _ body: (UnsafeMutablePointer<wl_array>?) -> R) -> R {
    guard let bytes else { return body(nil) }
    return bytes.withUnsafeBytes { buffer in
        var array = wl_array(size: buffer.count, alloc: buffer.count,
                             data: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
        return withUnsafeMutablePointer(to: &array) { body($0) }
    }
}

/// Runs `body` with stack storage for `count` request arguments.
@inline(__always)
func withArguments<R>(_ count: Int, _ body: (UnsafeMutablePointer<wl_argument>) -> R) -> R {
    withUnsafeTemporaryAllocation(of: wl_argument.self, capacity: count) { body($0.baseAddress!) }
}
