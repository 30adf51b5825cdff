/// A variable name: `.` (the current value) or dotted names (`t.cancelSignIn`); the first part is looked up from the
/// innermost section outwards, the rest inside what it found.
struct TemplateName: Sendable, Equatable, CustomStringConvertible {
    /// The first part, looked up from the innermost section outwards; nil for `.`.
    let head: String?
    /// The parts after the first, each looked up inside what the one before found.
    let tail: [String]

    /// - Returns: nil when `text` is not a name (empty parts, whitespace, or the parentheses of another engine's
    ///   transforms).
    init?(_ text: String) {
        if text == "." {
            head = nil
            tail = []
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let allowed = parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && !"(){}<>=\"'".unicodeScalars.contains($0) }
        }
        guard allowed, let head = parts.first else { return nil }
        self.head = head
        self.tail = Array(parts.dropFirst())
    }

    var description: String { head.map { ([$0] + tail).joined(separator: ".") } ?? "." }
}
