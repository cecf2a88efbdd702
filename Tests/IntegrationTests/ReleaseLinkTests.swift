import Foundation
import XCTest

/// What the daemon's release link asks of lld beyond the symbol order (Package.swift,
/// `daemonReleaseLink`): symbols bound at load, and `Sources/toastd/rodata.ld`, which keeps
/// `.rodata` in the read-only segment although a few of its input sections are marked writable.
/// The tests run a debug build, so the script is tried on a small program linked here the same
/// way: one read-only table and one writable variable in a section named `.rodata`, as Swift emits.
final class ReleaseLinkTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    private static let script = "Sources/toastd/rodata.ld"

    func testTheReleaseLinkBindsAtLoadAndUsesTheScript() throws {
        let manifest = try String(contentsOfFile: "\(Self.repository)/Package.swift", encoding: .utf8)
        XCTAssertTrue(manifest.contains(#""-Xlinker", "-z", "-Xlinker", "now""#), "toastd is linked with -z now")
        XCTAssertTrue(manifest.contains(#""-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/"# + Self.script),
                      "toastd is linked with \(Self.script)")
    }

    /// The release Swift flags (no exclusivity checks, a section per function) come from the build
    /// command, not Package.swift (`scripts/release-swift-flags` says why): a command that builds release
    /// without them makes a slower daemon and nothing else tells.
    func testEveryReleaseBuildTakesTheReleaseSwiftFlags() throws {
        let printed = try IntegrationTests.run(["\(Self.repository)/scripts/release-swift-flags"], timeout: 10)
        XCTAssertTrue(printed.succeeded, printed.stderrText)
        for flag in ["-enforce-exclusivity=unchecked", "-function-sections"] {
            XCTAssertTrue(printed.stdoutText.split(separator: "\n").contains { $0 == flag }, "release-swift-flags prints \(flag)")
        }
        var builds = 0
        for script in ["scripts/install", "scripts/run", "bench/run"] {
            let text = try String(contentsOfFile: "\(Self.repository)/\(script)", encoding: .utf8)
            XCTAssertTrue(text.contains("mapfile -t release < <(scripts/release-swift-flags)"), "\(script) reads the flags")
            for line in text.split(separator: "\n") where line.contains("swift build -c ") {
                builds += 1
                XCTAssertTrue(line.contains(#""${release[@]}""#), "\(script): a release build without the flags: \(line)")
            }
        }
        XCTAssertGreaterThan(builds, 8, "the scripts' release builds were found")
    }

    func testTheScriptKeepsReadOnlyDataOutOfTheWritableSegment() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("toastd-rodata-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // `counter` is written at run time: the program exits 0 only if its page is writable.
        try """
        const char table[65536] = {7};
        int counter __attribute__((section(".rodata"))) = 1;
        int main(void) { counter += 1; return counter == 2 && table[0] == 7 ? 0 : 1; }
        """.write(toFile: "\(directory)/t.c", atomically: true, encoding: .utf8)
        let compiled = try IntegrationTests.run(["clang", "-O1", "-fPIE", "-c", "\(directory)/t.c",
                                                 "-o", "\(directory)/t.o"], timeout: 60)
        XCTAssertTrue(compiled.succeeded, compiled.stderrText)

        func link(_ extra: [String], to output: String) throws -> (writable: Set<String>, readOnly: Set<String>) {
            let linked = try IntegrationTests.run(["clang", "-fuse-ld=lld", "-pie", "\(directory)/t.o",
                                                   "-o", output] + extra, timeout: 60)
            XCTAssertTrue(linked.succeeded, linked.stderrText)
            let ran = try IntegrationTests.run([output], timeout: 10)
            XCTAssertEqual(ran.status, 0, "the linked program reads its table and writes its variable")
            return try Self.sectionsByLoadSegment(output)
        }
        let plain = try link([], to: "\(directory)/plain")
        XCTAssertTrue(plain.writable.contains(".rodata"), "without the script lld makes all of .rodata writable")

        let scripted = try link(["-Wl,-T,\(Self.repository)/\(Self.script)"], to: "\(directory)/scripted")
        XCTAssertTrue(scripted.readOnly.contains(".rodata"), "with the script .rodata is in a read-only segment")
        XCTAssertFalse(scripted.writable.contains(".rodata"))
        XCTAssertTrue(scripted.writable.contains(".rodata.writable"), "the writable part is in a writable segment")
    }

    /// The sections of `binary`'s LOAD segments, split by whether the segment is writable
    /// (`readelf -lW`: the program headers in order, then the section list of each).
    private static func sectionsByLoadSegment(_ binary: String) throws -> (writable: Set<String>, readOnly: Set<String>) {
        let readelf = try IntegrationTests.run(["readelf", "-lW", binary], timeout: 30)
        XCTAssertTrue(readelf.succeeded, readelf.stderrText)
        let lines = readelf.stdoutText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let headers = lines.drop { !$0.hasPrefix("Type") }.dropFirst()
            .prefix { !$0.isEmpty && !$0.hasPrefix("Section to Segment") }
            .filter { !$0.hasPrefix("[") }
        let mapping = lines.drop { !$0.hasPrefix("Segment Sections") }.dropFirst()
        var writable = Set<String>(), readOnly = Set<String>()
        for (header, sections) in zip(headers, mapping) where header.hasPrefix("LOAD") {
            let names = sections.split(separator: " ").dropFirst().map(String.init)
            let flags = header.split(separator: " ").dropLast().last.map(String.init) ?? ""
            if flags.contains("W") { writable.formUnion(names) } else { readOnly.formUnion(names) }
        }
        return (writable, readOnly)
    }
}
