import CLinux
import Glibc
import Synchronization
import ToastCore
import ToastPictures
import ToastPlatform
import ToastRender
import ToastVocabulary

/// Has pictures decoded by the picture helper, a confined process (`PictureHelper`, `Confinement`),
/// one at a time, in order, without the loop ever waiting for it: requests and replies go over a
/// non-blocking socket the loop watches, pixels come back in a memfd. The helper is started at the
/// first picture and kept.
///
/// A helper that dies (a crashing decoder, a limit hit), sends nonsense or takes longer than
/// `deadline` over one picture is killed; that picture is finished without pixels (its toast shows
/// without it) and the next one goes to a new helper, started after `backoff` (doubling up to
/// `maxBackoff` while helpers keep failing, back to the first after a picture decodes).
///
/// `fd` is an epoll descriptor of the worker's own (the helper's socket and the worker's timer): the
/// loop watches that one, which stays the same across helpers, and calls `takeFinished` when it is readable.
final class PictureWorker {
    /// One picture to make, for notification `id` (nil: a HUD icon, kept in the cache only) as it
    /// was when `ticket` was handed out.
    struct Job {
        var id: NotificationID?
        var ticket: UInt64
        var picture: PendingPicture
    }

    /// A finished job; `image` is nil when no picture came, and `problem` says why.
    struct Finished {
        var id: NotificationID?
        var ticket: UInt64
        var image: RGBAImage?
        var problem: String?
        var cacheKey: PictureCache.Key?
    }

    /// How long one picture may take in the helper (the largest allowed take ~0.3 s in a release build, seconds in a debug one).
    static let deadline: Milliseconds = 10_000
    /// What a new helper's first picture may take besides: loading and warming up the libraries
    /// (fontconfig's first scan of the fonts can take seconds).
    static let startAllowance: Milliseconds = 10_000
    static let backoff: Milliseconds = 100
    static let maxBackoff: Milliseconds = 10_000

    /// Readable when something happened: a reply, the helper gone, the deadline or a restart due,
    /// `image-data` copied.
    let fd: Int32
    private let timer: Int32
    /// Written by the copying thread when it copied a message's pixels into their memfd.
    private let copied: Int32
    private let copier = SerialWorker()
    /// The tickets whose pixels were copied (true) or could not be (false), for the loop to take.
    private let copiedTickets = CopiedTickets()

    private final class CopiedTickets: Sendable {
        let tickets = Mutex<[(UInt64, Bool)]>([])
        /// A helper the copier started (posix_spawn waits for the child's exec, which on a busy
        /// machine held the loop for tens of milliseconds).
        let started = Mutex<Result<PictureHelperProcess, PictureHelperProcess.StartError>?>(nil)
    }
    /// Whether the copier is starting a helper.
    private var starting = false

    /// The address of bytes a message on the loop keeps alive while the copier reads them.
    private struct Borrowed: @unchecked Sendable {
        let base: UnsafeRawPointer
    }
    private let executable: String
    private var helper: PictureHelperProcess? {
        didSet { if oldValue?.socket != helper?.socket { helperAnswered = false } }
    }
    /// Whether the running helper has answered once (it is warmed up).
    private var helperAnswered = false
    private var queue: [Job] = []
    private var inFlight: (job: Job, due: Int64)?
    private var finished: [Finished] = []
    private var restartAt: Int64?
    private var nextBackoff = PictureWorker.backoff
    /// Helpers killed and not reaped yet.
    private var dying: [pid_t] = []
    /// Bytes of the jobs queued and in flight, against `PictureLimits.maxPendingBytes`.
    private(set) var pendingBytes = 0
    /// The pid of the running helper, if any (tests and `toast status` look at it).
    var helperPID: pid_t? { helper?.pid }

    /// `executable` is what is started as the helper: the daemon's own binary.
    init(executable: String = "/proc/self/exe") throws(SystemError) {
        self.executable = executable
        fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        if fd < 0 { throw SystemError("epoll_create1") }
        timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        if timer < 0 { throw SystemError("timerfd_create") }
        copied = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        if copied < 0 { throw SystemError("eventfd") }
        watch(timer)
        watch(copied)
    }

