import Foundation

/// Waits until `pid`'s context switches stop moving for half a second: the process sleeps with
/// nothing to do (zero wakeups), or it never settles within `timeout`.
func waitForQuiet(_ pid: pid_t, timeout: Double = 10) -> Bool {
    var last = (try? contextSwitches(of: pid)) ?? -1
    var stableSince = ContinuousClock.now
    return waitUntil(timeout: timeout, interval: 0.05) {
        guard let now = try? contextSwitches(of: pid) else { return false }
        if now != last { last = now; stableSince = ContinuousClock.now }
        return ContinuousClock.now - stableSince >= .milliseconds(500)
    }
}

/// Voluntary plus involuntary context switches of every thread of `pid` (/proc/PID/task/*/status).
func contextSwitches(of pid: pid_t) throws -> Int {
    let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    var total = 0
    for task in tasks {
        let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
            total += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
    }
    return total
}
