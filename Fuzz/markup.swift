// Fuzz target: MarkupSanitizer (D-Bus notification bodies, written by any program on the bus).
// Whatever the body, the result must be markup Pango accepts; so must `escape`.
import ToastRender

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkup(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let markup = MarkupSanitizer.sanitize(body)
    precondition(MarkupSanitizer.isValidPangoMarkup(markup), "sanitize gave invalid markup: \(markup)")
    let escaped = MarkupSanitizer.escape(body)
    precondition(MarkupSanitizer.isValidPangoMarkup(escaped), "escape gave invalid markup: \(escaped)")
    return 0
}
