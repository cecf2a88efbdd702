// How protocol names become Swift names (see docs/wayland-bindings.md).

let swiftKeywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
    "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
    "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
    "super", "throws", "true", "try",
]

/// `zwlr_layer_shell_v1` → `ZwlrLayerShellV1`.
public func upperCamel(_ name: String) -> String {
    name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

/// `set_input_region` → `setInputRegion`; a leading digit gets a `_` (`90` → `_90`).
public func lowerCamel(_ name: String) -> String {
    let parts = name.split(separator: "_")
    guard let first = parts.first else { return "_" }
    let joined = String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    if let c = joined.first, c.isNumber { return "_" + joined }
    return joined
}

/// A name usable as an identifier: keywords in backticks.
func escaped(_ identifier: String) -> String {
    swiftKeywords.contains(identifier) ? "`\(identifier)`" : identifier
}

/// The Swift name of a nested enum type; names Swift reserves after a dot get an `Enum` suffix.
func enumTypeName(_ name: String) -> String {
    let camel = upperCamel(name)
    return ["Type", "Protocol", "Self", "Any", "Event"].contains(camel) ? camel + "Enum" : camel
}

/// The generated Swift file for a protocol XML path: `…/xdg-shell.xml` → `Protocol_xdg_shell.swift`.
/// (The build plugin repeats this rule to predict its outputs.)
public func swiftFileName(forProtocolFile path: String) -> String {
    var stem = String(path.split(separator: "/").last ?? "")
    if stem.hasSuffix(".xml") { stem.removeLast(4) }
    let safe = String(stem.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    return "Protocol_\(safe).swift"
}

/// The generated file that lists every interface for the runtime's table.
public let interfaceIndexFileName = "WaylandInterfaceIndex.swift"
