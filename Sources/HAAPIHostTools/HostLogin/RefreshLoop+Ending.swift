import Foundation
import HAAPI
import HAAPIGateway

extension RefreshLoop.Ending {
    /// How `keep` ends after this: nil when it stopped as asked, else the problem to print and its exit status (78 for a
    /// token file that cannot be read, else 1).
    /// - Parameter tokenPath: The token file, for messages.
    public func problem(tokenPath: String) -> HostTokenProblem? {
        switch self {
        case .stopped: nil
        case .unreadable(let error): HostTokenProblem(error.message, exitStatus: 78)
        case .failed(let error): HostTokenProblem("the refresh failed: \(error.message)")
        case .noRefreshToken: HostTokenProblem("the tokens in \(tokenPath) have no refresh token; sign in again")
        case .notWritten(let error): HostTokenProblem("refreshed, but \(error.message)")
        case .signInAgain:
            HostTokenProblem(
                "the refresh token is no longer valid (invalid_grant); \(tokenPath) was deleted. Sign in again with haapi-gateway login."
            )
        case .notLocked(let error): HostTokenProblem(error.message)
        case .refused(let error):
            HostTokenProblem(
                "the token endpoint refused the refresh: \(LogText.untrusted(error.error + (error.errorDescription.map { ": \($0)" } ?? "")))"
            )
        }
    }
}
