import ToastVocabulary

/// Where the daemon's control socket lives.
public enum SocketPath {
    /// The environment variable that overrides the path.
    public static let overrideVariable = "TOASTD_SOCKET"
    /// The socket's file name inside `$XDG_RUNTIME_DIR`.
    public static let fileName = "toastd.sock"
    /// The longest path a `sockaddr_un` holds (108 bytes with the terminating NUL on Linux).
    public static let maxLength = 107

    /// Why no path could be resolved.
    public enum ResolveError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Neither `TOASTD_SOCKET` nor `XDG_RUNTIME_DIR` is set (or both are empty).
        case notSet
        /// `XDG_RUNTIME_DIR` is not an absolute path.
        case relativeRuntimeDir(String)
        /// The path does not fit in a `sockaddr_un`.
        case tooLong(String)

        public var description: String {
            switch self {
            case .notSet:
                "cannot find the toastd socket: neither TOASTD_SOCKET nor XDG_RUNTIME_DIR is set"
            case .relativeRuntimeDir(let dir):
                "XDG_RUNTIME_DIR must be an absolute path, not \"\(dir)\" (or set TOASTD_SOCKET)"
            case .tooLong(let path):
                "socket path is longer than \(SocketPath.maxLength) bytes: \(path)"
            }
        }
    }

    /// `$TOASTD_SOCKET` if set and non-empty, else `$XDG_RUNTIME_DIR/toastd.sock`.
    public static func resolve(environment: [String: String]) -> Result<String, ResolveError> {
        resolve { environment[$0] }
    }

    /// The same, reading variables through `lookup` (e.g. `getenv`), so a caller need not copy the
    /// whole environment.
    public static func resolve(_ lookup: (String) -> String?) -> Result<String, ResolveError> {
        let path: String
        if let explicit = lookup(overrideVariable), !explicit.isEmpty {
            path = explicit
        } else if let dir = lookup("XDG_RUNTIME_DIR"), !dir.isEmpty {
            guard dir.hasPrefix("/") else { return .failure(.relativeRuntimeDir(dir)) }
            path = dir.hasSuffix("/") ? dir + fileName : dir + "/" + fileName
        } else {
            return .failure(.notSet)
        }
        guard path.utf8.count <= maxLength else { return .failure(.tooLong(path)) }
        return .success(path)
    }
}
