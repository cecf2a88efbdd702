// WaylandScanner: protocol XML → Swift bindings for the Wayland module.
//
//   WaylandScanner --output DIR FILE.xml...
//
// Writes one Swift file per protocol (named by swiftFileName(forProtocolFile:)) and the interface
// index into DIR. Errors are printed as `file:line: error: message` and exit with status 1.
// Files whose contents did not change are not rewritten, so the build does not recompile them.

import Glibc
import WaylandScannerKit

func fail(_ message: String) -> Never {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
        if n < chunk.count { return ferror(file) != 0 ? nil : bytes }
    }
}

func writeFileIfChanged(_ path: String, _ contents: String) -> Bool {
    let data = Array(contents.utf8)
    if readFile(path) == data { return true }
    guard let file = fopen(path, "wb") else { return false }
    let written = fwrite(data, 1, data.count, file)
    return fclose(file) == 0 && written == data.count
}

func run() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.count >= 3, arguments[0] == "--output" else {
        fail("usage: WaylandScanner --output DIR FILE.xml...")
    }
    let outputDirectory = arguments[1]
    var protocols: [ProtocolDescription] = []
    for path in arguments.dropFirst(2) {
        guard let bytes = readFile(path) else { fail("\(path): error: cannot read the file (errno \(errno))") }
        do {
            protocols.append(try ProtocolDescription(xml: bytes, file: path))
        } catch {
            fail(error.description)
        }
    }
    do {
        for file in try generateSwift(for: protocols) {
            let path = outputDirectory + "/" + file.name
            guard writeFileIfChanged(path, file.contents) else { fail("\(path): error: cannot write (errno \(errno))") }
        }
    } catch {
        fail(error.description)
    }
}

run()
