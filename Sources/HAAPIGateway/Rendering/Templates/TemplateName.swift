/// A variable name: `.` (the current value) or dotted names (`t.cancelSignIn`); the first part is looked up from the
/// innermost section outwards, the rest inside what it found.
struct TemplateName: Sendable, Equatable, CustomStringConvertible {
    /// The parts of a dotted name; empty for `.`.
    let parts: [String]

    /// - Returns: nil when `text` is not a name (empty parts, whitespace, or the parentheses of another engine's
    ///   transforms).
    init?(_ text: String) {
        if text == "." {
            parts = []
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let allowed = parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && !"(){}<>=\"'".unicodeScalars.contains($0) }
        }
        guard allowed else { return nil }
        self.parts = parts
    }

    var description: String { parts.isEmpty ? "." : parts.joined(separator: ".") }
}
