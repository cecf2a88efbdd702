// Fuzz target: DunstMigration (`toast migrate dunstrc`): whatever dunstrc comes in, what is written is a
// configuration toastd's own parser takes with no warning, and its comments point at real lines.
import ToastConfig
import ToastMigrate

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDunstrc(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard case .success(let result) = DunstMigration.convert(bytes, source: "fuzz") else { return 0 }
    let parsed = ConfigParser.parse(result.text, path: "converted")
    precondition(parsed.warningCount == 0 && !parsed.fileRejected,
                 "toastd refuses the converted file: \(parsed.diagnostics.map(\.description))")
    let lineCount = bytes.count { $0 == 0x0A } + 1
    for line in result.text.split(separator: "\n") where line.hasPrefix("# line ") {
        let number = Int(line.dropFirst("# line ".count).prefix { $0.isNumber }) ?? 0
        precondition((1...lineCount).contains(number), "a comment names line \(number) of \(lineCount)")
    }
    return 0
}
