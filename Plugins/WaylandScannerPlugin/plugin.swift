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
    /// System protocol XML (from libwayland-dev and wayland-protocols).
    static let systemProtocols = [
        "/usr/share/wayland/wayland.xml",
        "/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml",
        "/usr/share/wayland-protocols/stable/viewporter/viewporter.xml",
        "/usr/share/wayland-protocols/staging/fractional-scale/fractional-scale-v1.xml",
        "/usr/share/wayland-protocols/unstable/xdg-output/xdg-output-unstable-v1.xml",
        "/usr/share/wayland-protocols/staging/xdg-activation/xdg-activation-v1.xml",
        "/usr/share/wayland-protocols/staging/ext-idle-notify/ext-idle-notify-v1.xml",
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let fileManager = FileManager.default
        for path in Self.systemProtocols where !fileManager.fileExists(atPath: path) {
            throw PluginError("\(path) is missing: install libwayland-dev and wayland-protocols")
        }
        let protocolsDirectory = context.package.directoryURL.appending(path: "Protocols")
        let own = try fileManager.contentsOfDirectory(atPath: protocolsDirectory.path)
            .filter { $0.hasSuffix(".xml") }
            .sorted()
            .map { protocolsDirectory.appending(path: $0) }
        let inputs = Self.systemProtocols.map { URL(fileURLWithPath: $0) } + own
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
