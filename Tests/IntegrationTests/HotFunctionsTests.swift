import Foundation
import XCTest

/// The list of hot functions the release link places first (`Sources/toastd/hot-functions.txt`,
/// see Package.swift and `scripts/hot-functions`) still names the daemon's code. A stale list does
/// no harm but gives back the memory it saved (4.3 MB of text resident at idle instead of ~2.8 MB),
/// silently, since the linker skips names it does not know: this test is what notices.
final class HotFunctionsTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    private static let binDirectory = ProcessInfo.processInfo.environment["TOASTD_BIN_DIR"]
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    private static let listPath = "Sources/toastd/hot-functions.txt"

    func testTheReleaseLinkOrdersByTheList() throws {
        let manifest = try String(contentsOfFile: "\(Self.repository)/Package.swift", encoding: .utf8)
        XCTAssertTrue(manifest.contains("--symbol-ordering-file=\\(Context.packageDirectory)/\(Self.listPath)"),
                      "Package.swift links toastd with \(Self.listPath) as its symbol ordering")
        XCTAssertTrue(manifest.contains("pack-relative-relocs"), "Package.swift packs the relative relocations")
    }

    /// What runs from a drop of the mapped pages (MappedPages) until the loop sleeps is all of the text
    /// that stays mapped at idle: first in the list, it fills one or two 64 KiB folios; spread through
    /// the list's first part, it kept a dozen mapped (748 KiB measured).
    func testTheListStartsWithWhatRunsAfterADrop() throws {
        let list = try String(contentsOfFile: "\(Self.repository)/\(Self.listPath)", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let head = list.prefix(64)
        for name in ["$s11ToastDaemon11MappedPagesO7release", "$s11ToastDaemon9EventLoopC4wait", "swift_release"] {
            XCTAssertTrue(head.contains { $0.hasPrefix(name) }, "\(name) is not among the first 64 names of \(Self.listPath)")
        }
    }

    func testMostOfTheListsOwnFunctionsStillExist() throws {
        let list = try String(contentsOfFile: "\(Self.repository)/\(Self.listPath)", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        // The daemon's own modules (mangled `$s<length><module>`): the standard library and the
        // runtime change only with the toolchain.
        let own = list.filter { name in
            ["ToastDaemon", "ToastRender", "ToastCore", "ToastDBus", "ToastProtocol", "Wayland"]
                .contains { name.hasPrefix("$s\($0.utf8.count)\($0)") }
        }
        XCTAssertGreaterThan(own.count, 300, "the list names the daemon's start and toast code")

        let toastd = "\(Self.binDirectory)/toastd"
        guard access(toastd, X_OK) == 0 else { throw XCTSkip("\(toastd) is not built (set TOASTD_BIN_DIR)") }
        let nm = try IntegrationTests.run(["nm", "--defined-only", toastd], timeout: 60)
        XCTAssertTrue(nm.succeeded, nm.stderrText)
        let defined = Set(nm.stdoutText.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        // This build is a debug one: the optimizer's specialisations differ, the functions do not
        // (measured: 86 % of the list's own names in a debug build right after `scripts/hot-functions`).
        let found = own.filter(defined.contains).count
        XCTAssertGreaterThan(Double(found), 0.6 * Double(own.count),
                             "only \(found) of the \(own.count) own functions in \(Self.listPath) exist: run scripts/hot-functions")
    }
}
