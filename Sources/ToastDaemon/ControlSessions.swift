import ToastCore
import ToastProtocol

/// The control socket's front door: frames each client's bytes into lines, decodes requests, applies
/// them to the model, answers each with exactly one reply, and sends subscribed clients their events.
/// A bad line gets a structured error and the client stays connected; nothing a client sends can stop
/// the daemon or reach another client.
final class ControlSessions {
    private struct Session {
        var splitter = LineSplitter()
        var subscribedIDs: Set<NotificationID> = []
        var subscribedToAll = false
    }

    private let server: ControlServer
    private var sessions: [ControlServer.ClientID: Session] = [:]
    /// Connections to close after the current batch of replies (owners of keys stopped from elsewhere).
    private var ownersToRelease: [ControlServer.ClientID] = []
    unowned var daemon: Daemon!

    init(server: ControlServer) {
        self.server = server
        server.onReceive = { [unowned self] client, bytes in self.receive(bytes, from: client) }
        server.onDisconnect = { [unowned self] client in
            self.sessions[client] = nil
            let daemon = self.daemon!
            daemon.model.ownerDisconnected(.socket(UInt64(client)), now: daemon.now())
            daemon.modelNeedsUpdate = true
        }
    }

    /// Sends `event` to every client subscribed to its toast.
    func send(_ event: Event) {
        var line: [UInt8]?
        for (client, session) in sessions where session.subscribedToAll || session.subscribedIDs.contains(event.id) {
            line = line ?? event.encodedLine()
            server.send(line!, to: client)
            if case .closed(let id, _) = event { sessions[client]?.subscribedIDs.remove(id) }
        }
    }

    /// Stops loading key `key` (socket `loading_stop` or D-Bus); returns whether it was running.
    /// An attached key's owner is blocked in `toast loading start`: once its last attached key is stopped
    /// by someone else it is queued to be hung up on, so that it exits 0 (docs/protocol.md). Call
    /// `releaseStoppedOwners()` afterwards, outside any reply loop.
    func stopLoading(key: String, requester: ControlServer.ClientID?) -> Bool {
        let daemon = self.daemon!
        let owner = daemon.model.hud.loadingKeys.first { $0.key == key && !$0.isDetached }?.owner
        guard daemon.model.loadingStop(key: key) else { return false }
        if case .socket(let id) = owner, id != requester.map(UInt64.init),
           !daemon.model.hud.loadingKeys.contains(where: { $0.owner == owner && !$0.isDetached }) {
            ownersToRelease.append(ControlServer.ClientID(id))
        }
        return true
    }

    /// Hangs up on the owners `stopLoading` queued.
    func releaseStoppedOwners() {
        let released = ownersToRelease
        ownersToRelease.removeAll()
        for owner in released { server.closeAfterFlush(owner) }
    }

    private func receive(_ bytes: ArraySlice<UInt8>, from client: ControlServer.ClientID) {
        var session = sessions[client] ?? Session()
        bytes.withUnsafeBytes { session.splitter.append($0) }
        sessions[client] = session
        while let item = sessions[client]?.splitter.next() {
            let reply: Reply
            switch item {
            case .line(let line):
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }  // blank lines are ignored
                switch Request.decode(line: line) {
                case .success(let request): reply = handle(request, from: client)
                case .failure(let error): reply = .error(error)
                }
            case .tooLong(let discarded):
                reply = .error(ProtocolError(.lineTooLong, "request line over \(ProtocolLimits.maxLineLength) bytes (\(discarded) discarded)"))
            }
            server.send(reply.encodedLine(), to: client)
        }
        // After the replies: closing a connection runs onDisconnect, which re-enters the model.
        releaseStoppedOwners()
        daemon.modelNeedsUpdate = true
    }

    private func handle(_ request: Request, from client: ControlServer.ClientID) -> Reply {
        let daemon = self.daemon!
        let now = daemon.now()
        switch request {
        case .notify(let params):
            do {
                let id = try daemon.model.notify(Requests.notification(from: params, client: UInt64(client), icons: &daemon.icons), now: now)
                if params.wait { sessions[client]?.subscribedIDs.insert(id) }
                return .ok(.id(id))
            } catch {
                return .error(Requests.protocolError(error))
            }
        case .dismiss(.all):
            daemon.model.dismissAll(now: now)
            return .ok
        case .dismiss(.ids(let ids)):
            let missing = ids.filter { daemon.model.close(id: $0, reason: .dismissed, now: now) == nil }
            if !missing.isEmpty {
                return .error(ProtocolError(.notFound, "no toast \(missing.map(String.init).joined(separator: ", ")) is showing"))
            }
            return .ok
        case .list:
            // The model keeps them newest first; `list` answers oldest first (docs/protocol.md), as they stack.
            return .ok(.toasts(daemon.model.all.reversed().map { Requests.info(of: $0, now: now) }))
        case .history:
            return .ok(.toasts(daemon.model.history.map { Requests.info(of: $0.notification, now: now, reason: $0.reason) }))
        case .restore:
            guard let id = daemon.model.restoreLast(now: now) else {
                return .error(ProtocolError(.notFound, "nothing to restore: the history is empty"))
            }
            return .ok(.id(id))
        case .action(let id, let key):
            do {
                try daemon.model.invokeAction(id: id, key: key, now: now)
                return .ok
            } catch {
                return .error(Requests.protocolError(error))
            }
        case .dnd(let mode):
            switch mode {
            case .on: _ = daemon.model.setDoNotDisturb(true, now: now)
            case .off: _ = daemon.model.setDoNotDisturb(false, now: now)
            case .toggle: _ = daemon.model.toggleDoNotDisturb(now: now)
            case .status: break
            }
            return .ok(.dnd(daemon.model.doNotDisturb))
        case .version:
            // Just the number: clients print "toastd 0.1.0 (protocol 1)" themselves (docs/protocol.md).
            return .ok(.version(VersionInfo(daemon: Daemon.version)))
        case .subscribe(.all):
            sessions[client]?.subscribedToAll = true
            return .ok
        case .subscribe(.ids(let ids)):
            let missing = ids.filter { daemon.model.notification(id: $0) == nil }
            if !missing.isEmpty {
                return .error(ProtocolError(.notFound, "no toast \(missing.map(String.init).joined(separator: ", ")) is showing"))
            }
            sessions[client]?.subscribedIDs.formUnion(ids)
            return .ok
        case .hud(let params):
            do {
                try daemon.model.showBar(kind: params.kind, value: params.value, muted: params.muted,
                                         label: params.label, icon: params.icon, now: now)
                return .ok
            } catch {
                return .error(Requests.protocolError(error))
            }
        case .loadingStart(let key, let label, let detach):
            do {
                try daemon.model.loadingStart(key: key, label: label, owner: .socket(UInt64(client)),
                                              detach: detach, now: now)
                return .ok
            } catch {
                return .error(Requests.protocolError(error))
            }
        case .loadingStop(let key):
            guard stopLoading(key: key, requester: client) else {
                return .error(ProtocolError(.notFound, "no loading spinner '\(key)' is running"))
            }
            return .ok
        }
    }
}
