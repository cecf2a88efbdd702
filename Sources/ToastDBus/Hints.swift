import ToastVocabulary

/// Brings a Notify call's actions and hints to the door-neutral forms of ToastVocabulary. What the
/// hints mean is decided once, in ToastCore's `HintInterpreter`; here only D-Bus types are unpacked.
public enum Hints {
    /// The hints of a Notify call as `HintValue`s. Integers of every D-Bus type become `.integer`,
    /// `(iiibiiay)` image structures are validated and packed (`.image`); a value whose type means
    /// nothing for any hint is left out, and an image that fails validation is reported in `problems`.
    public static func values(_ hints: [String: BusValue]) -> (values: [String: HintValue], problems: [String]) {
        var values: [String: HintValue] = [:]
        var problems: [String] = []
        for (name, raw) in hints {
            let value = raw.unwrapped
            if HintName.images.contains(name) {
                switch ImageData.hint(value) {
                case .success(let image): values[name] = image
                case .failure(let error): problems.append("\(name): \(error)")
                }
            } else if let converted = hintValue(value) {
                values[name] = converted
            }
        }
        return (values, problems)
    }

    static func hintValue(_ value: BusValue) -> HintValue? {
        switch value {
        case .bool(let b): .boolean(b)
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        default: value.integer.map { .integer(Int64($0)) }
        }
    }

    /// Pairs a flat action list; an odd trailing element is ignored.
    public static func actions(_ flat: [String]) -> [NotificationAction] {
        stride(from: 0, to: flat.count - 1, by: 2).map { NotificationAction(key: flat[$0], label: flat[$0 + 1]) }
    }
}