    deinit {
        stopHelper()
        // The copier may still read a message's bytes: it finishes first.
        copier.finish()
        close(copied)
        close(timer)
        close(fd)
    }

    /// Queues `job`; false (and nothing queued) when the bytes it holds would pass the bound.
    func submit(_ job: Job) -> Bool {
        guard pendingBytes + job.picture.bytes <= PictureLimits.maxPendingBytes else { return false }
        pendingBytes += job.picture.bytes
        queue.append(job)
        if let image = job.picture.unfilled {
            let (fd, ticket, count, tickets, copied) = (job.picture.fd, job.ticket, job.picture.bytes, copiedTickets, self.copied)
            let borrowed = Borrowed(base: image.bytes.baseAddress!)
            copier.async {
                let filled = PendingPicture.fill(fd, from: borrowed.base, count: count)
                tickets.tickets.withLock { $0.append((ticket, filled)) }
                var one: UInt64 = 1
                _ = write(copied, &one, 8)
            }
        }
        sendNext()
        return true
    }

    /// Takes the copies the copier finished: their messages are let go of here, on the loop.
    private func takeCopies() {
        var count: UInt64 = 0
        _ = read(copied, &count, 8)
        for (ticket, filled) in copiedTickets.tickets.withLock({ tickets in defer { tickets = [] }; return tickets }) {
            guard let index = queue.firstIndex(where: { $0.ticket == ticket }) else { continue }
            queue[index].picture.unfilled = nil
            if !filled { finish(queue.remove(at: index), image: nil, problem: "its pixels could not be copied") }
        }
    }

    /// Handles what happened and returns the jobs finished since the last call, in the order they were submitted.
    func takeFinished() -> [Finished] {
        var expirations: UInt64 = 0
        _ = read(timer, &expirations, 8)
        takeCopies()
        reap()
        if helper != nil { readReplies() }
        if let inFlight, MonotonicClock.nanoseconds() >= inFlight.due {
            fail(helperAnswered ? "took longer than \(Self.deadline) ms over one picture" : "did not start in time")
        }
        sendNext()
        defer { finished = [] }
        return finished
    }

    /// Whether nothing is queued or being decoded.
    var isIdle: Bool { queue.isEmpty && inFlight == nil && finished.isEmpty }

    private func readReplies() {
        guard let helper else { return }
        var buffer = [UInt8](repeating: 0, count: PictureReply.maxBytes)
        while helper.socket == self.helper?.socket {
            var fds: [Int32] = [-1, -1]
            var count: Int32 = 0
            let received = buffer.withUnsafeMutableBytes { bytes in
                fds.withUnsafeMutableBufferPointer { clinux_recv_with_fds(helper.socket, bytes.baseAddress, bytes.count, $0.baseAddress, 2, &count) }
            }
            let pixelsFD = count > 0 ? fds[0] : -1
            defer { for extra in fds.prefix(Int(count)) { close(extra) } }
            if received < 0 && errno == EAGAIN { return }
            if received < 0 && errno == EINTR { continue }
            guard received > 0 else { return fail("stopped\(exitDescription())") }
            guard let reply = PictureReply(decoding: Array(buffer.prefix(received))), let inFlight,
                  reply.ticket == inFlight.job.ticket else { return fail("sent an answer to no question") }
            helperAnswered = true
            var image: RGBAImage?
            if reply.problem == nil {
                guard pixelsFD >= 0, reply.width > 0, reply.height > 0,
                      let pixels = SharedPixels.read(pixelsFD, count: reply.width * reply.height * 4) else {
                    return fail("sent no pixels")
                }
                image = RGBAImage(width: reply.width, height: reply.height, pixels: pixels)
                nextBackoff = Self.backoff
            }
            finish(inFlight.job, image: image, problem: reply.problem)
            sendNext()
        }
    }

