import Foundation
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import XCTest

/// Finding and reading the configuration file.
final class ConfigFileTests: ScratchDirectoryTestCase {
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
        let loaded = ConfigFile.load(path, explicit: false)
        XCTAssertTrue(loaded.found)
        XCTAssertEqual(try XCTUnwrap(loaded.parsed).config.style.width, 500)
        XCTAssertEqual(loaded.warnings, [])

        try Data("width = 500\nwidht = 3\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(ConfigFile.load(path, explicit: false).warnings, ["\(path):2: unknown key 'widht'"])
    }

    func testAMissingFileGivesTheDefaults() throws {
        guard case .missing = ConfigFile.read(directory + "/none") else { return XCTFail("not missing") }
        let loaded = ConfigFile.load(directory + "/none", explicit: false)
        XCTAssertFalse(loaded.found)
        XCTAssertEqual(try XCTUnwrap(loaded.parsed).config, DaemonConfig())
        XCTAssertEqual(loaded.warnings, [], "a missing default file is no problem")
        XCTAssertEqual(ConfigFile.load(directory + "/none", explicit: true).warnings,
                       ["\(directory)/none: no such file; using the defaults"])
    }

    func testADirectoryATooBigFileAndABinaryFileAreUnusable() throws {
        guard case .unusable(let reason) = ConfigFile.read(directory) else { return XCTFail("a directory was read") }
        XCTAssertEqual(reason, "not a regular file")
        XCTAssertNil(ConfigFile.load(directory, explicit: true).parsed)
        XCTAssertEqual(ConfigFile.load(directory, explicit: true).warnings,
                       ["\(directory): cannot be read (not a regular file); ignored"])

        let big = directory + "/big"
        try Data(repeating: 0x23, count: ConfigFile.maxSize + 1).write(to: URL(fileURLWithPath: big))
        guard case .unusable(let why) = ConfigFile.read(big) else { return XCTFail("a huge file was read") }
        XCTAssertTrue(why.contains("larger than"), why)

        let binary = directory + "/binary"
        try Data([0x7F, 0x45, 0x4C, 0x46, 0, 0]).write(to: URL(fileURLWithPath: binary))
        XCTAssertNil(ConfigFile.load(binary, explicit: true).parsed, "a binary file must leave the configuration alone")
    }
}
