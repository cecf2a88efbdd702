import Glibc
import ToastCore
import ToastProtocol
import ToastVocabulary

/// The history file's text: a version line, then one JSON object per closed notification, newest
/// first (docs/configuration.md, "Persistent history"). Pure: bytes in, records out, and back.
///
/// ```
/// {"toastd-history":1}
/// {"id":7,"summary":"Build finished","app_name":"toast","urgency":"normal","reason":"expired","created":…,"closed":…}
/// ```
enum HistoryFormat {
    /// The version line's member; a file whose first line lacks it is not ours.
    static let versionKey = "toastd-history"
    static let version: Int64 = 1
    /// What the file may hold: past this, the oldest records are left out. Fifty long bodies stay
    /// well under it; a file this small is written in well under a millisecond.
    static let maxBytes = 512 * 1024

    /// Why a file cannot be read back.
    struct Unreadable: Error, CustomStringConvertible, Equatable {
        var description: String
    }

    /// The file's bytes for `records` (newest first): as many of the newest as fit in `maxBytes`.
    static func encode(_ records: [HistoryRecord], maxBytes: Int = HistoryFormat.maxBytes) -> [UInt8] {
        var bytes = JSONValue.object(JSONObject([(versionKey, .int(version))])).encodedBytes()
        bytes.append(UInt8(ascii: "\n"))
        for record in records {
            let end = bytes.count
            json(record).write(to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
            guard bytes.count <= maxBytes else {
                bytes.removeSubrange(end...)
                break
            }
        }
        return bytes
    }

    /// The records of a file, newest first. A file without the version line, of another version, or
    /// with any line that is not a record, is refused as a whole: it may be someone else's.
    static func decode(_ bytes: [UInt8]) -> Result<[HistoryRecord], Unreadable> {
        bytes.withUnsafeBytes { file in
            var lines = nonEmptyLines(file)[...]
            guard let first = lines.popFirst() else { return .success([]) }
            guard case .success(.object(let header)) = JSONParser.parse(UnsafeRawBufferPointer(rebasing: file[first])),
                  case .int(let found)? = header[versionKey] else {
                return .failure(Unreadable(description: "not a toastd history file (no {\"\(versionKey)\":\(version)} line)"))
            }
            guard found == version else {
                return .failure(Unreadable(description: "history file version \(found); this toastd reads version \(version)"))
            }
            var records: [HistoryRecord] = []
            for (index, line) in lines.enumerated() {
                switch JSONParser.parse(UnsafeRawBufferPointer(rebasing: file[line])) {
                case .failure(let error):
                    return .failure(Unreadable(description: "line \(index + 2): \(error.message)"))
                case .success(let value):
                    guard let record = record(value) else {
                        return .failure(Unreadable(description: "line \(index + 2): not a history record"))
                    }
                    records.append(record)
                }
            }
            return .success(records)
        }
    }

    /// Where the file's non-empty lines are, found with `memchr`: the generic `split` cost ~27
    /// instructions a byte (a file of long bodies, read back at start: ~13M).
    static func nonEmptyLines(_ file: UnsafeRawBufferPointer) -> [Range<Int>] {
        guard let base = file.baseAddress else { return [] }
        var lines: [Range<Int>] = []
        var start = 0
        while start < file.count {
            let end = memchr(base + start, Int32(UInt8(ascii: "\n")), file.count - start)
                .map { $0 - UnsafeMutableRawPointer(mutating: base) } ?? file.count
            if end > start { lines.append(start..<end) }
            start = end + 1
        }
        return lines
    }

    // MARK: One record

    static func json(_ r: HistoryRecord) -> JSONValue {
        var o = JSONObject([("id", .int(Int64(r.id))), ("summary", .string(r.summary))])
        if !r.body.isEmpty { o["body"] = .string(r.body) }
        if !r.appName.isEmpty { o["app_name"] = .string(r.appName) }
        if !r.appIcon.isEmpty { o["icon"] = .string(r.appIcon) }
        o["urgency"] = .string(r.urgency.rawValue)
        if let category = r.category { o["category"] = .string(category) }
        if let entry = r.desktopEntry { o["desktop_entry"] = .string(entry) }
        if let tag = r.tag { o["tag"] = .string(tag) }
        if let value = r.progress { o["value"] = .int(Int64(value)) }
        if r.isResident { o["resident"] = .bool(true) }
        switch r.expireTimeout {
        case .serverDefault: break
        case .never: o["expire_ms"] = .int(0)
        case .after(let ms): o["expire_ms"] = .int(ms)
        }
        if !r.actions.isEmpty {
            o["actions"] = .array(r.actions.map { .object(JSONObject([("key", .string($0.key)), ("label", .string($0.label))])) })
        }
        o["reason"] = .string(r.reason.rawValue)
        o["created"] = .int(r.createdAt)
        if let shown = r.shownAt { o["shown"] = .int(shown) }
        o["closed"] = .int(r.closedAt)
        return .object(o)
    }

    /// The members a record may have. Made once: built per record, this set was a sixth of reading
    /// back a full history at start (50 records: 0.46M of 3.2M instructions).
    static let recordKeys: Set<String> = ["id", "summary", "body", "app_name", "icon", "urgency", "category",
                                          "desktop_entry", "tag", "value", "resident", "expire_ms", "actions",
                                          "reason", "created", "shown", "closed"]

    /// A record from its JSON; nil when a member is missing, of the wrong type, or unknown.
    static func record(_ value: JSONValue) -> HistoryRecord? {
        guard case .object(let o) = value else { return nil }
        guard o.keys.allSatisfy(recordKeys.contains),
              case .int(let id)? = o["id"], id >= 1, id <= Int64(NotificationID.max),
              case .string(let summary)? = o["summary"],
              case .string(let reasonName)? = o["reason"], let reason = CloseReason(rawValue: reasonName),
              case .int(let created)? = o["created"], case .int(let closed)? = o["closed"] else { return nil }
        var r = HistoryRecord(id: NotificationID(id), summary: summary, reason: reason, createdAt: created, closedAt: closed)
        func string(_ key: String) -> String?? {
            switch o[key] {
            case nil: .some(nil)
            case .string(let s)?: .some(s)
            default: .none
            }
        }
        guard let body = string("body"), let appName = string("app_name"), let icon = string("icon"),
              let category = string("category"), let desktopEntry = string("desktop_entry"), let tag = string("tag"),
              let urgencyName = string("urgency") else { return nil }
        r.body = body ?? ""
        r.appName = appName ?? ""
        r.appIcon = icon ?? ""
        r.category = category
        r.desktopEntry = desktopEntry
        r.tag = tag
        if let urgencyName {
            guard let urgency = Urgency(rawValue: urgencyName) else { return nil }
            r.urgency = urgency
        }
        switch o["value"] {
        case nil: break
        case .int(let v)? where (0...100).contains(v): r.progress = Int(v)
        default: return nil
        }
        switch o["resident"] {
        case nil: break
        case .bool(let b)?: r.isResident = b
        default: return nil
        }
        switch o["expire_ms"] {
        case nil: break
        case .int(let ms)? where ms >= 0 && ms <= Int64(Int32.max): r.expireTimeout = ExpireTimeout(specValue: Int32(ms))
        default: return nil
        }
        switch o["shown"] {
        case nil: break
        case .int(let shown)?: r.shownAt = shown
        default: return nil
        }
        switch o["actions"] {
        case nil: break
        case .array(let list)?:
            for item in list {
                guard case .object(let a) = item, a.count == 2, case .string(let key)? = a["key"],
                      case .string(let label)? = a["label"] else { return nil }
                r.actions.append(NotificationAction(key: key, label: label))
            }
        default: return nil
        }
        return r
    }
}
