import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Finds who owns a bus name: GetNameOwner, GetConnectionUnixProcessID, then /proc/PID/cmdline or comm.
enum NameOwnerLookup {
    static func owner(of name: String, on bus: OpaquePointer) -> NameOwner? {
        guard let unique = callReturningString(bus, "GetNameOwner", argument: name) else { return nil }
        let pid = callReturningUInt32(bus, "GetConnectionUnixProcessID", argument: unique).map { Int32(bitPattern: $0) }
        return NameOwner(uniqueName: unique, pid: pid, command: pid.flatMap(command(ofPid:)),
                         processName: pid.flatMap(processName(ofPid:)))
    }

    /// `/proc/PID/comm`: the name `killall` and `pidof` match.
    static func processName(ofPid pid: Int32) -> String? {
        readSmallFile("/proc/\(pid)/comm").map { String(decoding: $0, as: UTF8.self).trimmingNewline() }
    }

    /// `/proc/PID/cmdline` with NULs as spaces, else `/proc/PID/comm`; nil if neither is readable.
    static func command(ofPid pid: Int32) -> String? {
        if let cmdline = readSmallFile("/proc/\(pid)/cmdline"), !cmdline.isEmpty {
            let words = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.joined(separator: " ")
        }
        if let comm = readSmallFile("/proc/\(pid)/comm") {
            return String(decoding: comm, as: UTF8.self).trimmingNewline()
        }
        return nil
    }

    private static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { return nil }
        return Array(buffer[..<n])
    }

    private static func call(_ bus: OpaquePointer, _ member: String, argument: String) -> OpaquePointer? {
        var m: OpaquePointer? = nil
        guard sd_bus_message_new_method_call(bus, &m, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                             "org.freedesktop.DBus", member) >= 0, let m else { return nil }
        defer { sd_bus_message_unref(m) }
        guard (try? MessageWriter(m: m).string(argument)) != nil else { return nil }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer? = nil
        guard sd_bus_call(bus, m, 0, &error, &reply) >= 0 else { return nil }
        return reply
    }

    private static func callReturningString(_ bus: OpaquePointer, _ member: String, argument: String) -> String? {
        guard let reply = call(bus, member, argument: argument) else { return nil }
        defer { sd_bus_message_unref(reply) }
        return try? MessageReader(m: reply).string()
    }

    private static func callReturningUInt32(_ bus: OpaquePointer, _ member: String, argument: String) -> UInt32? {
        guard let reply = call(bus, member, argument: argument) else { return nil }
        defer { sd_bus_message_unref(reply) }
        return try? MessageReader(m: reply).uint32()
    }
}

extension String {
    fileprivate func trimmingNewline() -> String {
        var s = Substring(self)
        while s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
