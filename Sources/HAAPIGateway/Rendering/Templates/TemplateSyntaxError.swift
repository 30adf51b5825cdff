/// Why a template does not compile, with the line it is on (1-based).
struct TemplateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    let line: Int
    let reason: String

    var description: String { "line \(line): \(reason)" }
}
