import Foundation
import Glibc
import Synchronization
@testable import ToastPlatform
import XCTest

/// The picture copier's thread: jobs in order, off the calling thread, and no thread left at idle.
final class SerialWorkerTests: XCTestCase {
    private final class Record: Sendable {
        let order = Mutex<[Int]>([])
        let threads = Mutex<Set<UInt>>([])
    }

    /// The calling thread's kernel id, from /proc/thread-self ("PID/task/TID"; Glibc's module declares
    /// no gettid).
    private static func threadID() -> Int32 {
        var link = [UInt8](repeating: 0, count: 64)
        let count = link.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { readlink("/proc/thread-self", $0.baseAddress!, $0.count) }
        }
        precondition(count > 0, "readlink /proc/thread-self")
        return Int32(String(decoding: link[..<count], as: UTF8.self).split(separator: "/").last!)!
    }

    /// Whether the thread with kernel id `tid` still exists in this process.
    private func threadExists(_ tid: Int32) -> Bool {
        access("/proc/self/task/\(tid)", F_OK) == 0
    }

    func testJobsRunInOrderOffTheCallersThreadAndFinishWaitsForThem() throws {
        let worker = SerialWorker()
        let record = Record()
        let caller = UInt(pthread_self())
        for i in 0..<200 {
            worker.async {
                if i == 0 { usleep(20_000) }  // the queue fills while the first job runs
                record.order.withLock { $0.append(i) }
                record.threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            }
        }
        worker.finish()
        XCTAssertEqual(record.order.withLock { $0 }, Array(0..<200))
        XCTAssertFalse(record.threads.withLock { $0 }.contains(caller), "a job ran on the caller's thread")
    }

    func testTheThreadEndsWhenTheQueueIsEmptyAndAnotherStartsForTheNextJob() throws {
        let worker = SerialWorker()
        let tids = Mutex<[Int32]>([])
        worker.async { tids.withLock { $0.append(Self.threadID()) } }
        worker.finish()
        worker.async { tids.withLock { $0.append(Self.threadID()) } }
        worker.finish()
        let ran = tids.withLock { $0 }
        XCTAssertEqual(ran.count, 2)
        for tid in ran {
            XCTAssertNotEqual(tid, Self.threadID(), "a job ran on the caller's thread")
            XCTAssertFalse(threadExists(tid), "the worker's thread \(tid) outlived its work")
        }
    }
}
