import Glibc
import ToastCore
import ToastDBus
import ToastProtocol
import ToastRender

/// Translations between the front doors' types and the core's. Both doors end in the same
/// `NotificationRequest`, so a toast from the CLI and one from D-Bus behave the same.
enum Requests {
    /// A `notify` from the control socket.
    static func notification(from params: NotifyParams, client: UInt64, icons: inout IconTheme) -> NotificationRequest {
        var request = NotificationRequest(appName: params.appName ?? "toast", summary: params.summary,
                                          body: params.body ?? "")
        request.appIcon = params.icon ?? ""
        request.category = params.category
        request.expireTimeout = ExpireTimeout(dbusValue: params.expireMs)
        request.actions = params.actions.map { NotificationAction(key: $0.key, label: $0.label) }
        request.replacesID = params.replaceID ?? 0
        request.tag = params.tag
        request.progress = params.value
        request.isTransient = params.transient
        request.origin = .socket(client)
        // Hints as notify-send passes them (-h TYPE:NAME:VALUE); explicit flags win over hints.
        for hint in params.hints {
            switch (hint.name, hint.value) {
            case ("urgency", .byte(let level)): request.urgency = ToastCore.Urgency(dbusValue: level)
            case ("urgency", .int(let level)): request.urgency = ToastCore.Urgency(dbusValue: UInt8(clamping: level))
            case ("category", .string(let category)): request.category = request.category ?? category
            case ("desktop-entry", .string(let entry)): request.desktopEntry = entry
            case ("transient", .boolean(let on)): request.isTransient = request.isTransient || on
            case ("transient", .int(let on)): request.isTransient = request.isTransient || on != 0
            case ("transient", .byte(let on)): request.isTransient = request.isTransient || on != 0
            case ("resident", .boolean(let on)): request.isResident = on
            case ("value", .int(let value)): request.progress = request.progress ?? Int(value)
            case ("x-canonical-private-synchronous", .string(let tag)), ("x-dunst-stack-tag", .string(let tag)):
                request.tag = request.tag ?? tag
            case ("image-path", .string(let path)), ("image_path", .string(let path)):
                request.image = .path(path)
            default: break
            }
        }
        if let urgency = params.urgency { request.urgency = coreUrgency(urgency) }
        return withPicture(request, icons: &icons)
    }

    /// A `Notify` call from D-Bus.
    static func notification(from call: BusNotification, icons: inout IconTheme) -> NotificationRequest {
        var request = NotificationRequest(appName: call.appName, summary: call.summary, body: call.body)
        request.appIcon = call.appIcon
        request.actions = call.actions.map { NotificationAction(key: $0.key, label: $0.label) }
        request.replacesID = call.replacesId
        switch call.expiry {
        case .serverDefault: request.expireTimeout = .serverDefault
        case .never: request.expireTimeout = .never
        case .milliseconds(let ms): request.expireTimeout = ExpireTimeout(dbusValue: Int32(clamping: ms))
        }
        let hints = call.hints
        if let urgency = hints.urgency { request.urgency = ToastCore.Urgency(dbusValue: urgency.rawValue) }
        request.category = hints.category
        request.desktopEntry = hints.desktopEntry
        request.isTransient = hints.transient ?? false
        request.isResident = hints.resident ?? false
        request.progress = hints.value
        request.tag = hints.stackTag
        if let image = hints.image {
            request.image = .pixels(ToastCore.RGBAImage(width: image.width, height: image.height, pixels: image.rgba))
        } else if let path = hints.imagePath {
            request.image = .path(path)
        }
        request.origin = .dbus(call.sender)
        return withPicture(request, icons: &icons)
    }

