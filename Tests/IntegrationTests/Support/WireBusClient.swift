import Foundation

enum WireBusError: Error, CustomStringConvertible {
    case badAddress(String)
    case connect(String)
    case auth(String)
    case timedOut(String)
    case closed

    var description: String {
        switch self {
        case .badAddress(let a): return "cannot use bus address \(a)"
        case .connect(let why): return "cannot connect to the bus: \(why)"
        case .auth(let why): return "bus authentication failed: \(why)"
        case .timedOut(let what): return "no answer to \(what) in time"
        case .closed: return "the bus closed the connection"
        }
    }
}

/// One received D-Bus message, as far as the tests look at it.
struct WireMessage {
    /// 1 method call, 2 method return, 3 error, 4 signal.
    var type: UInt8
    var replySerial: UInt32?
    var errorName: String?
    var member: String?
    var body: [UInt8]

    var isError: Bool { type == 3 }
    /// The body's first value when it is a UINT32 (Notify's reply).
    var firstUInt32: UInt32? {
        body.count >= 4 ? UInt32(body[0]) | UInt32(body[1]) << 8 | UInt32(body[2]) << 16 | UInt32(body[3]) << 24 : nil
    }
}

/// A D-Bus client that speaks the wire protocol itself (little endian, EXTERNAL auth) on one connection
/// that stays open as long as this object lives.
///
/// The shell clients (gdbus, dbus-send) hang up right after their call; a test that needs a caller who
/// stays on the bus (a loading spinner is owned by its caller's connection) or that times many calls
/// on one connection uses this.
final class WireBusClient {
    private let fd: Int32
    private var serial: UInt32 = 0
    private var received: [UInt8] = []
    /// Our unique name, from Hello.
    private(set) var uniqueName = ""

    /// Connects to `address` (`unix:path=…` or `unix:abstract=…`), authenticates and says Hello.
    init(address: String, timeout: Double = 10) throws {
        guard let transport = address.split(separator: ";").first(where: { $0.hasPrefix("unix:") }) else {
            throw WireBusError.badAddress(address)
        }
        var path: String?, abstract: String?
        for pair in transport.dropFirst("unix:".count).split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { continue }
            if kv[0] == "path" { path = kv[1] } else if kv[0] == "abstract" { abstract = kv[1] }
        }
        guard let name = path ?? abstract else { throw WireBusError.badAddress(address) }

        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WireBusError.connect(String(cString: strerror(errno))) }
        var sun = sockaddr_un()
        sun.sun_family = sa_family_t(AF_UNIX)
        let nameBytes = Array(name.utf8)
        let offset = abstract != nil ? 1 : 0  // abstract names start with a NUL byte
        guard nameBytes.count + offset < MemoryLayout.size(ofValue: sun.sun_path) else {
            close(fd)
            throw WireBusError.badAddress(address)
        }
        withUnsafeMutableBytes(of: &sun.sun_path) { raw in
            for (i, b) in nameBytes.enumerated() { raw[i + offset] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + offset + nameBytes.count + (abstract != nil ? 0 : 1))
        let connected = withUnsafePointer(to: &sun) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard connected == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw WireBusError.connect(why)
        }

        do {
            let uid = String(getuid()).utf8.map { String(format: "%02x", $0) }.joined()
            try send([0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8))
            let answer = try readLine(deadline: .after(timeout))
            guard answer.hasPrefix("OK ") else { throw WireBusError.auth(answer) }
            try send(Array("BEGIN\r\n".utf8))
            let hello = try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                 interface: "org.freedesktop.DBus", member: "Hello", timeout: timeout)
            var reader = WireReader(bytes: hello.body)
            uniqueName = reader.string() ?? ""
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Sends a method call and waits for its reply (return or error); signals and other traffic are skipped.
    func call(destination: String, path: String, interface: String, member: String,
              signature: String = "", body: [UInt8] = [], timeout: Double = 10) throws -> WireMessage {
        let serial = try sendCall(destination: destination, path: path, interface: interface, member: member,
                                  signature: signature, body: body)
        let deadline = Deadline.after(timeout)
        while true {
            let message = try readMessage(deadline: deadline)
            if (message.type == 2 || message.type == 3) && message.replySerial == serial { return message }
        }
    }

    /// Sends a method call without waiting; returns its serial.
    @discardableResult
    func sendCall(destination: String, path: String, interface: String, member: String,
                  signature: String = "", body: [UInt8] = []) throws -> UInt32 {
        serial += 1
        var w = WireWriter()
        w.byte(UInt8(ascii: "l")); w.byte(1); w.byte(0); w.byte(1)
        w.uint32(UInt32(body.count)); w.uint32(serial)
        w.array(elementAlignment: 8) { w in
            func field(_ code: UInt8, _ type: String, _ value: (inout WireWriter) -> Void) {
                w.align(8); w.byte(code); w.signature(type); value(&w)
            }
            field(1, "o") { $0.string(path) }
            field(2, "s") { $0.string(interface) }
            field(3, "s") { $0.string(member) }
            field(6, "s") { $0.string(destination) }
            if !signature.isEmpty { field(8, "g") { $0.signature(signature) } }
        }
        w.align(8)
        try send(w.bytes + body)
        return serial
    }

    /// Reads the next whole message.
    func readMessage(deadline: Deadline) throws -> WireMessage {
        while true {
            if received.count >= 16 {
                let fieldsLength = Int(le32(received, 12))
                let headerEnd = (16 + fieldsLength + 7) & ~7
                let total = headerEnd + Int(le32(received, 4))
                if received.count >= total {
                    var message = WireMessage(type: received[1], body: Array(received[headerEnd..<total]))
                    var r = WireReader(bytes: Array(received[0..<(16 + fieldsLength)]), position: 16)
                    while r.position < 16 + fieldsLength {
                        r.align(8)
                        guard let code = r.byte(), let type = r.signature() else { break }
                        switch type {
                        case "u": let v = r.uint32(); if code == 5 { message.replySerial = v }
                        case "s", "o":
                            let v = r.string()
                            if code == 4 { message.errorName = v } else if code == 3 { message.member = v }
                        case "g": _ = r.signature()
                        default: r.position = 16 + fieldsLength  // not a field we read
                        }
                    }
                    received.removeFirst(total)
                    return message
                }
            }
            try fill(deadline: deadline, what: "a D-Bus message")
        }
    }

    private func readLine(deadline: Deadline) throws -> String {
        while true {
            if let end = received.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: received[..<end], as: UTF8.self)
                received.removeFirst(end + 1)
                return line.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            try fill(deadline: deadline, what: "the AUTH answer")
        }
    }

    private func fill(deadline: Deadline, what: String) throws {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, deadline.remainingMilliseconds)
        if ready < 0 && errno == EINTR { return }
        guard ready > 0 else { throw WireBusError.timedOut(what) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = read(fd, &chunk, chunk.count)
        guard n > 0 else { throw WireBusError.closed }
        received.append(contentsOf: chunk[0..<n])
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw WireBusError.closed }
            sent += n
        }
    }
}

