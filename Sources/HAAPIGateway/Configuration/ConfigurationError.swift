/// The configuration cannot be used; ``problems`` lists every problem found (not just the first), each naming the key
/// and where it was set. Never contains a secret value.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// Every problem, in the order found.
    public let problems: [String]

    /// Creates an error from a non-empty list of problems.
    public init(problems: [String]) {
        self.problems = problems
    }

    public var description: String {
        "invalid configuration (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}
