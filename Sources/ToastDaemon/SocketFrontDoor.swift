import ToastCore
import ToastPlatform
import ToastProtocol
import ToastVocabulary

/// The control socket's front door: frames each client's bytes into lines, decodes requests, calls the
/// service, answers each with exactly one reply, and sends subscribed clients their events. A bad line
/// gets a structured error and the client stays connected; nothing a client sends can stop the daemon
/// or reach another client.
final class SocketFrontDoor {
    private struct Session {
        var splitter = LineSplitter()
        var subscribedIDs: Set<NotificationID> = []
        var subscribedToAll = false
        /// The status this client follows was last sent as this (nil: it does not follow the status).
        var followedStatus: StatusInfo?
        /// A request of this client is being carried out (`osd`, waiting for the sound server): its
        /// later lines wait in the splitter, so that replies stay in request order.
        var awaitingReply = false
    }

    /// Bytes a client may send while its reply is awaited; more and it is hung up on.
    static let maxBytesWhileAwaiting = 4 * ProtocolLimits.maxLineLength

    private let server: ControlServer
    private let service: ToastService
    private var sessions: [ControlServer.ClientID: Session] = [:]
    /// `reload`: the daemon rereads its configuration and returns the problems it found (the file is
    /// the daemon's concern, not the service's).
    var onReload: () -> [String] = { [] }
    /// `center`: the daemon opens, closes or flips the notification center.
    var onCenter: (CenterMode) -> Void = { _ in }
    /// `focus`: the newest toast takes the keyboard; returns its id (nil: none shows).
    var onFocus: () -> NotificationID? = { nil }
    /// `settings`: how the daemon is set up now.
    var settings: () -> DaemonSettings = { DaemonSettings(clickableActions: false) }
    /// `osd`: changes a device's level; the reply may come on a later turn.
    var onOsd: (OsdParams, @escaping (Reply) -> Void) -> Void = { _, reply in
        reply(.error(ProtocolError(.unavailable, "this daemon has no on-screen display")))
    }
    /// `hud_stream`: the pipes the daemon reads HUD values from (set by the daemon, which owns the loop).
    var hudStreams: HudStreams? {
        didSet {
            hudStreams?.onOutcome = { [unowned self] client, outcome in
                let event: Event = switch outcome {
                case .problem(let line, let message): .streamProblem(line: line, message: message)
                case .ended: .streamEnd
                }
                self.server.send(event.encodedLine(), to: client)
            }
        }
    }

    init(server: ControlServer, service: ToastService) {
        self.server = server
        self.service = service
        server.onReceive = { [unowned self] client, bytes in self.receive(bytes, from: client) }
        server.onDisconnect = { [unowned self] client in
            self.sessions[client] = nil
            self.hudStreams?.stop(client)
            self.service.clientLeft(.socket(UInt64(client)))
        }
        server.isHolding = { [unowned self] client in self.holdsSomething(client) }
    }

    /// Whether the client waits on the daemon (events it subscribed to, a followed status, a HUD stream,
    /// a loading spinner it owns): then it is quiet by design and never closed as idle.
    private func holdsSomething(_ client: ControlServer.ClientID) -> Bool {
        if let session = sessions[client],
           session.subscribedToAll || !session.subscribedIDs.isEmpty || session.followedStatus != nil {
            return true
        }
        if hudStreams?.hasStream(of: client) == true { return true }
        let origin = ClientID.socket(UInt64(client))
        return service.model.hud.loadingKeys.contains { $0.owner == origin }
    }

    /// Tells the clients what happened: events go to the connections subscribed to their toast, and a
    /// loading owner let go is hung up on (so `toast loading start` exits 0; docs/protocol.md).
    func deliver(_ event: CoreEvent) {
        switch event {
        case .closed(let id, let reason, _): send(.closed(id: id, reason: reason))
        case .actionInvoked(let id, let key, _): send(.action(id: id, key: key))
        case .loadingOwnerReleased(.socket(let client)): server.closeAfterFlush(ControlServer.ClientID(client))
        case .activationToken(let id, let token, _): send(.activationToken(id: id, token: token))
        case .loadingOwnerReleased(.dbus), .replaced, .loadingChanged, .replied: break
        }
    }

