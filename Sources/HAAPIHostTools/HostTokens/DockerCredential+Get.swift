import Foundation
import HAAPI

extension DockerCredential {
    /// `get`'s answer, as the protocol has it: the credential as JSON, or the line that answers an error (printed on
    /// standard output, as Docker reads it: the not-found message alone, which Docker recognises, and every other
    /// problem after `haapi-gateway: `) with its status.
    /// - Parameters:
    ///   - input: The request on standard input: the server URL.
    ///   - registries: The registries Docker's configuration hands to this helper, or why they cannot be read; read once
    ///     the input names a server.
    ///   - tokenPath: The token file, for messages.
    ///   - tokens: The tokens, refreshed first when they expire within the seconds given, or why not.
    public static func get(
        input: String,
        registries: () -> Result<DockerCredentialRegistries, HostTokenProblem>,
        tokenPath: String,
        tokens: (TimeInterval) async -> Result<(tokens: OAuthTokens, written: Date), HostTokenProblem>
    ) async -> Result<String, HostTokenProblem> {
        guard let serverURL = serverURL(in: input) else { return .failure(HostTokenProblem(missingServerURLMessage)) }
        let named = { (problem: HostTokenProblem) in HostTokenProblem("haapi-gateway: \(problem.message)", exitStatus: problem.exitStatus) }
        let known: DockerCredentialRegistries
        switch registries() {
        case .success(let read): known = read
        case .failure(let problem): return .failure(named(problem))
        }
        guard let registry = known.registry(for: serverURL) else { return .failure(HostTokenProblem(notFoundMessage)) }
        if let refusal = DockerCredentialRegistries.plainHTTPRefusal(serverURL: serverURL, registry: registry) { return .failure(named(refusal)) }
        let current: (tokens: OAuthTokens, written: Date)
        switch await tokens(CredentialHelperToken.minimumValidSeconds) {
        case .success(let got): current = got
        case .failure(let problem): return .failure(named(problem))
        }
        switch CredentialHelperToken.accessToken(of: current.tokens, writtenAt: current.written, path: tokenPath, tool: "docker") {
        case .success(let token): return .success(DockerCredential(serverURL: serverURL, token: token).json)
        case .failure(let problem): return .failure(named(problem))
        }
    }
}
