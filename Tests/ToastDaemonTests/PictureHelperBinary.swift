import Foundation

/// The built `toastd`, which the tests start as the picture helper (the test runner's own binary,
/// `/proc/self/exe` here, is not toastd): `TOASTD_BIN_DIR`'s, else the one beside the test bundle.
enum PictureHelperBinary {
    static var path: String {
        if let directory = ProcessInfo.processInfo.environment["TOASTD_BIN_DIR"] { return directory + "/toastd" }
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: runner).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("toastd").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("toastd").path
    }
}
