/// A spec file that cannot be used: missing, not JSON, or not shaped as the spec's files are.
struct MustacheSpecFileError: Error, CustomStringConvertible {
    let file: String
    let reason: String

    var description: String { "\(file): \(reason)" }
}