private func le32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
}

/// Marshals D-Bus values, little endian; alignment counts from the start of `bytes` (a message or a body,
/// both of which start 8-aligned).
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func align(_ n: Int) { while bytes.count % n != 0 { bytes.append(0) } }
    mutating func byte(_ v: UInt8) { bytes.append(v) }
    mutating func bool(_ v: Bool) { uint32(v ? 1 : 0) }
    mutating func uint32(_ v: UInt32) {
        align(4)
        bytes += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)]
    }
    mutating func int32(_ v: Int32) { uint32(UInt32(bitPattern: v)) }
    mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        uint32(UInt32(utf8.count)); bytes += utf8; bytes.append(0)
    }
    mutating func signature(_ s: String) {
        let utf8 = Array(s.utf8)
        bytes.append(UInt8(utf8.count)); bytes += utf8; bytes.append(0)
    }
    mutating func raw(_ data: [UInt8]) { bytes += data }
    /// An array: length, padding to the elements' alignment (not counted), the elements.
    mutating func array(elementAlignment: Int, _ elements: (inout WireWriter) -> Void) {
        align(4)
        let lengthAt = bytes.count
        uint32(0)
        align(elementAlignment)
        let start = bytes.count
        elements(&self)
        let length = UInt32(bytes.count - start)
        bytes[lengthAt] = UInt8(length & 0xff); bytes[lengthAt + 1] = UInt8(length >> 8 & 0xff)
        bytes[lengthAt + 2] = UInt8(length >> 16 & 0xff); bytes[lengthAt + 3] = UInt8(length >> 24)
    }
}

/// Reads D-Bus values, little endian.
struct WireReader {
    let bytes: [UInt8]
    var position = 0

    mutating func align(_ n: Int) { position = (position + n - 1) / n * n }
    mutating func byte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }
    mutating func uint32() -> UInt32? {
        align(4)
        guard position + 4 <= bytes.count else { return nil }
        defer { position += 4 }
        return le32(bytes, position)
    }
    mutating func string() -> String? {
        guard let n = uint32().map(Int.init), position + n < bytes.count else { return nil }
        defer { position += n + 1 }
        return String(decoding: bytes[position..<(position + n)], as: UTF8.self)
    }
    mutating func signature() -> String? {
        guard let n = byte().map(Int.init), position + n < bytes.count else { return nil }
        defer { position += n + 1 }
        return String(decoding: bytes[position..<(position + n)], as: UTF8.self)
    }
}
