import CLinux
import Glibc
import ToastPlatform
import ToastProtocol

/// Value bars fed by a pipe toastd reads itself: `toast hud --stream KIND` hands over its standard
/// input (SCM_RIGHTS), so each value reaches the daemon in one hop, as a line on wob's stdin does,
/// instead of being relayed by the CLI over the socket with a reply per line.
///
/// Each stream belongs to the client that passed it: its bad lines are reported to that client, the
/// end of its input is told to it, and the stream is closed if the client goes away first. Reads are
/// bounded per wakeup (a flood cannot hold the loop), and never wait (`NonBlockingInput`: the client's
/// own descriptor, perhaps its terminal, keeps its flags).
final class HudStreams {
    /// What a stream shows: every value line becomes this bar's value.
    struct Bar {
        var kind: String
        var muted: Bool
        var label: String?
        var icon: String?
    }

    /// What happened on a stream, for its client.
    enum Outcome {
        /// A line that is not a value: its number (from 1) and why.
        case problem(line: Int, message: String)
        /// The input ended (or failed); the stream is closed.
        case ended
    }

    private final class Stream {
        let input: NonBlockingInput
        let bar: Bar
        var splitter = LineSplitter(limit: 1024)
        var lineNumber = 0

        init(input: NonBlockingInput, bar: Bar) {
            self.input = input
            self.bar = bar
        }
    }

    typealias Owner = ControlServer.ClientID

    private let loop: EventLoop
    private var streams: [Owner: Stream] = [:]
    private var readBuffer = [UInt8](repeating: 0, count: 4096)
    /// A value line: show it; a refusal's reason is reported as that line's problem.
    var onValue: (Bar, Int, Bool) -> String? = { _, _, _ in nil }
    /// Tell the stream's client.
    var onOutcome: (Owner, Outcome) -> Void = { _, _ in }

    init(loop: EventLoop) {
        self.loop = loop
    }

    deinit {
        for owner in Array(streams.keys) { stop(owner) }
    }

    /// Starts reading `fd` (now owned here) for `owner`. Fails, closing `fd`, if it cannot be read
    /// without blocking or watched by epoll (a regular file: the CLI then relays the lines itself), or
    /// the client already has a stream.
    func start(fd: Int32, bar: Bar, owner: Owner) -> Bool {
        guard streams[owner] == nil else {
            close(fd)
            return false
        }
        guard let input = NonBlockingInput(taking: fd) else { return false }
        let stream = Stream(input: input, bar: bar)
        do {
            // The stream itself, not its owner to look it up by: no hashing per value. The loop drops this
            // handler when the stream stops (`stop`), before the next batch can call it.
            try loop.add(fd: input.fd, events: EventLoop.readable) { [unowned self] _ in self.readable(stream, of: owner) }
        } catch {
            input.close()
            return false
        }
        streams[owner] = stream
        return true
    }

    func hasStream(of owner: Owner) -> Bool { streams[owner] != nil }

    /// Closes `owner`'s stream, if any (its client left).
    func stop(_ owner: Owner) {
        guard let stream = streams.removeValue(forKey: owner) else { return }
        loop.remove(fd: stream.input.fd)
        stream.input.close()
    }

    private func readable(_ stream: Stream, of owner: Owner) {
        let count = readBuffer.withUnsafeMutableBytes { stream.input.read(into: $0) }
        if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { return }
        if count > 0 {
            readBuffer.withUnsafeBytes { stream.splitter.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            while let item = stream.splitter.next() { take(item, of: stream, owner: owner) }
            return
        }
        // End of input (or an error, which ends it too): the last line may lack its newline.
        if let last = stream.splitter.finish() { take(.line(last), of: stream, owner: owner) }
        stop(owner)
        onOutcome(owner, .ended)
    }

    private func take(_ item: LineSplitter.Item, of stream: Stream, owner: Owner) {
        stream.lineNumber += 1
        switch item {
        case .tooLong:
            onOutcome(owner, .problem(line: stream.lineNumber, message: "longer than \(stream.splitter.limit) bytes"))
        case .line(let bytes):
            switch HudStreamLine.parse(bytes: bytes) {
            case .none: break
            case .failure(let why): onOutcome(owner, .problem(line: stream.lineNumber, message: why))
            case .value(let value, let muted):
                if let refused = onValue(stream.bar, value, stream.bar.muted || muted) {
                    onOutcome(owner, .problem(line: stream.lineNumber, message: refused))
                }
            }
        }
    }
}
