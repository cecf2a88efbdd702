import Foundation

/// Another client of the daemon, asking `version` on its own connection over and over while a test
/// attacks: how long each answer took. The daemon must keep answering it (docs/security.md reports the
/// numbers); a test asserts only that every ping was answered, never how fast (no timed assertions).
final class Pinger: @unchecked Sendable {
    struct Result: CustomStringConvertible {
        var count: Int
        var unanswered: Int
        /// Milliseconds, sorted.
        var latencies: [Double]

        var slowest: Double { latencies.last ?? 0 }
        var median: Double { latencies.isEmpty ? 0 : latencies[latencies.count / 2] }
        var p99: Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, latencies.count * 99 / 100)] }
        var description: String {
            String(format: "%d pings, median %.2f ms, p99 %.2f ms, slowest %.2f ms, %d unanswered",
                   count, median, p99, slowest, unanswered)
        }
    }

    private let lock = NSLock()
    private var stopped = false
    private var latencies: [Double] = []
    private var unanswered = 0
    private let done = DispatchSemaphore(value: 0)

    private let client: UnixClient

    /// Starts pinging the daemon on `socket` from a thread of its own.
    init(socket: String) throws {
        client = try UnixClient(path: socket)
        Thread { [self] in run() }.start()
    }

    private func run() {
        defer { client.close(); done.signal() }
        while !isStopped {
            let start = DispatchTime.now().uptimeNanoseconds
            let reply = try? client.request(#"{"v":1,"request":"version"}"#, timeout: 30)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            lock.withLock {
                if reply?["ok"] as? Bool == true { latencies.append(elapsed) } else { unanswered += 1 }
            }
            if reply == nil { return }
            usleep(2000)  // pacing, ~400 pings a second
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Waits until the first ping was answered (false: it was not, within 10 s).
    func waitForFirstAnswer() -> Bool {
        waitUntil(timeout: 10) { lock.withLock { !latencies.isEmpty } }
    }

    /// Stops pinging and returns what was measured.
    func stop() -> Result {
        lock.withLock { stopped = true }
        done.wait()
        return lock.withLock { Result(count: latencies.count + unanswered, unanswered: unanswered, latencies: latencies.sorted()) }
    }
}
