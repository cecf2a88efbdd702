import Glibc
import Synchronization

/// Runs jobs one at a time, in the order given, on a thread of its own that exists only while there
/// is work: started by the first job, it ends when none is left (nothing waits or wakes at idle).
///
/// For work that must not hold the loop (copying a large picture, waiting for a child's exec); the
/// jobs hand their results back to the loop themselves (a mailbox and an eventfd). A thread of our
/// own rather than libdispatch: its constructor runs at every start of the process, and its queue
/// tables are relocated data the daemon would carry for its life.
package final class SerialWorker: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var running = false
        /// The last thread started, joined before the next starts (or by `finish`): its stack is
        /// given back then.
        var thread: pthread_t?
    }

    private let state = Mutex(State())

    package init() {}

    /// Queues `job`, starting the thread if none is running. Call from one thread (the loop).
    package func async(_ job: @escaping @Sendable () -> Void) {
        let (start, ended) = state.withLock { state -> (Bool, pthread_t?) in
            state.jobs.append(job)
            guard !state.running else { return (false, nil) }
            state.running = true
            defer { state.thread = nil }
            return (true, state.thread)
        }
        guard start else { return }
        // It ran its last job and returns (or has returned): joining it takes no time.
        if let ended { pthread_join(ended, nil) }
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { argument in
            Unmanaged<SerialWorker>.fromOpaque(argument!).takeRetainedValue().drain()
            return nil
        }, retained)
        guard created == 0 else {
            // No thread to be had (the process's limit): the work is done here rather than lost.
            Unmanaged<SerialWorker>.fromOpaque(retained).release()
            return drain()
        }
        state.withLock { $0.thread = thread }
    }

    /// Waits until every job queued so far has run and the thread has ended.
    package func finish() {
        let thread = state.withLock { state in
            defer { state.thread = nil }
            return state.thread
        }
        if let thread { pthread_join(thread, nil) }
    }

    private func drain() {
        while let job = state.withLock({ state -> (@Sendable () -> Void)? in
            guard !state.jobs.isEmpty else {
                state.running = false
                return nil
            }
            return state.jobs.removeFirst()
        }) {
            job()
        }
    }
}
