#if canImport(Glibc)
import Glibc
#endif

/// The session bus as the CLI reaches it: a few calls to the bus daemon itself, through libsystemd's
/// sd-bus loaded with dlopen on this path only. Linking it would load it and its libraries (libcap,
/// libgcrypt, lz4, zstd, lzma) on every `toast` start, which is benchmarked.
final class UserBus {
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

    /// An argument of a call.
    enum Argument {
        case string(String)
        case uint32(UInt32)
    }

    private let library: UnsafeMutableRawPointer
    private let bus: OpaquePointer
    private let newMethodCall: NewMethodCall
    private let appendBasic: AppendBasic
    private let call: Call
    private let readBasic: ReadBasic
    private let messageUnref: Unref
    private let busClose: Unref
    private let errorFree: ErrorFree

    /// Connects to the session bus; the error says why not, for a message.
    static func open() -> Result<UserBus, Failure> {
        guard let library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(Failure("libsystemd is not available"))
        }
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
            dlclose(library)
            return .failure(Failure("libsystemd lacks sd-bus"))
        }
        var bus: OpaquePointer?
        guard openUser(&bus) >= 0, let bus else {
            dlclose(library)
            return .failure(Failure("no D-Bus session bus"))
        }
        return .success(UserBus(library: library, bus: bus, newMethodCall: newMethodCall, appendBasic: appendBasic,
                                call: call, readBasic: readBasic, messageUnref: messageUnref, busClose: busClose,
                                errorFree: errorFree))
    }

    private init(library: UnsafeMutableRawPointer, bus: OpaquePointer, newMethodCall: NewMethodCall,
                 appendBasic: AppendBasic, call: Call, readBasic: ReadBasic, messageUnref: Unref, busClose: Unref,
                 errorFree: ErrorFree) {
        self.library = library
        self.bus = bus
        self.newMethodCall = newMethodCall
        self.appendBasic = appendBasic
        self.call = call
        self.readBasic = readBasic
        self.messageUnref = messageUnref
        self.busClose = busClose
        self.errorFree = errorFree
    }

    deinit {
        _ = busClose(bus)
        dlclose(library)
    }

    /// Why a call failed: the bus's error message, or what went wrong before.
    struct Failure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// A reply's first argument.
    enum Answer {
        case none
        case string(String)
        case uint32(UInt32)
    }

    /// Calls `member` of org.freedesktop.DBus with `arguments`, waiting up to `timeout` µs; reads the
    /// reply's first argument as `answer` says (`s`, `u`, or nothing).
    func callBus(_ member: String, _ arguments: [Argument], answer: Character? = nil,
                 timeout: UInt64 = 0) -> Result<Answer, Failure> {
        var message: OpaquePointer?
        guard newMethodCall(bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                            member) >= 0, let message else { return .failure(Failure("sd-bus failed")) }
        defer { _ = messageUnref(message) }
        for argument in arguments {
            let appended = switch argument {
            case .string(let text): text.withCString { appendBasic(message, Self.code("s"), $0) }
            case .uint32(var number): appendBasic(message, Self.code("u"), &number)
            }
            guard appended >= 0 else { return .failure(Failure("sd-bus failed")) }
        }
        // `sd_bus_error` is { const char *name; const char *message; int _need_free; }: three words, zeroed.
        var error = [Int](repeating: 0, count: 3)
        defer { error.withUnsafeMutableBytes { errorFree($0.baseAddress) } }
        var reply: OpaquePointer?
        let called = error.withUnsafeMutableBytes { call(bus, message, timeout, $0.baseAddress, &reply) }
        guard called >= 0, let reply else {
            let why = UnsafePointer<CChar>(bitPattern: error[1]).map { String(cString: $0) }
                ?? String(cString: strerror(-called))
            return .failure(Failure(why))
        }
        defer { _ = messageUnref(reply) }
        switch answer {
        case "s":
            var text: UnsafePointer<CChar>?
            guard readBasic(reply, Self.code("s"), &text) >= 0, let text else { return .failure(Failure("sd-bus failed")) }
            return .success(.string(String(cString: text)))
        case "u":
            var number: UInt32 = 0
            guard readBasic(reply, Self.code("u"), &number) >= 0 else { return .failure(Failure("sd-bus failed")) }
            return .success(.uint32(number))
        default:
            return .success(.none)
        }
    }

    private static func code(_ c: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: c)) }
}
