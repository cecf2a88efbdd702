import CLinux
import Glibc
import ToastRender
import ToastVocabulary

/// The picture helper process (`toastd --picture-helper`): loads and warms up the decoders, confines
/// itself (`Confinement`), then answers the daemon's requests on descriptor 3, one at a time, until
/// the daemon closes it. A broken picture can crash or hang only this process; the daemon drops
/// that picture and starts another helper.
package enum PictureHelper {
    /// The argument that makes `toastd` the helper.
    package static let argument = "--picture-helper"
    /// The descriptor the daemon's socket is passed as.
    package static let socketFD: Int32 = 3
    /// After this much CPU time the helper exits between pictures and the daemon starts a fresh one,
    /// well before RLIMIT_CPU (`Confinement.Limits.cpuSeconds`) could stop it in the middle of one.
    static let cpuSecondsBeforeRestart = 300

    /// Runs the helper; returns its exit status. `arguments` after `argument`: none, or
    /// `--try-open PATH` (confines itself, tries to open PATH, prints what happened: the test that
    /// shows the filter refuses files).
    package static func main(_ arguments: [String]) -> Int32 {
        _ = clinux_set_thread_name("toastd-picture")
        // Nothing but the socket and standard streams, whatever the parent left open by mistake.
        _ = clinux_close_from(UInt32(socketFD + 1))
        // A crash ends the helper at once, with its signal: the Swift runtime's backtracer (which
        // would start a program to symbolicate) is not wanted here.
        for fatal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { signal(fatal, SIG_DFL) }
        warmUp()
        let applied: Confinement.Applied
        do {
            applied = try Confinement.apply()
        } catch {
            report("toastd-picture: cannot confine itself (\(error)); not decoding anything")
            return 70
        }
        if arguments.count == 2, arguments[0] == "--try-open" {
            let fd = open(arguments[1], O_RDONLY | O_CLOEXEC)
            report(fd >= 0 ? "opened \(arguments[1])" : "refused \(arguments[1]): \(String(cString: strerror(errno)))")
            return fd >= 0 ? 1 : 0
        }
        if applied.landlockABI == nil { report("toastd-picture: confined by seccomp (this kernel offers no Landlock)") }
        serve(socket: socketFD)
        return 0
    }

    /// Loads the libraries and lets each decoder run once on a tiny picture, while files may still
    /// be opened: what they load on first use (gdk-pixbuf's format modules, librsvg's and glib's
    /// one-time set-up, fontconfig's configuration) is loaded before the filter refuses it.
    package static func warmUp() {
        let png: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
            8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89, 0, 0, 0, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF,
            0xC0, 0xF0, 0x1F, 0, 0x05, 0, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE,
            0x42, 0x60, 0x82,
        ]
        _ = ImageFile.loadPNG(data: png, fittingIn: 1)
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/><text y="4">a</text></svg>"#
        _ = SVGFile.render(Array(svg.utf8), side: 4)
        PixbufFile.loadAllFormats()
    }

    /// Answers requests until the daemon closes the socket.
    package static func serve(socket socketFD: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            var poll = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, -1) >= 0 || errno == EINTR else { return }
            var fds: [Int32] = [-1, -1, -1, -1]
            var count: Int32 = 0
            let received = buffer.withUnsafeMutableBytes { bytes in
                fds.withUnsafeMutableBufferPointer { clinux_recv_with_fds(socketFD, bytes.baseAddress, bytes.count, $0.baseAddress, 4, &count) }
            }
            if received < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if received <= 0 { return }
            for extra in fds.prefix(Int(count)).dropFirst() { close(extra) }
            let fd = count > 0 ? fds[0] : -1
            defer { if fd >= 0 { close(fd) } }
            guard let request = PictureRequest(decoding: Array(buffer.prefix(received))), fd >= 0 else {
                send(PictureReply(ticket: 0, problem: "a malformed request"), pixels: nil, socket: socketFD)
                continue
            }
            switch PictureDecoder.decode(request, from: fd) {
            case .success(let image):
                send(PictureReply(ticket: request.ticket, width: image.width, height: image.height), pixels: image, socket: socketFD)
            case .failure(let problem):
                send(PictureReply(ticket: request.ticket, problem: problem.description), pixels: nil, socket: socketFD)
            }
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            if usage.ru_utime.tv_sec + usage.ru_stime.tv_sec > cpuSecondsBeforeRestart { return }
        }
    }

    /// Sends a reply, with the pixels in a memfd when there are some.
    static func send(_ reply: PictureReply, pixels: RGBAImage?, socket socketFD: Int32) {
        var reply = reply
        var memfd: Int32 = -1
        if let pixels {
            memfd = SharedPixels.write(pixels.pixels)
            if memfd < 0 { reply = PictureReply(ticket: reply.ticket, problem: "no memory for the pixels") }
        }
        defer { if memfd >= 0 { close(memfd) } }
        let bytes = reply.encoded
        _ = bytes.withUnsafeBytes { buffer in
            memfd >= 0 ? clinux_send_with_fd(socketFD, buffer.baseAddress, buffer.count, memfd)
                : Glibc.send(socketFD, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
        }
    }

    private static func report(_ line: String) {
        let text = line + "\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}

/// Pixels in shared memory: a memfd written by one process and mapped or read by the other, so a
/// picture never goes through the socket.
package enum SharedPixels {
    /// A memfd holding `bytes`, or -1.
    package static func write(_ bytes: [UInt8]) -> Int32 {
        let fd = memfd_create("toastd-picture", CLINUX_MFD_CLOEXEC | CLINUX_MFD_ALLOW_SEALING)
        guard fd >= 0 else { return -1 }
        let written = bytes.withUnsafeBytes { buffer -> Int in
            var done = 0
            while done < buffer.count {
                let count = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return done }
                done += count
            }
            return done
        }
        guard written == bytes.count else {
            close(fd)
            return -1
        }
        return fd
    }

    /// `count` bytes of a memfd another process wrote, read by mapping it; nil when it holds fewer.
    package static func read(_ fd: Int32, count: Int) -> [UInt8]? {
        var info = stat()
        guard count > 0, fstat(fd, &info) == 0, Int(info.st_size) >= count,
              let mapped = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else { return nil }
        defer { munmap(mapped, count) }
        return [UInt8](UnsafeRawBufferPointer(start: mapped, count: count))
    }
}
