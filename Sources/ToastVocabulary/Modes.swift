/// toastd's modes, as mako's (1.7 and later): named switches a user turns on and off (`toast mode`)
/// and that `[mode=NAME]` criteria sections match on. One is built in: `do-not-disturb`, which
/// `toast dnd` turns on and off.
public enum ModeNames {
    /// Held back while on: every notification but critical ones (docs/configuration.md).
    public static let doNotDisturb = "do-not-disturb"
    /// The modes on when toastd starts, as mako's.
    public static let initial = ["default"]
    /// At most this many modes are on at once; more are refused.
    public static let maxCount = 32
    public static let maxNameBytes = 64

    /// A name is 1 to 64 bytes of anything but blanks, control characters, quotes, `=` and brackets
    /// (what a section header could not hold unquoted).
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maxNameBytes && name.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value != 0x7f && !"\"=[]\\".unicodeScalars.contains(scalar)
        }
    }
}