    /// Toasts show pictures at icon size: a large one is shrunk now, and one named by a PNG path
    /// (`image-path`, or an absolute `app_icon`) or by an icon name found in the icon theme is decoded
    /// now, so the model holds small pixels only. A path that is not a regular, readable, sanely sized
    /// PNG shows no picture (nothing blocks on a FIFO or a device).
    static func withPicture(_ request: NotificationRequest, icons: inout IconTheme) -> NotificationRequest {
        var request = request
        switch request.image {
        case .pixels(let image):
            request.image = .pixels(image.downscaled(toFit: maxPictureSide))
        case .path(let path):
            let file = IconTheme.isIconName(path) ? icons.path(forIconNamed: path) : path
            request.image = file.flatMap(loadPicture).map { .pixels($0) }
        case nil:
            let icon = request.appIcon
            let file = IconTheme.isIconName(icon) ? icons.path(forIconNamed: icon)
                : (icon.hasPrefix("/") || icon.hasPrefix("file://")) ? icon : nil
            request.image = file.flatMap(loadPicture).map { .pixels($0) }
        }
        return request
    }

    /// The largest side kept: icon size (48 px) at scale 4, with room to spare.
    static let maxPictureSide = 256

    private static func loadPicture(_ path: String) -> ToastCore.RGBAImage? {
        let path = path.hasPrefix("file://") ? String(path.dropFirst("file://".count)) : path
        var info = stat()
        guard path.hasPrefix("/"), stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              info.st_size > 0, info.st_size <= 16 << 20, access(path, R_OK) == 0,
              let image = ImageFile.loadPNG(path: path) else {
            Log.warning("image \(path): not a readable PNG file; showing no picture")
            return nil
        }
        return ToastCore.RGBAImage(width: image.width, height: image.height, pixels: image.pixels)
            .downscaled(toFit: maxPictureSide)
    }

    static func coreUrgency(_ urgency: ToastProtocol.Urgency) -> ToastCore.Urgency {
        switch urgency {
        case .low: .low
        case .normal: .normal
        case .critical: .critical
        }
    }

    static func protocolUrgency(_ urgency: ToastCore.Urgency) -> ToastProtocol.Urgency {
        switch urgency {
        case .low: .low
        case .normal: .normal
        case .critical: .critical
        }
    }

    static func protocolReason(_ reason: ToastCore.CloseReason) -> ToastProtocol.CloseReason {
        switch reason {
        case .expired: .expired
        case .dismissed: .dismissed
        case .closedByCall: .closed
        case .undefined: .undefined
        }
    }

    static func busReason(_ reason: ToastCore.CloseReason) -> ToastDBus.CloseReason {
        ToastDBus.CloseReason(rawValue: reason.rawValue) ?? .undefined
    }

    /// A toast as `list` and `history` report it.
    static func info(of notification: Notification, now: Instant, reason: ToastCore.CloseReason? = nil) -> ToastInfo {
        ToastInfo(id: notification.id, summary: notification.summary,
                  body: notification.body.isEmpty ? nil : notification.body,
                  appName: notification.appName.isEmpty ? nil : notification.appName,
                  icon: notification.appIcon.isEmpty ? nil : notification.appIcon,
                  urgency: protocolUrgency(notification.urgency), category: notification.category,
                  tag: notification.tag, value: notification.progress,
                  actions: notification.actions.map { NotifyAction(key: $0.key, label: $0.label) },
                  ageMs: notification.shownAt.map { now - $0 }, reason: reason.map(protocolReason))
    }

    /// A core error as the control socket's structured error.
    static func protocolError(_ error: NotificationError) -> ProtocolError {
        switch error {
        case .emptyNotification: ProtocolError(.missingField, "a toast needs a summary, a body, a value or an image")
        case .invalidImage(let why): ProtocolError(.outOfRange, "image: \(why)")
        }
    }

    static func protocolError(_ error: ActionError) -> ProtocolError {
        switch error {
        case .unknownNotification(let id): ProtocolError(.notFound, "no toast \(id) is showing")
        case .unknownAction(let id, let key): ProtocolError(.notFound, "toast \(id) has no action '\(key)'")
        }
    }

    static func protocolError(_ error: HUDError) -> ProtocolError {
        switch error {
        case .emptyBarKind: ProtocolError(.missingField, "a HUD needs a kind")
        case .emptyLoadingKey: ProtocolError(.missingField, "a loading spinner needs a key")
        case .tooManyLoadingKeys: ProtocolError(.outOfRange, "too many loading keys are active")
        }
    }
}
