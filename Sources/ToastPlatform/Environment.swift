import Glibc

/// The process's environment, read where a value is needed (never cached: `toast reload` sees what
/// is set now).
package enum Environment {
    /// The value of `name`, nil when unset.
    package static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
