import Foundation
import XCTest
import ToastDBus

/// A private dbus-daemon with a minimal session config (no <servicedir>: nothing gets activated),
/// for one test. Sets DBUS_SESSION_BUS_ADDRESS in this process so NotificationsBus connects to it.
final class PrivateBus {
    let directory: URL
    let address: String
    private let daemon: Process

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("toastd-dbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory.path)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)

        daemon = Process()
        // setpriv --pdeathsig: the daemon dies with the test process even if a test crashes (an orphan
        // would keep the test runner's pipes open, and `swift test` would hang).
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        daemon.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/dbus-daemon",
                            "--config-file=\(config.path)", "--nofork", "--print-address=1"]
        let out = Pipe()
        daemon.standardOutput = out
        daemon.standardInput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        // The daemon prints its address once it listens.
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else { throw TestError("dbus-daemon printed no address") }
        setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
    }

    /// Stops the daemon (a test of disconnection may call this early).
    func stop() {
        if daemon.isRunning {
            daemon.terminate()
            daemon.waitUntilExit()
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A client subprocess (notify-send, gdbus, dbus-send) on the private bus.
final class Client {
    let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    private var stdoutData = Data()
    private var stderrData = Data()

    init(_ tool: String, _ arguments: [String], bus: PrivateBus) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    var isRunning: Bool { process.isRunning }
    var status: Int32 { process.terminationStatus }

    /// Output, after the process has exited.
    var stdout: String {
        stdoutData += out.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: stdoutData, as: UTF8.self)
    }
    var stderr: String {
        stderrData += err.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: stderrData, as: UTF8.self)
    }

    func kill() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }
}

/// Runs the bus the way the daemon will: poll on its fd until its deadline, then process.
/// Returns when `condition` holds, or false after `timeout` seconds.
@discardableResult
func pump(_ buses: [NotificationsBus], timeout: TimeInterval = 10, until condition: () -> Bool) throws -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while true {
        for bus in buses { try bus.process() }
        if condition() { return true }
        if Date() > end { return false }
        var fds = buses.map { pollfd(fd: $0.fd, events: Int16($0.pollEvents), revents: 0) }
        // Bounded so the condition (often "the client exited") is re-checked.
        var timeout: Int32 = 20
        for bus in buses where bus.timeoutMilliseconds >= 0 { timeout = min(timeout, bus.timeoutMilliseconds) }
        _ = poll(&fds, nfds_t(fds.count), timeout)
    }
}

/// Pumps until the client exits; fails the test if it does not within the timeout.
func waitForExit(_ client: Client, on buses: [NotificationsBus], timeout: TimeInterval = 10,
         file: StaticString = #filePath, line: UInt = #line) throws {
    let exited = try pump(buses, timeout: timeout) { !client.isRunning }
    if !exited {
        client.kill()
        XCTFail("client did not exit in \(timeout) s", file: file, line: line)
    }
}
