import CWayland

// One non-capturing dispatcher serves every proxy: libwayland hands it the proxy and the decoded
// wl_argument array; it finds the Swift object through the proxy's user data (set, unretained, in
// Proxy.init) and lets the generated subclass turn the arguments into its Event enum.

/// Marks proxies whose user data is a Swift `Proxy`: the `implementation` pointer we pass to
/// `wl_proxy_add_dispatcher` (and `wl_proxy_get_listener` returns). Any stable, never-freed address
/// unique to us will do; the interface table is one.
var dispatcherMarker: UnsafeRawPointer { UnsafeRawPointer(InterfaceTable.shared.interfaces) }

/// The C dispatcher. It must capture nothing: state arrives through the proxy's user data.
func proxyDispatcher(_ implementation: UnsafeRawPointer?, _ target: UnsafeMutableRawPointer?, _ opcode: UInt32,
                     _ message: UnsafePointer<wl_message>?, _ arguments: UnsafeMutablePointer<wl_argument>?) -> Int32 {
    guard let target, let data = wl_proxy_get_user_data(OpaquePointer(target)) else { return 0 }
    // A strong reference for the duration of the call: a handler that drops the last other
    // reference cannot free the object under its own dispatch.
    let proxy = Unmanaged<Proxy>.fromOpaque(data).takeUnretainedValue()
    proxy.dispatch(opcode: opcode, arguments: arguments)
    return 0
}