    /// Sends the next job when none is in flight, starting a helper if there is none (and no restart is being waited for).
    private func sendNext() {
        guard inFlight == nil, let next = queue.first, next.picture.unfilled == nil else { return }
        if helper == nil {
            let result = copiedTickets.started.withLock { started in defer { started = nil }; return started }
            guard let result else {
                if starting { return }
                if let restartAt, MonotonicClock.nanoseconds() < restartAt { return arm(at: restartAt) }
                restartAt = nil
                starting = true
                let (executable, mailbox, copied) = (executable, copiedTickets, self.copied)
                copier.async {
                    let result = PictureHelperProcess.start(executable: executable)
                    mailbox.started.withLock { $0 = result }
                    var one: UInt64 = 1
                    _ = write(copied, &one, 8)
                }
                return
            }
            starting = false
            switch result {
            case .success(let started):
                helper = started
                watch(started.socket)
            case .failure(let error):
                Log.warning("picture helper: \(error); showing the queued pictures without them")
                // Not those whose pixels the copier is still reading: their messages stay until it is done.
                for job in queue where job.picture.unfilled == nil { finish(job, image: nil, problem: "\(error)") }
                queue.removeAll { $0.picture.unfilled == nil }
                restartAt = MonotonicClock.nanoseconds() + Self.maxBackoff * 1_000_000
                return
            }
        }
        guard let helper else { return }
        let job = queue.removeFirst()
        var request = job.picture.request
        request.ticket = job.ticket
        let bytes = request.encoded
        let sent = bytes.withUnsafeBytes { clinux_send_with_fd(helper.socket, $0.baseAddress, $0.count, job.picture.fd) }
        let due = MonotonicClock.nanoseconds() + (Self.deadline + (helperAnswered ? 0 : Self.startAllowance)) * 1_000_000
        inFlight = (job, due)
        // A datagram to a live helper that reads one at a time never fills its buffer: a failed send
        // is a helper gone.
        if sent != bytes.count { return fail("could not be written to") }
        arm(at: due)
    }

    /// The helper failed the picture in flight: that picture is finished without pixels, the
    /// helper killed, and the next one started after the backoff.
    private func fail(_ what: String) {
        let pid = helper?.pid.map { " \($0)" } ?? ""
        if let inFlight { finish(inFlight.job, image: nil, problem: "the picture helper\(pid) \(what); it is restarted") }
        stopHelper()
        restartAt = MonotonicClock.nanoseconds() + nextBackoff * 1_000_000
        nextBackoff = min(nextBackoff * 2, Self.maxBackoff)
        if !queue.isEmpty, let restartAt { arm(at: restartAt) }
    }

    private func finish(_ job: Job, image: RGBAImage?, problem: String?) {
        if inFlight?.job.ticket == job.ticket, inFlight?.job.picture === job.picture { inFlight = nil }
        pendingBytes -= job.picture.bytes
        finished.append(Finished(id: job.id, ticket: job.ticket, image: image, problem: problem, cacheKey: job.picture.cacheKey))
    }

    private func stopHelper() {
        guard let helper else { return }
        epoll_ctl(fd, EPOLL_CTL_DEL, helper.socket, nil)
        close(helper.socket)
        if let pid = helper.pid, !helper.reaped {
            kill(pid, SIGKILL)
            dying.append(pid)
        }
        self.helper = nil
        reap()
    }

    /// Reaps killed helpers that have exited (only this worker's own pids).
    func reap() {
        dying.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) != 0
        }
    }

    /// How the helper ended, when it already has: ", killed by signal 11".
    private func exitDescription() -> String {
        guard let pid = helper?.pid else { return "" }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return "" }
        self.helper?.reaped = true
        let signal = status & 0x7f
        return signal != 0 ? " (killed by signal \(signal))" : " (exit status \((status >> 8) & 0xff))"
    }

    private func watch(_ descriptor: Int32) {
        var event = epoll_event(events: UInt32(EPOLLIN.rawValue), data: epoll_data_t(fd: descriptor))
        epoll_ctl(fd, EPOLL_CTL_ADD, descriptor, &event)
    }

    /// Arms the timer for `due` (monotonic nanoseconds).
    private func arm(at due: Int64) {
        let nanoseconds = max(1, due - MonotonicClock.nanoseconds())
        var spec = itimerspec(it_interval: timespec(),
                              it_value: timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)))
        timerfd_settime(timer, 0, &spec, nil)
    }
}
