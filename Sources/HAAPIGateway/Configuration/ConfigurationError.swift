/// The configuration cannot be used; ``problems`` lists every problem found (not just the first), each naming the key
/// and where it was set. Never contains a secret value.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// Every problem, in the order found.
    public let problems: [String]
    /// How many of ``problems`` are files or directories that are missing or cannot be read (a certificate, a key,
    /// the templates): a supervisor may retry those once the file is in place, unlike a wrong value.
    public let unreadableInputs: Int
    /// How the configuration asks for log lines to be written, as far as it could be read (the defaults otherwise): a
    /// command writes its failure to start as it would have written its logs, a JSON object with `logging.format: json`.
    public var logging = LoggingSettings()

    /// Creates an error from a non-empty list of problems.
    public init(problems: [String], unreadableInputs: Int = 0) {
        self.problems = problems
        self.unreadableInputs = unreadableInputs
    }

    /// The process exit status: ``StartupFailure/unreadableInputStatus`` (66) when every problem is an unreadable file,
    /// else ``StartupFailure/configurationStatus`` (78).
    public var exitStatus: Int32 {
        !problems.isEmpty && unreadableInputs == problems.count ? StartupFailure.unreadableInputStatus : StartupFailure.configurationStatus
    }

    /// One line for one problem; otherwise a count and a line for each.
    public var description: String {
        if problems.count == 1 { return "invalid configuration: \(problems[0])" }
        return "invalid configuration (\(problems.count) problems):\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}
