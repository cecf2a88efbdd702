import Glibc

/// Whether a pattern compiles as toastd compiles its `summary~` and `body~` criteria (POSIX extended,
/// without captures): a rule is written only with an expression toastd will take.
enum PosixRegex {
    /// Nil when `pattern` compiles; else the C library's message.
    static func error(_ pattern: String) -> String? {
        var compiled = regex_t()
        let code = regcomp(&compiled, pattern, REG_EXTENDED | REG_NOSUB)
        guard code != 0 else {
            regfree(&compiled)
            return nil
        }
        var buffer = [CChar](repeating: 0, count: 256)
        regerror(code, &compiled, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
