import Foundation
import HAAPI
import HAAPIGateway

extension TokenRevoker.Outcome {
    /// What `logout` prints after this outcome, or the problem it ends with (status 1; the file kept where it was not
    /// revoked).
    /// - Parameters:
    ///   - tokenPath: The token file, for messages.
    ///   - server: `upstream` or `gateway` (``TokenIssuer/name``), for messages.
    public func report(tokenPath: String, server: String) -> Result<String, HostTokenProblem> {
        switch self {
        case .signedOut:
            .success("Signed out: the tokens were revoked and \(tokenPath) deleted.")
        case .failed(let error):
            .failure(HostTokenProblem("the tokens could not be revoked (\(error.message)); \(tokenPath) was kept, try again"))
        case .refused(let error):
            .failure(HostTokenProblem("the \(server) refused the revocation: \(LogText.untrusted(error.error)); \(tokenPath) was kept"))
        case .notDeleted:
            .failure(HostTokenProblem("revoked, but \(tokenPath) could not be deleted"))
        }
    }
}

extension TokenRevoker {
    /// `logout` of tokens of the embedded demo upstream, which ended with the login that issued them: nothing can use
    /// them and there is nothing to revoke, so the file is deleted without asking any server.
    /// - Returns: What to print, or why the file could not be deleted (status 1).
    public static func discardEmbeddedDemo(tokenFile path: String) -> Result<String, HostTokenProblem> {
        guard discard(tokenFile: path) == .signedOut else { return .failure(HostTokenProblem("\(path) could not be deleted")) }
        return .success(
            "Signed out: the tokens came from the embedded demo upstream, which ended with the login that issued them, so nothing can use them and there was nothing to revoke; \(path) deleted."
        )
    }
}
