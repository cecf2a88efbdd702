import Foundation
import XCTest

/// The ToastClient library, through its example program (Examples/ToastClientExample): a toast, a value
/// bar and a spinner it holds until its standard input ends, shown by the toastd on the stage.
final class ToastClientTests: XCTestCase {
    private func status(_ toastd: ToastdProcess) throws -> [String: Any] {
        let result = try toastd.toast(["status", "--json"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        return try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    }

    func testTheExampleShowsAToastAndHoldsASpinnerUntilItStops() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let fifo = "\(stage.directory)/client-\(UUID().uuidString.prefix(8)).fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        // The example's stdin ends when the test writes a line to the FIFO.
        let example = try stage.spawn(["sh", "-c", "(read line < \(fifo)) | \(try stage.binary("ToastClientExample"))"],
                                      environment: ["TOASTD_SOCKET": toastd.socketPath])
        let idLine = try XCTUnwrap(example.waitForLine(startingWith: "toast "), "\(example.lines) \(example.stderrText)")
        XCTAssertNotNil(example.waitForLine(startingWith: "syncing"), "\(example.lines) \(example.stderrText)")

        let listed = try JSONSerialization.jsonObject(with: try toastd.toast(["list", "--json"]).stdout) as? [[String: Any]]
        XCTAssertEqual(listed?.map { $0["summary"] as? String }, ["Saved"])
        // Sent under the program's name, not as "toast".
        XCTAssertEqual(listed?.first?["app_name"] as? String, "ToastClientExample", "\(listed ?? [])")
        XCTAssertEqual(listed?.first.flatMap { $0["id"] as? Int }.map { "toast \($0)" }, idLine)
        XCTAssertEqual(try status(toastd)["loading"] as? Int, 1, "the spinner is held")
        let shot = try stage.waitForScreenshot { !$0.isUniform(stage.background) }
        XCTAssertTrue(shot.held, "nothing drawn")

        let writer = open(fifo, O_WRONLY)
        XCTAssertGreaterThanOrEqual(writer, 0)
        _ = "go\n".withCString { write(writer, $0, 3) }
        close(writer)
        XCTAssertNotNil(example.waitForLine(startingWith: "done"), "\(example.lines) \(example.stderrText)")
        XCTAssertEqual(example.waitForExit(timeout: 10), 0)
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.status(toastd)["loading"] as? Int) == 0 },
                      "Loading.stop() stopped the spinner")
    }
}
