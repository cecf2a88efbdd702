// Fuzz target: JSONParser (every control-socket line goes through it before anything else).
// Checks: no crash on any bytes; the UTF-8 validator agrees with the standard library's; whatever
// parses encodes to text that parses back to the same value.
import ToastProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let valid = UTF8Validator.firstInvalidOffset(bytes) == nil
    precondition(valid == (String(validating: bytes, as: UTF8.self) != nil),
                 "UTF8Validator disagrees with the standard library")
    guard case .success(let value) = JSONParser.parse(bytes) else { return 0 }
    precondition(valid, "parsed invalid UTF-8")
    let text = value.encoded()
    guard case .success(let again) = JSONParser.parse(text) else {
        preconditionFailure("the encoding does not parse back: \(text)")
    }
    precondition(again == value, "the round trip changed the value: \(text)")
    precondition(!text.utf8.contains(0x0A), "the encoding holds a newline")
    return 0
}
