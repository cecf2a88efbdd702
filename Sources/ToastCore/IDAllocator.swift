import ToastVocabulary

/// Hands out notification ids: increasing from 1, wrapping past `UInt32.max`, skipping 0 and ids in use.
struct IDAllocator {
    private(set) var next: NotificationID

    init(next: NotificationID = 1) {
        self.next = next
    }

    /// The next free id. Terminates because the store caps how many ids are in use.
    mutating func allocate(isInUse: (NotificationID) -> Bool) -> NotificationID {
        var candidate = next
        while candidate == 0 || isInUse(candidate) {
            candidate &+= 1
        }
        next = candidate &+ 1
        return candidate
    }
}