    /// Sends the status to the clients that follow it, each only if it differs from what that client
    /// last got. Called once per loop turn that changed the service: a burst is one line.
    func publishStatus() {
        guard sessions.values.contains(where: { $0.followedStatus != nil }) else { return }
        let status = self.status
        var line: [UInt8]?
        for (client, session) in sessions where session.followedStatus.map({ $0 != status }) == true {
            line = line ?? Event.status(status).encodedLine()
            server.send(line!, to: client)
            sessions[client]?.followedStatus = status
        }
    }

    /// The counts, do-not-disturb and the loading keys, as `status` reports them.
    private var status: StatusInfo {
        let model = service.model
        let open = model.all.count
        return StatusInfo(open: open, hidden: open - model.visible.count, history: model.history.count,
                          dnd: model.doNotDisturb, dndUntil: service.doNotDisturbUntil, loading: model.hud.loadingKeys.count)
    }

    private func send(_ event: Event) {
        guard let id = event.id else { return }
        var line: [UInt8]?
        for (client, session) in sessions where session.subscribedToAll || session.subscribedIDs.contains(id) {
            line = line ?? event.encodedLine()
            server.send(line!, to: client)
            if case .closed(let id, _) = event { sessions[client]?.subscribedIDs.remove(id) }
        }
    }

    private func receive(_ bytes: ArraySlice<UInt8>, from client: ControlServer.ClientID) {
        var session = sessions[client] ?? Session()
        bytes.withUnsafeBytes { session.splitter.append($0) }
        sessions[client] = session
        if session.awaitingReply {
            if session.splitter.pendingCount > Self.maxBytesWhileAwaiting { server.disconnect(client) }
            return
        }
        answerLines(of: client)
    }

