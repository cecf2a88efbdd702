import Foundation
import WaylandScannerKit
import XCTest

/// The generated Swift for the sample protocol (every argument type, keywords, enums) plus the
/// system wayland.xml type-checks with the runtime, with warnings as errors.
final class GeneratedCodeCompilesTests: XCTestCase {
    func testSampleProtocolTypeChecksWithoutWarnings() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let core = try XCTUnwrap(FileManager.default.contents(atPath: "/usr/share/wayland/wayland.xml"))
        let protocols = [try ProtocolDescription(xml: Array(core), file: "wayland.xml"),
                         try ProtocolDescription(xml: Array(sampleXML.utf8), file: "sample.xml")]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-typecheck-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var sources: [String] = []
        for file in try generateSwift(for: protocols) {
            let path = directory.appendingPathComponent(file.name).path
            try file.contents.write(toFile: path, atomically: false, encoding: .utf8)
            sources.append(path)
        }
        let runtime = root.appendingPathComponent("Sources/Wayland")
        sources += try FileManager.default.contentsOfDirectory(atPath: runtime.path)
            .filter { $0.hasSuffix(".swift") }.map { runtime.appendingPathComponent($0).path }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-warnings-as-errors", "-swift-version", "6", "-module-name", "Sample",
                             "-Xcc", "-fmodule-map-file=" + root.appendingPathComponent("Sources/CWayland/module.modulemap").path]
            + sources
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
    }
}
