/// Why a tool on the host gets no token from the token file: one line for standard error, and the exit status of the
/// command that ends with it (1: sign in again or retry; 78: a bad token file or configuration).
public struct HostTokenProblem: Error, Sendable, Equatable {
    /// One line, without a token; what to do is in it.
    public let message: String
    /// 1, or 78 for a bad token file or configuration.
    public let exitStatus: Int32

    public init(_ message: String, exitStatus: Int32 = 1) {
        self.message = message
        self.exitStatus = exitStatus
    }

    /// There is no token file: sign in first.
    public static func noSignIn(_ path: String) -> HostTokenProblem {
        HostTokenProblem("no sign-in in \(path): run haapi-gateway login")
    }
}
