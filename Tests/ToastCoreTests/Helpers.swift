import ToastCore
import ToastVocabulary

/// An instant `milliseconds` after the (arbitrary) start of the test clock.
func t(_ milliseconds: Int64) -> Instant {
    Instant(milliseconds: milliseconds)
}

/// A request with a summary, optionally tagged, urgent or timed.
func request(_ summary: String, body: String = "", app: String = "test", urgency: Urgency = .normal,
             timeout: ExpireTimeout = .serverDefault, tag: String? = nil, replaces: NotificationID = 0,
             actions: [NotificationAction] = [], origin: ClientID? = nil) -> NotificationRequest {
    var request = NotificationRequest(appName: app, summary: summary, body: body)
    request.urgency = urgency
    request.expireTimeout = timeout
    request.tag = tag
    request.replacesID = replaces
    request.actions = actions
    request.origin = origin
    return request
}
