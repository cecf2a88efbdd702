import Foundation
@testable import ToastDaemon
import XCTest

/// Finding and reading the configuration file.
final class ConfigFileTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "toastd-config-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testDefaultPath() {
        XCTAssertEqual(ConfigFile.defaultPath { ["XDG_CONFIG_HOME": "/x", "HOME": "/h"][$0] }, "/x/toastd/config")
        XCTAssertEqual(ConfigFile.defaultPath { ["HOME": "/h"][$0] }, "/h/.config/toastd/config")
        XCTAssertEqual(ConfigFile.defaultPath { ["XDG_CONFIG_HOME": "", "HOME": "/h"][$0] }, "/h/.config/toastd/config")
        XCTAssertEqual(ConfigFile.defaultPath { ["XDG_CONFIG_HOME": "rel", "HOME": "/h"][$0] }, "/h/.config/toastd/config",
                       "a relative XDG_CONFIG_HOME is invalid by the spec and ignored")
        XCTAssertNil(ConfigFile.defaultPath { _ in nil })
    }

    func testReadsARegularFile() throws {
        let path = directory + "/config"
        try Data("width = 500\n".utf8).write(to: URL(fileURLWithPath: path))
        guard case .bytes(let bytes) = ConfigFile.read(path) else { return XCTFail("not read") }
        XCTAssertEqual(bytes, Array("width = 500\n".utf8))
        let loaded = try XCTUnwrap(ConfigFile.load(path, explicit: false))
        XCTAssertTrue(loaded.found)
        XCTAssertEqual(loaded.parsed.config.style.width, 500)
    }

    func testAMissingFileGivesTheDefaults() throws {
        guard case .missing = ConfigFile.read(directory + "/none") else { return XCTFail("not missing") }
        let loaded = try XCTUnwrap(ConfigFile.load(directory + "/none", explicit: false))
        XCTAssertFalse(loaded.found)
        XCTAssertEqual(loaded.parsed.config, DaemonConfig())
    }

    func testADirectoryATooBigFileAndABinaryFileAreUnusable() throws {
        guard case .unusable(let reason) = ConfigFile.read(directory) else { return XCTFail("a directory was read") }
        XCTAssertEqual(reason, "not a regular file")
        XCTAssertNil(ConfigFile.load(directory, explicit: true))

        let big = directory + "/big"
        try Data(repeating: 0x23, count: ConfigFile.maxSize + 1).write(to: URL(fileURLWithPath: big))
        guard case .unusable(let why) = ConfigFile.read(big) else { return XCTFail("a huge file was read") }
        XCTAssertTrue(why.contains("larger than"), why)

        let binary = directory + "/binary"
        try Data([0x7F, 0x45, 0x4C, 0x46, 0, 0]).write(to: URL(fileURLWithPath: binary))
        XCTAssertNil(ConfigFile.load(binary, explicit: true), "a binary file must leave the configuration alone")
    }
}
