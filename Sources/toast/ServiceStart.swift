#if canImport(Glibc)
import Glibc
#endif

/// Starting toastd when nobody answers on the socket: the CLI asks the session bus to start
/// org.freedesktop.Notifications (`StartServiceByName`), the D-Bus activation that notify-send gets for
/// free. So the first `toast hud volume 30` after login starts the daemon instead of failing.
///
/// libsystemd's sd-bus is loaded with dlopen, on this path only: linking it would load it and its
/// libraries (libcap, libgcrypt, lz4, zstd, lzma) on every `toast` start, which is benchmarked.
enum ServiceStart {
    /// What the bus answered.
    enum Outcome: Equatable {
        /// The bus started the service; it owns the name now (and toastd binds its socket before that).
        case started
        /// Someone already owns the name: not a toastd on our socket, or it would have answered.
        case alreadyRunning
        /// No bus, no libsystemd, or no activatable service: why, for the error message.
        case failed(String)
    }

    /// The service toastd's D-Bus activation file names.
    static let serviceName = "org.freedesktop.Notifications"
    /// How long the bus may take to start it: dbus-daemon itself gives up after 25 s, too long for a key.
    static let callTimeoutMicroseconds: UInt64 = 10_000_000

    // sd-bus's C signatures (sd-bus.h), called through dlsym.
    private typealias OpenUser = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias NewMethodCall = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?,
                                                      UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                                      UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    private typealias AppendBasic = @convention(c) (OpaquePointer?, CChar, UnsafeRawPointer?) -> Int32
    private typealias Call = @convention(c) (OpaquePointer?, OpaquePointer?, UInt64, UnsafeMutableRawPointer?,
                                             UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias ReadBasic = @convention(c) (OpaquePointer?, CChar, UnsafeMutableRawPointer?) -> Int32
    private typealias Unref = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias ErrorFree = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Asks the session bus to start the notification service and waits for its answer.
    static func request() -> Outcome {
        guard let library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL) else {
            return .failed("libsystemd is not available to start it")
        }
        defer { dlclose(library) }
        func symbol<T>(_ name: String, _ type: T.Type) -> T? {
            dlsym(library, name).map { unsafeBitCast($0, to: type) }
        }
        guard let openUser = symbol("sd_bus_open_user", OpenUser.self),
              let newMethodCall = symbol("sd_bus_message_new_method_call", NewMethodCall.self),
              let appendBasic = symbol("sd_bus_message_append_basic", AppendBasic.self),
              let call = symbol("sd_bus_call", Call.self),
              let readBasic = symbol("sd_bus_message_read_basic", ReadBasic.self),
              let messageUnref = symbol("sd_bus_message_unref", Unref.self),
              let busClose = symbol("sd_bus_flush_close_unref", Unref.self),
              let errorFree = symbol("sd_bus_error_free", ErrorFree.self) else {
            return .failed("libsystemd lacks sd-bus")
        }
        var bus: OpaquePointer?
        guard openUser(&bus) >= 0, let bus else { return .failed("no D-Bus session bus to start it") }
        defer { _ = busClose(bus) }
        var message: OpaquePointer?
        guard newMethodCall(bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                            "StartServiceByName") >= 0, let message else { return .failed("sd-bus failed") }
        defer { _ = messageUnref(message) }
        var flags: UInt32 = 0
        let appended = serviceName.withCString { appendBasic(message, CChar(UInt8(ascii: "s")), $0) } >= 0
            && appendBasic(message, CChar(UInt8(ascii: "u")), &flags) >= 0
        guard appended else { return .failed("sd-bus failed") }
        // `sd_bus_error` is { const char *name; const char *message; int _need_free; }: three words, zeroed.
        var error = [Int](repeating: 0, count: 3)
        defer { error.withUnsafeMutableBytes { errorFree($0.baseAddress) } }
        var reply: OpaquePointer?
        let called = error.withUnsafeMutableBytes { call(bus, message, callTimeoutMicroseconds, $0.baseAddress, &reply) }
        guard called >= 0, let reply else {
            let why = UnsafePointer<CChar>(bitPattern: error[1]).map { String(cString: $0) } ?? "no answer"
            return .failed("D-Bus could not start \(serviceName): \(why)")
        }
        defer { _ = messageUnref(reply) }
        var answer: UInt32 = 0
        guard readBasic(reply, CChar(UInt8(ascii: "u")), &answer) >= 0 else { return .failed("sd-bus failed") }
        // DBUS_START_REPLY_SUCCESS = 1, DBUS_START_REPLY_ALREADY_RUNNING = 2.
        return answer == 2 ? .alreadyRunning : .started
    }
}
