// swift-tools-version: 6.2
import Foundation
import PackageDescription

// Pipeline: WaylandScanner (XML → Swift, via the build plugin) → Wayland (bindings + runtime)
// → ToastCore (model) → ToastRender (Cairo/Pango) → ToastDaemon (loop, surfaces, socket, D-Bus).
// Front doors: `toast` (CLI over ToastProtocol) and ToastDBus (org.freedesktop.Notifications).
// ToastMigrate (another daemon's configuration as toastd's) is pure and used by `toast migrate` only.
/// Header directories of pangocairo and librsvg, as pkg-config lists them (`--cflags-only-I`: their .pc
/// files also list `-pthread`, which SwiftPM refuses in a system library's flags with a warning on every
/// build). Given to ToastRender, their only importer, and its tests.
let pangoCairoIncludes: [String] = {
    let pkgConfig = Process()
    pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    pkgConfig.arguments = ["pkg-config", "--cflags-only-I", "pangocairo", "librsvg-2.0"]
    let output = Pipe()
    pkgConfig.standardOutput = output
    guard (try? pkgConfig.run()) != nil else { return [] }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    pkgConfig.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: " ")
        .filter { $0.hasPrefix("-I") }.map { String($0.dropFirst(2)).trimmingCharacters(in: .whitespacesAndNewlines) }
}()

let pangoCairoFlags: [SwiftSetting] = [.unsafeFlags(pangoCairoIncludes.flatMap { ["-Xcc", "-I\($0)"] })]

/// How the daemon is linked in release:
/// - By lld (the toolchain's own), for packed relative relocations (DT_RELR, glibc 2.36+): the ~29,000
///   pointers the PIE's data needs fixed at load take 6 KB instead of 690 KB, and the pages they are
///   written into are the daemon's own (anonymous) memory for its life.
/// - libgcc linked in and no `-export-dynamic`, as for the CLI below: what every start pays counts
///   when a notification waits for the daemon's start (D-Bus activation; docs/benchmarks.md, "First
///   toast after login ... wave 3"). No library the daemon loads needs libgcc_s.so but the daemon.
let daemonReleaseLink: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xclang-linker", "-static-libgcc", "-Xlinker", "--no-export-dynamic"],
                 .when(configuration: .release)),
]

/// How the CLI is linked in release. It is started once per toast, so what every start pays counts
/// (docs/benchmarks.md, "CLI start", has the numbers):
/// - Position-dependent: its ~37,000 relative relocations (the static Swift runtime and the
///   FoundationEssentials that ArgumentParser pulls in) are resolved at link time instead of at every
///   start. Only the CLI's own image loses address randomisation; the daemon, which parses untrusted
///   input, keeps it.
/// - libgcc linked in (`-static-libgcc`; the GCC runtime library exception allows it): loading
///   libgcc_s.so runs its CPU-model constructor, a dozen `cpuid`s, each a trap to the hypervisor
///   in a VM (~12 µs each here): ~0.25 ms of CPU per start.
/// - No `-export-dynamic` (which the static stdlib's link arguments ask for, so that backtraces
///   can name functions): the CLI's 1,700 public symbols stay out of the dynamic symbol table,
///   which the runtime's start-up `dladdr` walks.
let cliReleaseLink: [LinkerSetting] = [
    .unsafeFlags(["-Xclang-linker", "-no-pie", "-Xclang-linker", "-static-libgcc",
                  "-Xlinker", "--no-export-dynamic"],
                 .when(configuration: .release)),
]

// The release builds' Swift flags (no run-time exclusivity checks, cross-module optimization) are given on
// the command line, to every module: `scripts/release-swift-flags` says why they are not set here.

