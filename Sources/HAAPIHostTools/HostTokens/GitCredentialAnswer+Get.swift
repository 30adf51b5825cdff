import Foundation
import HAAPI
import HAAPIGateway

extension GitCredentialAnswer {
    /// What `git-credential get` does with a request.
    public enum Outcome: Sendable, Equatable {
        /// The answer, for standard output.
        case answer(String)
        /// Nothing answered, for the reason on this line (standard error; git goes on without a credential, status 0).
        case declined(String)
        /// The problem the command ends with (its line and status).
        case refused(HostTokenProblem)
    }

    /// `git-credential get`: the access token as the password for an https request (or http to this host), none for
    /// plain http to another host (it would cross the network in clear), and a refusal while git would also hand the
    /// token to another credential helper for that URL (``GitCredentialHelperChain``).
    /// - Parameters:
    ///   - input: The request on standard input (key=value lines).
    ///   - helperEntries: git's configured credential helpers, nil when they cannot be read; asked only for a safe request.
    ///   - tokenPath: The token file, for messages.
    ///   - tokens: The tokens, refreshed first when they expire within the seconds given, or why not.
    public static func get(
        input: String,
        helperEntries: () async -> [GitCredentialHelperEntry]?,
        tokenPath: String,
        tokens: (TimeInterval) async -> Result<(tokens: OAuthTokens, written: Date), HostTokenProblem>
    ) async -> Outcome {
        let request: GitCredentialRequest
        switch GitCredentialRequest.parse(input) {
        case .success(let parsed): request = parsed
        case .failure(let problem): return .refused(problem)
        }
        guard request.isSafeForToken else {
            let place = "\(request.scheme ?? "?")://\(request.host ?? "?")"
            return .declined(
                "haapi-gateway: git-credential answers https, and http to this host only: not sending the token to \(LogText.untrusted(place))"
            )
        }
        if let entries = await helperEntries(), let refusal = GitCredentialHelperChain(entries, for: request).refusal(for: request) {
            return .refused(refusal)
        }
        let current: (tokens: OAuthTokens, written: Date)
        switch await tokens(CredentialHelperToken.minimumValidSeconds) {
        case .success(let got): current = got
        case .failure(let problem): return .refused(problem)
        }
        switch CredentialHelperToken.accessToken(of: current.tokens, writtenAt: current.written, path: tokenPath, tool: "git") {
        case .success(let token): return .answer(GitCredentialAnswer(token: token).text)
        case .failure(let problem): return .refused(problem)
        }
    }
}
