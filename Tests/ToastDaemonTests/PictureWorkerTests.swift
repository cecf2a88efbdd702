import CCairo
import Foundation
import Glibc
import ToastPictures
@testable import ToastRender
import ToastVocabulary
import XCTest
@testable import ToastDaemon

/// The picture helper for real: the built toastd started as `--picture-helper`, confined, fed
/// descriptors, killed, stopped.
final class PictureWorkerTests: ScratchDirectoryTestCase {
    private var worker: PictureWorker!
    private var ticket: UInt64 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        worker = try PictureWorker(executable: PictureHelperBinary.path)
    }

    override func tearDown() {
        worker = nil
        super.tearDown()
    }

    private func submit(_ picture: PendingPicture?, file: StaticString = #filePath, line: UInt = #line) {
        guard let picture else { return XCTFail("no picture to submit", file: file, line: line) }
        ticket += 1
        XCTAssertTrue(worker.submit(PictureWorker.Job(id: nil, ticket: ticket, picture: picture)), file: file, line: line)
    }

    /// Waits (poll, with a deadline) until the worker finished something.
    private func finished(file: StaticString = #filePath, line: UInt = #line) -> [PictureWorker.Finished] {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            var descriptor = pollfd(fd: worker.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1000)
            let done = worker.takeFinished()
            if !done.isEmpty { return done }
        }
        XCTFail("the worker finished nothing", file: file, line: line)
        return []
    }

    private func png(_ name: String, width: Int, height: Int, red: Double = 1) throws -> String {
        let canvas = Canvas(width: width, height: height)
        canvas.withContext(scale: 1) { cr in
            cairo_set_source_rgba(cr, red, 0.5, 0, 1)
            cairo_paint(cr)
        }
        let path = directory + "/" + name
        try canvas.writePNG(path: path)
        return path
    }

    private func file(_ path: String, side: Int = 64) -> PendingPicture? {
        try? PendingPicture.file(path, svgSide: side, tint: nil).get()
    }

    /// What /proc says of the running helper.
    private func status(of pid: pid_t) throws -> [String: String] {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        return Dictionary(text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }, uniquingKeysWith: { a, _ in a })
    }

    func testTheHelperRunsConfinedAndDecodes() throws {
        submit(file(try png("icon.png", width: 100, height: 50)))
        let done = finished()
        XCTAssertEqual(done.first.flatMap(\.image).map { [$0.width, $0.height] }, [100, 50], done.first?.problem ?? "")
        let pixel = done.first?.image?.pixels.prefix(4).map { $0 } ?? []
        XCTAssertEqual([pixel.first, pixel.dropFirst(2).first, pixel.last], [255, 0, 255], "orange")
        let pid = try XCTUnwrap(worker.helperPID)
        let fields = try status(of: pid)
        XCTAssertEqual(fields["Seccomp"], "2", "a seccomp filter")
        XCTAssertEqual(fields["NoNewPrivs"], "1")
        XCTAssertEqual(fields["Name"], "toastd-picture")
    }

    /// The same confinement, then an attempt to open /etc/passwd: refused.
    func testTheConfinedHelperCannotOpenAFile() throws {
        let helper = Process()
        helper.executableURL = URL(fileURLWithPath: PictureHelperBinary.path)
        helper.arguments = [PictureHelper.argument, "--try-open", "/etc/passwd"]
        let output = Pipe()
        helper.standardError = output
        try helper.run()
        helper.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(said.contains("refused /etc/passwd: Operation not permitted"), said)
        XCTAssertEqual(helper.terminationStatus, 0)
        XCTAssertNotNil(fopen("/etc/passwd", "r").map { fclose($0) }, "this process can: the helper's refusal is its own")
    }

    /// A helper killed (SIGSEGV, SIGKILL) while it shrinks a 4K picture costs that picture only; the
    /// next picture goes to a new helper.
    func testAHelperThatDiesCostsOnePicture() throws {
        let fourK = RGBAImage(width: 3840, height: 2160, pixels: [UInt8](repeating: 90, count: 3840 * 2160 * 4))
        for signal in [SIGSEGV, SIGKILL] {
            submit(file(try png("warm.png", width: 8, height: 8)))
            XCTAssertNotNil(finished().first?.image, "a warm helper")
            let pid = try XCTUnwrap(worker.helperPID)
            submit(PendingPicture.pixels(fourK))
            kill(pid, signal)
            let dropped = finished()
            XCTAssertTrue(dropped.first?.image == nil, "the picture in flight is dropped")
            XCTAssertTrue(dropped.first?.problem?.contains("picture helper \(pid)") == true, dropped.first?.problem ?? "none")
            submit(file(try png("next.png", width: 20, height: 20)))
            let next = finished()
            XCTAssertEqual(next.first?.image?.width, 20, next.first?.problem ?? "")
            XCTAssertNotEqual(worker.helperPID, pid, "a new helper")
        }
    }

    /// `image-data` left in its message (RGB, padded rows) is copied into a memfd off the loop, then shrunk by the helper.
    func testReceivedImageDataIsCopiedOffTheLoopAndShrunk() throws {
        final class Message {
            let bytes: UnsafeMutableRawBufferPointer
            init(count: Int) {
                bytes = .allocate(byteCount: count, alignment: 8)
                bytes.initializeMemory(as: UInt8.self, repeating: 0)
            }
            deinit { bytes.deallocate() }
        }
        let (width, height, rowstride) = (1000, 500, 3004)
        let message = Message(count: rowstride * height)
        for y in 0..<height {
            for x in 0..<width { message.bytes[y * rowstride + x * 3] = 255 }
        }
        let image = ReceivedImage(width: width, height: height, rowstride: rowstride, channels: 3,
                                  bytes: UnsafeRawBufferPointer(message.bytes), owner: message)
        let picture = try XCTUnwrap(PendingPicture.pixels(image))
        XCTAssertNotNil(picture.unfilled, "copied later, not on the loop")
        submit(picture)
        let done = finished()
        XCTAssertEqual(done.first?.image.map { [$0.width, $0.height] }, [256, 128], done.first?.problem ?? "")
        XCTAssertEqual(done.first?.image?.pixels.prefix(4).map { $0 }, [255, 0, 0, 255])
        XCTAssertNil(picture.unfilled, "the message let go of once copied")
    }

    /// A helper that stops answering (stopped: SIGSTOP) is killed at the deadline; the picture is dropped.
    func testAHelperPastTheDeadlineIsReplaced() throws {
        submit(file(try png("warm.png", width: 8, height: 8)))
        XCTAssertNotNil(finished().first?.image)
        let pid = try XCTUnwrap(worker.helperPID)
        kill(pid, SIGSTOP)
        submit(file(try png("late.png", width: 8, height: 8)))
        let late = finished()
        XCTAssertTrue(late.first?.image == nil)
        XCTAssertTrue(late.first?.problem?.contains("took longer than") == true, late.first?.problem ?? "none")
        submit(file(try png("after.png", width: 8, height: 8)))
        XCTAssertNotNil(finished().first?.image)
    }

    /// An SVG including /etc/passwd as text draws the same pixels as without the include; the same
    /// text written in the file does show (so an include that worked would be seen).
    func testAnSVGIncludeReachesNoFile() throws {
        func svg(_ text: String) throws -> String {
            let path = directory + "/\(UUID().uuidString.prefix(6)).svg"
            let body = #"""
                <svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude" width="256" height="64">
                <rect width="256" height="64" fill="white"/>
                <text x="2" y="40" font-size="30" fill="black">\#(text)</text></svg>
                """#
            try Data(body.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        var images: [RGBAImage?] = []
        for text in [#"<xi:include href="/etc/passwd" parse="text"/>"#, "", "root:x:0:0"] {
            submit(file(try svg(text), side: 256))
            images.append(finished().first?.image)
        }
        XCTAssertNotNil(images[0])
        XCTAssertTrue(images[0] == images[1], "nothing of /etc/passwd drawn")
        XCTAssertTrue(images[2] != images[1], "text is drawn when it is in the file")
    }

    /// A FIFO (or a name flipped to one) is refused on the descriptor, at once: nothing waits for a writer.
    func testAFIFOIsRefusedWithoutWaiting() throws {
        let fifo = directory + "/fifo.png"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(PendingPicture.file(fifo, svgSide: 48, tint: nil).map(\.bytes), .failure(.notAFile))
        let link = directory + "/link.png"
        XCTAssertEqual(symlink(fifo, link), 0)
        XCTAssertEqual(PendingPicture.file(link, svgSide: 48, tint: nil).map(\.bytes), .failure(.notAFile))
        XCTAssertEqual(PendingPicture.file(directory, svgSide: 48, tint: nil).map(\.bytes), .failure(.notAFile))
    }

    /// Pictures waiting are bounded in bytes: past `maxPendingBytes`, a picture is refused (and its
    /// toast shows without it); once the helper took them, there is room again.
    func testPicturesWaitingAreBoundedInBytes() throws {
        let side = 2048
        let sixteen = RGBAImage(width: side, height: side, pixels: [UInt8](repeating: 7, count: side * side * 4))
        var accepted = 0, refused = 0
        for _ in 0..<(PictureLimits.maxPendingBytes / sixteen.pixels.count + 3) {
            guard let picture = PendingPicture.pixels(sixteen) else { return XCTFail("no memfd") }
            ticket += 1
            if worker.submit(PictureWorker.Job(id: nil, ticket: ticket, picture: picture)) { accepted += 1 } else { refused += 1 }
            XCTAssertLessThanOrEqual(worker.pendingBytes, PictureLimits.maxPendingBytes)
        }
        XCTAssertEqual(accepted, PictureLimits.maxPendingBytes / sixteen.pixels.count)
        XCTAssertEqual(refused, 3)
        var decoded = 0
        while decoded < accepted {
            decoded += finished().filter { $0.image?.width == 256 }.count
        }
        XCTAssertEqual(worker.pendingBytes, 0)
        submit(PendingPicture.pixels(sixteen))
    }
}
