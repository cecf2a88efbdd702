// Fuzz target: Request.decode(line:) (the daemon's side of the control socket) and
// ServerMessage.decode(line:) (the client's side). A request that decodes must encode to a line that
// decodes to the same request; likewise for replies and events.
import ToastProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let line = UnsafeRawBufferPointer(start: data, count: size)
    if case .success(let request) = Request.decode(line: line) {
        let encoded = request.encode()
        guard case .success(let again) = Request.decode(line: encoded) else {
            preconditionFailure("the encoding does not decode: \(encoded)")
        }
        precondition(again == request, "the round trip changed the request: \(encoded)")
    }
    if case .success(let message) = ServerMessage.decode(line: Array(line)) {
        let encoded: [UInt8]
        switch message {
        case .reply(let reply): encoded = reply.encodedLine()
        case .event(let event): encoded = event.encodedLine()
        }
        guard case .success(let again) = ServerMessage.decode(line: Array(encoded.dropLast())) else {
            preconditionFailure("the encoding does not decode: \(String(decoding: encoded, as: UTF8.self))")
        }
        precondition(again == message, "the round trip changed the message")
    }
    return 0
}
