import Foundation
import PackagePlugin

/// Runs WaylandScanner at build time over the package's Protocols/*.xml and the system protocol
/// XML the bindings need, producing Swift sources for the target (never committed).
///
/// Protocols/ is listed when the plugin runs; SwiftPM re-runs the plugin only when the package
/// manifest changes, so after adding a file to Protocols/ touch Package.swift (see
/// docs/wayland-bindings.md).
@main
struct WaylandScannerPlugin: BuildToolPlugin {
    /// System protocol XML the bindings need: the pkg-config package whose `pkgdatadir` holds it
    /// (libwayland-dev's wayland-scanner, wayland-protocols), and its path there.
    static let systemProtocols = [
        ("wayland-scanner", "wayland.xml"),
        ("wayland-protocols", "stable/xdg-shell/xdg-shell.xml"),
        ("wayland-protocols", "stable/viewporter/viewporter.xml"),
        ("wayland-protocols", "staging/fractional-scale/fractional-scale-v1.xml"),
        ("wayland-protocols", "unstable/xdg-output/xdg-output-unstable-v1.xml"),
        ("wayland-protocols", "staging/xdg-activation/xdg-activation-v1.xml"),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let fileManager = FileManager.default
        var dataDirectories: [String: String] = [:]
        var system: [String] = []
        for (package, file) in Self.systemProtocols {
            if dataDirectories[package] == nil { dataDirectories[package] = try Self.dataDirectory(of: package) }
            let path = dataDirectories[package]! + "/" + file
            guard fileManager.fileExists(atPath: path) else {
                throw PluginError("\(path) is missing: install libwayland-dev and wayland-protocols")
            }
            system.append(path)
        }
        let protocolsDirectory = context.package.directoryURL.appending(path: "Protocols")
        let own = try fileManager.contentsOfDirectory(atPath: protocolsDirectory.path)
            .filter { $0.hasSuffix(".xml") }
            .sorted()
            .map { protocolsDirectory.appending(path: $0) }
        let inputs = system.map { URL(fileURLWithPath: $0) } + own
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources")
        try fileManager.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        let outputs = inputs.map { outputDirectory.appending(path: Self.swiftFileName(forProtocolFile: $0.path)) }
            + [outputDirectory.appending(path: "WaylandInterfaceIndex.swift")]
        return [.buildCommand(
            displayName: "Generating Swift for \(inputs.count) Wayland protocols",
            executable: try context.tool(named: "WaylandScanner").url,
            arguments: ["--output", outputDirectory.path] + inputs.map(\.path),
            inputFiles: inputs,
            outputFiles: outputs)]
    }

    /// Where `package` keeps its data (`pkg-config --variable=pkgdatadir`): /usr/share/wayland-protocols on
    /// Debian, elsewhere under another prefix.
    static func dataDirectory(of package: String) throws -> String {
        let pkgConfig = Process()
        pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pkgConfig.arguments = ["pkg-config", "--variable=pkgdatadir", package]
        let output = Pipe()
        pkgConfig.standardOutput = output
        try pkgConfig.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        pkgConfig.waitUntilExit()
        let directory = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard pkgConfig.terminationStatus == 0, !directory.isEmpty else {
            throw PluginError("pkg-config knows no \(package): install libwayland-dev and wayland-protocols")
        }
        return directory
    }

    /// Same rule as WaylandScannerKit.swiftFileName(forProtocolFile:).
    static func swiftFileName(forProtocolFile path: String) -> String {
        var stem = String(path.split(separator: "/").last ?? "")
        if stem.hasSuffix(".xml") { stem.removeLast(4) }
        return "Protocol_" + String(stem.map { $0.isLetter || $0.isNumber ? $0 : "_" }) + ".swift"
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
