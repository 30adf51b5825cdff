import Foundation
import HAAPI

extension ExecCredential {
    /// What `kube-credential` prints: an ExecCredential with the ID token, or the access token, of the current tokens,
    /// or why not. An ID token that outlives the access token less is refreshed first, as a refresh brings a new one;
    /// should that refresh fail, the ID token read is still given while it has not expired.
    /// - Parameters:
    ///   - version: The apiVersion to answer with.
    ///   - accessToken: Whether the access token is given instead of the ID token (`--access-token`).
    ///   - tokenPath: The token file, for messages.
    ///   - tokens: The tokens, refreshed first when they expire within the seconds given, or why not.
    public static func get(
        version: ExecCredentialVersion,
        accessToken: Bool,
        tokenPath: String,
        tokens: (TimeInterval) async -> Result<(tokens: OAuthTokens, written: Date), HostTokenProblem>
    ) async -> Result<ExecCredential, HostTokenProblem> {
        let minimum = CredentialHelperToken.minimumValidSeconds
        var current: (tokens: OAuthTokens, written: Date)
        switch await tokens(minimum) {
        case .success(let got): current = got
        case .failure(let problem): return .failure(problem)
        }
        if accessToken {
            return CredentialHelperToken.accessToken(of: current.tokens, writtenAt: current.written, path: tokenPath, tool: "kubectl")
                .map { ExecCredential(version: version, token: $0) }
        }
        if let validity = CredentialHelperToken.accessValidityForFreshIDToken(current.tokens, writtenAt: current.written, minimum: minimum),
            case .success(let refreshed) = await tokens(validity)
        {
            current = refreshed
        }
        return CredentialHelperToken.idToken(of: current.tokens, path: tokenPath).map { ExecCredential(version: version, token: $0) }
    }
}
