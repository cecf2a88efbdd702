/// The keys of one JSON object seen so far, for the parser's duplicate check: a scan of an array while
/// the object is small (every message of the protocol is), a set beyond.
///
/// Why not always a `Set<String>`: its first use in a process makes the Swift runtime look up
/// `String: Hashable` by walking every protocol conformance record of the binary (thousands in the
/// static CLI), a noticeable part of the `toast` CLI's start, which parses one small reply. The set
/// keeps an object with thousands of keys (a hostile request) linear.
struct KeySet {
    /// Up to this many keys are scanned.
    static let scanLimit = 16

    private var small: [String] = []
    private var large: Set<String>?

    /// Adds `key`; false when it was already there.
    mutating func insert(_ key: String) -> Bool {
        if large != nil { return large!.insert(key).inserted }
        if small.contains(key) { return false }
        small.append(key)
        if small.count > Self.scanLimit {
            large = Set(small)
            small = []
        }
        return true
    }
}
