import CSystemd
#if canImport(Glibc)
import Glibc
#endif

extension NotificationsBus {
    /// The one message callback of both objects. Returns 1 when answered, or a negative errno with
    /// `error` set (sd-bus then sends that error as the reply).
    func handleMethodCall(_ m: OpaquePointer, _ errorOut: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        guard sd_bus_message_is_method_call(m, nil, nil) > 0 else { return 0 }
        let path = known(sd_bus_message_get_path(m), among: BusObject.paths) ?? ""
        let interface = known(sd_bus_message_get_interface(m), among: BusObject.interfaceNames)
        let member = string(sd_bus_message_get_member(m)) ?? ""
        let method: BusMethod
        switch BusObject.resolve(path: path, interface: interface, member: member) {
        case .success(let found): method = found
        case .failure(.unknownInterface):
            return fail(errorOut, BusErrorName.unknownInterface, "No interface '\(interface ?? "")' at \(path)")
        case .failure(.unknownMethod):
            return fail(errorOut, BusErrorName.unknownMethod,
                        "No method '\(member)' in interface '\(interface ?? "(any)")' at \(path)")
        }
        // resolve() finds only methods that have a handler.
        guard let handler = method.handler else {
            return fail(errorOut, BusErrorName.unknownMethod,
                        "No method '\(member)' in interface '\(interface ?? "(any)")' at \(path)")
        }
        // withCString: the implicit conversion copied the signature into a fresh array at each call.
        guard method.signature.withCString({ sd_bus_message_has_signature(m, $0) }) > 0 else {
            let got = string(sd_bus_message_get_signature(m, 1)) ?? ""
            return fail(errorOut, BusErrorName.invalidArgs,
                        "\(member) takes (\(method.signature)), got (\(got))")
        }
        let sender = string(sd_bus_message_get_sender(m)) ?? ""
        do {
            let answer = try handler(self, BusCall(message: m, path: path, sender: sender))
            return reply(m, answer.fill)
        } catch let e as MessageError {
            return fail(errorOut, BusErrorName.invalidArgs, "\(member): cannot read arguments (\(e.what): \(errnoText(e.errno)))")
        } catch let e as BusError {
            if case .refused(let message, let name) = e { return fail(errorOut, name, message) }
            return fail(errorOut, BusErrorName.failed, e.description)
        } catch {
            return fail(errorOut, BusErrorName.failed, "\(error)")
        }
    }

    /// The delegate, or the error a call gets while there is none.
    func delegateOrFail() throws(BusError) -> NotificationsBusDelegate {
        guard let delegate else { throw .refused(message: "toastd is shutting down") }
        return delegate
    }

    private func reply(_ call: OpaquePointer, _ fill: (MessageWriter) throws(MessageError) -> Void) -> Int32 {
        var r: OpaquePointer? = nil
        let rc = sd_bus_message_new_method_return(call, &r)
        guard rc >= 0, let r else { return rc }
        defer { sd_bus_message_unref(r) }
        do { try fill(MessageWriter(m: r)) } catch { return -error.errno }
        let sent = send(r)
        return sent < 0 ? sent : 1
    }

    private func fail(_ error: UnsafeMutablePointer<sd_bus_error>?, _ name: String, _ message: String) -> Int32 {
        let r = sd_bus_error_set(error, name, message)
        return r < 0 ? r : -EIO
    }

    private func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

    /// `p` as the equal string of `names` when there is one, else as a new string. Our object paths and
    /// interface names are longer than a small string: made anew, each took an allocation and a
    /// validation at every call (each Notify).
    private func known(_ p: UnsafePointer<CChar>?, among names: [String]) -> String? {
        guard let p else { return nil }
        return names.first { name in name.withCString { strcmp($0, p) == 0 } } ?? String(cString: p)
    }
}
