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

/// A seeded generator, so a test of many random inputs fails the same way every run.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