let package = Package(
    name: "toastd",
    products: [
        .executable(name: "toastd", targets: ["toastd"]),
        .executable(name: "toast", targets: ["toast"]),
        .library(name: "Wayland", targets: ["Wayland"]),
        // For Swift programs: `try Toast.show("Saved")`, `Toast.hud(.volume, 40)`, `Loading.start("sync")`.
        .library(name: "ToastClient", targets: ["ToastClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries, as module maps + shim headers.
        .systemLibrary(name: "CWayland", pkgConfig: "wayland-client",
                       providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(name: "CLinux"),
        // No pkgConfig here: pango's .pc pulls `-pthread` into the C flags, which SwiftPM refuses with a
        // warning on every build. The include paths are given to ToastRender, its only importer.
        .systemLibrary(name: "CCairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        // SVG icons. No pkgConfig for the same reason as CCairo (librsvg's .pc also lists -pthread); its
        // include paths are in `pangoCairoIncludes`, given to ToastRender, its only importer.
        .systemLibrary(name: "CRsvg", providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd",
                       providers: [.apt(["libsystemd-dev"])]),
        // GLib's slices through malloc, set from the executable's .preinit_array before GLib starts.
        .target(name: "CMallocSlices", linkerSettings: [.linkedLibrary("glib-2.0")]),
        // libpulse, loaded with dlopen on the first sound request (its header says why).
        .target(name: "CPulse"),
        .systemLibrary(name: "CXkbCommon", pkgConfig: "xkbcommon",
                       providers: [.apt(["libxkbcommon-dev"])]),

        // Protocol XML → Swift, at build time.
        .target(name: "WaylandScannerKit"),
        .executableTarget(name: "WaylandScanner", dependencies: ["WaylandScannerKit"]),
        .plugin(name: "WaylandScannerPlugin", capability: .buildTool(),
                dependencies: ["WaylandScanner"]),
        .target(name: "Wayland", dependencies: ["CWayland"],
                plugins: ["WaylandScannerPlugin"]),

        // Pure logic: no I/O.
        .target(name: "ToastVocabulary"),
        .target(name: "ToastCore", dependencies: ["ToastVocabulary"]),
        .target(name: "ToastProtocol", dependencies: ["ToastVocabulary"]),
        // `toast migrate dunstrc`: a dunstrc in, toastd's configuration out.
        .target(name: "ToastMigrate"),
        .target(name: "ToastRender", dependencies: ["CCairo", "ToastVocabulary"],
                swiftSettings: pangoCairoFlags),
        // Pictures from files and bytes a client sent: reading, sniffing, decoding (cairo's PNG reader,
        // gdk-pixbuf and librsvg by dlopen), and the confined helper process that runs them for the daemon.
        .target(name: "ToastPictures", dependencies: ["CCairo", "CRsvg", "CLinux", "ToastVocabulary", "ToastRender"],
                swiftSettings: pangoCairoFlags),

        // The daemon's rules and configuration: the config key table, criteria, bindings (pure).
        .target(name: "ToastConfig", dependencies: ["ToastVocabulary", "ToastCore", "ToastRender"]),
        // The scene: animator, painters, stack placement, frame pacing (pure: no Wayland, no Glibc).
        .target(name: "ToastScene", dependencies: ["ToastVocabulary", "ToastCore", "ToastRender", "ToastConfig"]),

        // I/O.
        // The platform: event loop, timers, signals, child processes, the control socket, syscalls.
        .target(name: "ToastPlatform", dependencies: ["CLinux", "ToastCore"]),
        .target(name: "ToastDBus", dependencies: ["CSystemd", "ToastVocabulary"]),
        // Screen readers: toastd as an AT-SPI application on the accessibility bus, while one is on.
        .target(name: "ToastAccessibility", dependencies: ["CSystemd"]),
        // What the on-screen display changes: the sound server's volumes (libpulse on the daemon's loop),
        // backlights and lock-key LEDs (sysfs, logind).
        .target(name: "ToastDevices", dependencies: ["CPulse", "CLinux", "CSystemd", "ToastPlatform"]),
        // The daemon: service, pictures, history, the two front doors, surfaces, and the loop.
        .target(name: "ToastDaemon",
                dependencies: ["Wayland", "CLinux", "CMallocSlices", "ToastVocabulary", "ToastCore", "ToastProtocol",
                               "ToastRender", "ToastPictures", "ToastDBus", "ToastPlatform", "ToastConfig", "ToastScene",
                               "ToastAccessibility", "ToastDevices", "CXkbCommon"]),

        // Executables.
        .executableTarget(name: "toastd", dependencies: ["ToastDaemon", "ToastPictures"], linkerSettings: daemonReleaseLink),
        .executableTarget(name: "toast",
                          dependencies: ["ToastProtocol", "ToastVocabulary", "ToastClient", "ToastPlatform", "ToastMigrate",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          linkerSettings: cliReleaseLink),
        .target(name: "ToastClient", dependencies: ["ToastProtocol", "ToastVocabulary", "ToastPlatform", "CLinux"]),
        .executableTarget(name: "ToastClientExample", dependencies: ["ToastClient"], path: "Examples/ToastClientExample"),
        .executableTarget(name: "toastd-stage",
                          dependencies: ["Wayland", "CLinux", "CXkbCommon"]),

        // Tests.
        .testTarget(name: "WaylandScannerTests", dependencies: ["WaylandScannerKit"]),
        .testTarget(name: "WaylandTests", dependencies: ["Wayland", "CWayland"]),
        .testTarget(name: "ToastCoreTests", dependencies: ["ToastCore", "ToastVocabulary"]),
        .testTarget(name: "ToastProtocolTests", dependencies: ["ToastProtocol", "ToastVocabulary", "toast"]),
        .testTarget(name: "ToastRenderTests", dependencies: ["ToastRender", "ToastVocabulary"], swiftSettings: pangoCairoFlags),
        .testTarget(name: "ToastPicturesTests", dependencies: ["ToastPictures", "ToastRender", "ToastVocabulary", "CCairo"],
                    swiftSettings: pangoCairoFlags),
        .testTarget(name: "ToastDBusTests", dependencies: ["ToastDBus", "ToastVocabulary"]),
        .testTarget(name: "ToastDaemonTests", dependencies: ["ToastDaemon", "ToastPlatform", "ToastConfig", "ToastScene", "ToastCore", "ToastVocabulary", "ToastProtocol", "ToastDBus", "ToastRender", "CMallocSlices", "ToastAccessibility", "ToastDevices", "CSystemd", "ToastPictures"], swiftSettings: pangoCairoFlags),
        // ToastConfig: what the converter writes is read by toastd's own parser, which must find nothing wrong.
        .testTarget(name: "ToastMigrateTests", dependencies: ["ToastMigrate", "ToastConfig", "ToastRender", "ToastVocabulary"]),
        .testTarget(name: "IntegrationTests", dependencies: ["ToastProtocol"]),
    ],
    swiftLanguageModes: [.v6]
)
