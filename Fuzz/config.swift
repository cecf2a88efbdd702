// Fuzz target: ConfigParser (the user's configuration file; a bad file must never stop the daemon).
import ToastConfig

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parsed = ConfigParser.parse(bytes, path: "fuzz")
    precondition(parsed.diagnostics.count <= ConfigParser.maxDiagnostics, "too many diagnostics")
    let lineCount = bytes.count { $0 == 0x0A } + 1
    for diagnostic in parsed.diagnostics {
        if let line = diagnostic.line { precondition((1...lineCount).contains(line), "bad line \(line)") }
        precondition(!diagnostic.description.isEmpty)
    }
    if parsed.fileRejected { precondition(parsed.config == DaemonConfig(), "a rejected file changed the config") }
    return 0
}
