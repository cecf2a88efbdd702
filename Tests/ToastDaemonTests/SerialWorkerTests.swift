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

    /// The threads of this process (/proc/self/task).
    private func threadCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
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
        let before = try threadCount()
        let worker = SerialWorker()
        let record = Record()
        worker.async { record.order.withLock { $0.append(1) } }
        worker.finish()
        XCTAssertEqual(try threadCount(), before, "the worker's thread outlived its work")
        worker.async { record.order.withLock { $0.append(2) } }
        worker.finish()
        XCTAssertEqual(record.order.withLock { $0 }, [1, 2])
        XCTAssertEqual(try threadCount(), before)
    }
}