    /// Answers the client's complete lines, in order, until one's reply must wait.
    private func answerLines(of client: ControlServer.ClientID) {
        while sessions[client]?.awaitingReply == false, let item = sessions[client]?.splitter.next() {
            let reply: Reply
            switch item {
            case .line(let line):
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }  // blank lines are ignored
                switch Request.decode(line: line) {
                case .success(.osd(let params)):
                    answerLater(client) { [unowned self] reply in self.onOsd(params, reply) }
                    continue
                case .success(let request):
                    // The long replies are encoded as the client reads them, not here in one go.
                    if let toasts = toastsAsked(by: request) {
                        server.send(ToastsReplyPieces(toasts), to: client)
                        continue
                    }
                    reply = handle(request, from: client)
                case .failure(let error): reply = .error(error)
                }
            case .tooLong(let discarded):
                reply = .error(ProtocolError(.lineTooLong, "request line over \(ProtocolLimits.maxLineLength) bytes (\(discarded) discarded)"))
            }
            server.send(reply.encodedLine(), to: client)
        }
    }

    /// Starts a request whose reply may come later: the client's next lines wait for it. A reply for
    /// a client gone meanwhile is dropped.
    private func answerLater(_ client: ControlServer.ClientID, _ start: (@escaping (Reply) -> Void) -> Void) {
        sessions[client]?.awaitingReply = true
        var answered = false, starting = true
        start { [weak self] reply in
            guard let self, !answered, self.sessions[client] != nil else { return }
            answered = true
            self.sessions[client]?.awaitingReply = false
            self.server.send(reply.encodedLine(), to: client)
            // Answered at once: the caller's loop goes on with the next line (no recursion per line).
            if !starting { self.answerLines(of: client) }
        }
        starting = false
    }

    /// One reply for each request; what each asks of the service is one method below.
    private func handle(_ request: Request, from client: ControlServer.ClientID) -> Reply {
        let origin = ClientID.socket(UInt64(client))
        switch request {
        case .notify(let params): return notify(params, origin: origin, for: client)
        case .dismiss(let selection): return dismiss(selection)
        case .list, .history: return .ok(.toasts(toastsAsked(by: request) ?? []))
        case .restore(let wanted): return restore(wanted)
        case .historyClear:
            service.clearHistory()
            return .ok
        case .action(let id, let key, let token): return invoke(key, of: id, activationToken: token)
        case .reply(let id, let text): return reply(text, to: id)
        case .center(let mode):
            onCenter(mode)
            return .ok
        case .focus: return onFocus().map { .ok(.id($0)) } ?? .error(Self.nothingShowing)
        case .dnd(let mode, let until): return doNotDisturb(mode, until: until)
        case .mode(let change): return .ok(.modes(service.changeModes(change)))
        // Just the number: clients print "toastd 0.1.0 (protocol 1)" themselves (docs/protocol.md).
        case .version: return .ok(.version(VersionInfo(daemon: ServerIdentity.version)))
        case .reload: return .ok(.warnings(onReload()))
        case .settings: return .ok(.settings(settings()))
        case .subscribe(let selection): return subscribe(client, to: selection)
        case .status(let follow):
            let status = self.status
            if follow { sessions[client]?.followedStatus = status }
            return .ok(.status(status))
        case .hud(let params): return showBar(params)
        case .hudStream(let params): return startHudStream(params, for: client)
        case .loadingStart(let key, let label, let detach):
            do {
                try service.loadingStart(key: key, label: label, owner: origin, detach: detach)
                return .ok
            } catch {
                return .error(Self.protocolError(error))
            }
        case .loadingStop(let key):
            guard service.loadingStop(key: key, requester: origin) else {
                return .error(ProtocolError(.notFound, "no loading spinner '\(key)' is running"))
            }
            return .ok
        case .osd:
            return .error(ProtocolError(.internalError, "osd is answered by answerLater"))
        }
    }

    private func notify(_ params: NotifyParams, origin: ClientID, for client: ControlServer.ClientID) -> Reply {
        do {
            let id = try service.notify(Self.notification(from: params, origin: origin))
            if params.wait { sessions[client]?.subscribedIDs.insert(id) }
            return .ok(.id(id))
        } catch {
            return .error(Self.protocolError(error))
        }
    }

    private func dismiss(_ selection: DismissSelection) -> Reply {
        switch selection {
        case .all:
            service.dismissAll()
            return .ok
        case .newest:
            guard let id = service.dismissNewest() else { return .error(Self.nothingShowing) }
            return .ok(.id(id))
        case .ids(let ids):
            let missing = ids.filter { !service.close(id: $0, reason: .dismissed) }
            return missing.isEmpty ? .ok : .error(Self.notShowing(missing))
        }
    }

    private func restore(_ wanted: NotificationID?) -> Reply {
        guard let id = service.restore(id: wanted) else {
            return .error(ProtocolError(.notFound, wanted.map { "no toast \($0) in the history" }
                                            ?? "nothing to restore: the history is empty"))
        }
        return .ok(.id(id))
    }

    /// An action of the given toast, or of the newest shown when no id is given.
    private func invoke(_ key: String?, of id: NotificationID?, activationToken: String?) -> Reply {
        guard let id = id ?? service.newestShowing else { return .error(Self.nothingShowing) }
        do {
            try service.invokeAction(id: id, key: key, activationToken: activationToken)
            return .ok
        } catch {
            return .error(Self.protocolError(error))
        }
    }

    /// A reply to the given toast, or to the newest that takes one when no id is given.
    private func reply(_ text: String, to id: NotificationID?) -> Reply {
        guard let id = id ?? service.newestReplyable else {
            return .error(ProtocolError(.notFound, "no open toast takes a reply"))
        }
        do {
            try service.reply(id: id, text: text)
            return .ok(.id(id))
        } catch {
            return .error(Self.protocolError(error))
        }
    }

    private func doNotDisturb(_ mode: DndMode, until: Int64?) -> Reply {
        switch mode {
        case .on: service.setDoNotDisturb(true, until: until)
        case .off: service.setDoNotDisturb(false)
        case .toggle: service.setDoNotDisturb(nil, until: until)
        case .status: break
        }
        return .ok(.dnd(service.model.doNotDisturb, until: service.doNotDisturbUntil))
    }

    private func subscribe(_ client: ControlServer.ClientID, to selection: ToastSelection) -> Reply {
        switch selection {
        case .all:
            sessions[client]?.subscribedToAll = true
            return .ok
        case .ids(let ids):
            let missing = ids.filter { service.model.notification(id: $0) == nil }
            guard missing.isEmpty else { return .error(Self.notShowing(missing)) }
            sessions[client]?.subscribedIDs.formUnion(ids)
            return .ok
        }
    }

    private func showBar(_ params: HudParams) -> Reply {
        do {
            try service.showBar(kind: params.kind, value: params.value, muted: params.muted,
                                label: params.label, icon: params.icon)
            return .ok
        } catch {
            return .error(Self.protocolError(error))
        }
    }

    /// Values read from the descriptor passed with the line show as one bar until the pipe ends.
    private func startHudStream(_ params: HudParams, for client: ControlServer.ClientID) -> Reply {
        guard let streams = hudStreams, let fd = server.takePassedFD(from: client) else {
            return .error(ProtocolError(.unusableDescriptor, "hud_stream needs a descriptor passed with its line"))
        }
        let bar = HudStreams.Bar(kind: params.kind, muted: params.muted, label: params.label, icon: params.icon)
        guard streams.start(fd: fd, bar: bar, owner: client) else {
            return .error(ProtocolError(.unusableDescriptor,
                                        "the passed descriptor cannot be watched (a regular file?) or a stream is already open"))
        }
        return .ok
    }

    /// What `list` and `history` answer with; nil for the other requests.
    private func toastsAsked(by request: Request) -> [ToastInfo]? {
        let now = service.now()
        switch request {
        case .list:
            // The model keeps them newest first; `list` answers oldest first (docs/protocol.md), as they stack.
            return service.model.all.reversed().map { Self.info(of: $0, now: now) }
        case .history:
            return service.model.history.map { Self.info(of: $0.notification, now: now, reason: $0.reason) }
        default:
            return nil
        }
    }

    // MARK: Translations

    /// A `notify` request as the core's request. Hints mean what they mean over D-Bus (one
    /// `HintInterpreter`); the CLI's explicit flags win over hints.
    static func notification(from params: NotifyParams, origin: ClientID) -> NotificationRequest {
        var request = NotificationRequest(appName: params.appName ?? "toast", summary: params.summary,
                                          body: params.body ?? "")
        request.appIcon = params.icon ?? ""
        request.expireTimeout = ExpireTimeout(specValue: params.expireMs)
        request.actions = params.actions
        request.replacesID = params.replaceID ?? 0
        request.origin = origin
        HintInterpreter.apply(hintValues(params.hints), to: &request)
        if let urgency = params.urgency { request.urgency = urgency }
        if let category = params.category { request.category = category }
        if let tag = params.tag { request.tag = tag }
        if let value = params.value { request.progress = value }
        if params.transient || params.alert { request.isTransient = true }
        request.isAlert = params.alert
        return request
    }

    /// notify-send's typed hints in the door-neutral form.
    static func hintValues(_ hints: [Hint]) -> [String: HintValue] {
        var values: [String: HintValue] = [:]
        for hint in hints {
            values[hint.name] = switch hint.value {
            case .int(let value): .integer(Int64(value))
            case .byte(let value): .integer(Int64(value))
            case .double(let value): .double(value)
            case .string(let value): .string(value)
            case .boolean(let value): .boolean(value)
            }
        }
        return values
    }

    /// A toast as `list` and `history` report it.
    static func info(of notification: Notification, now: Instant, reason: CloseReason? = nil) -> ToastInfo {
        ToastInfo(id: notification.id, summary: notification.summary,
                  body: notification.body.isEmpty ? nil : notification.body,
                  appName: notification.appName.isEmpty ? nil : notification.appName,
                  icon: notification.appIcon.isEmpty ? nil : notification.appIcon,
                  urgency: notification.urgency, category: notification.category,
                  tag: notification.tag, value: notification.progress,
                  actions: notification.actions, ageMs: notification.shownAt.map { now - $0 }, reason: reason)
    }

    private static let nothingShowing = ProtocolError(.notFound, "no toast is showing")

    private static func notShowing(_ ids: [NotificationID]) -> ProtocolError {
        ProtocolError(.notFound, "no toast \(ids.map(String.init).joined(separator: ", ")) is showing")
    }

    /// A core refusal as the socket's structured error: the core's words, the protocol's code.
    static func protocolError(_ error: NotificationError) -> ProtocolError {
        switch error {
        case .invalidImage: ProtocolError(.outOfRange, error.description)
        }
    }

    static func protocolError(_ error: ActionError) -> ProtocolError {
        ProtocolError(.notFound, error.description)
    }

    static func protocolError(_ error: HUDError) -> ProtocolError {
        switch error {
        case .emptyBarKind, .emptyLoadingKey: ProtocolError(.missingField, error.description)
        case .tooManyLoadingKeys: ProtocolError(.outOfRange, error.description)
        }
    }
}
