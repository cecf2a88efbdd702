#if canImport(Glibc)
import Glibc
#endif

/// "No such file or directory (errno 2)".
func errnoText(_ e: Int32) -> String {
    guard let s = strerror(e) else { return "errno \(e)" }
    return "\(String(cString: s)) (errno \(e))"
}
