/// An option of `demo-server` refused (``DemoServerArguments``): one line naming the option and what it must be.
public struct DemoServerArgumentProblem: Error, Sendable, Equatable {
    /// The line, naming the option.
    public let message: String

    /// - Parameter message: The line, naming the option.
    public init(_ message: String) {
        self.message = message
    }
}
