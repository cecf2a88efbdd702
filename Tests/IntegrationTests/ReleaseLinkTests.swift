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
    private static let pltScript = "Sources/toastd/plt.ld"

    func testTheReleaseLinkBindsAtLoadAndUsesTheScript() throws {
        let manifest = try String(contentsOfFile: "\(Self.repository)/Package.swift", encoding: .utf8)
        XCTAssertTrue(manifest.contains(#""-Xlinker", "-z", "-Xlinker", "now""#), "toastd is linked with -z now")
        for script in [Self.script, Self.pltScript] {
            XCTAssertTrue(manifest.contains(#""-Xlinker", "-T", "-Xlinker", "\(Context.packageDirectory)/"# + script),
                          "toastd is linked with \(script)")
        }
    }

    func testThePLTScriptPutsThePLTRightBeforeTheText() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("toastd-plt-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A call into libc goes through the PLT; the program exits 0 only if it arrives.
        try """
        #include <stdlib.h>
        int main(int argc, char **argv) { (void)argv; return abs(-argc) == argc ? 0 : 1; }
        """.write(toFile: "\(directory)/t.c", atomically: true, encoding: .utf8)
        func link(_ extra: [String], to output: String) throws -> (plt: UInt64, text: UInt64, textEnd: UInt64) {
            let linked = try IntegrationTests.run(["clang", "-O1", "-fPIE", "-fuse-ld=lld", "-pie", "-Wl,-z,now",
                                                   "\(directory)/t.c", "-o", output] + extra, timeout: 60)
            XCTAssertTrue(linked.succeeded, linked.stderrText)
            let ran = try IntegrationTests.run([output], timeout: 10)
            XCTAssertEqual(ran.status, 0, "the linked program calls into libc")
            let sections = try Self.sections(output)
            let plt = try XCTUnwrap(sections[".plt"], "no .plt in \(sections)")
            let text = try XCTUnwrap(sections[".text"], "no .text in \(sections)")
            return (plt.address, text.address, text.address + text.size)
        }
        let plain = try link([], to: "\(directory)/plain")
        XCTAssertGreaterThanOrEqual(plain.plt, plain.textEnd, "without the script lld puts the PLT after the text")
        let scripted = try link(["-Wl,-T,\(Self.repository)/\(Self.pltScript)"], to: "\(directory)/scripted")
        XCTAssertLessThan(scripted.plt, scripted.text, "with the script the PLT comes before the text")
        XCTAssertLessThan(scripted.text - scripted.plt, 4096 + 64, "and right before it")
    }

    /// Address and size of each section of `binary` (`readelf -SW`).
    private static func sections(_ binary: String) throws -> [String: (address: UInt64, size: UInt64)] {
        let readelf = try IntegrationTests.run(["readelf", "-SW", binary], timeout: 30)
        XCTAssertTrue(readelf.succeeded, readelf.stderrText)
        var found: [String: (address: UInt64, size: UInt64)] = [:]
        for line in readelf.stdoutText.split(separator: "\n") {
            // "  [35] .plt   PROGBITS   00000000002e8790 2e7790 001b10 00  AX  0   0 16"
            guard let close = line.firstIndex(of: "]") else { continue }
            let fields = line[line.index(after: close)...].split(separator: " ")
            guard fields.count >= 5, let address = UInt64(fields[2], radix: 16), let size = UInt64(fields[4], radix: 16)
            else { continue }
            found[String(fields[0])] = (address, size)
        }
        return found
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
