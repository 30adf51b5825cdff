import Foundation
import HAAPI
import HAAPIGateway

/// The tokens of `login`'s token file for a tool on the host (`token`, the credential helpers, `proxy`): as they are
/// while they stay valid long enough, else refreshed first, once however many callers ask at the same moment
/// (``TokenKeeper/refreshOnce(after:stillValid:manager:)``).
public struct CurrentTokens: Sendable {
    /// The token file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The tokens, valid for at least `minimum` seconds (or without an expiry), and the time of their file.
    /// - Parameters:
    ///   - minimum: How long the access token must stay valid; a shorter-lived one is refreshed first.
    ///   - manager: Where a refresh goes; made only when one is needed.
    /// - Returns: The tokens, or why there are none as one line and an exit status.
    public func get(
        validFor minimum: TimeInterval,
        manager: () async throws(HAAPIError) -> TokenManager
    ) async -> Result<(tokens: OAuthTokens, written: Date), HostTokenProblem> {
        guard FileManager.default.fileExists(atPath: path) else { return .failure(.noSignIn(path)) }
        let tokens: OAuthTokens, written: Date
        do throws(GatewayError) {
            (tokens, written) = try TokenFile.read(path)
        } catch {
            return .failure(HostTokenProblem(error.message, exitStatus: 78))
        }
        if TokenKeeper.areValid(tokens, writtenAt: written, for: minimum) { return .success((tokens, written)) }
        if TokenFile.issuedByEmbeddedDemo(path) {
            return .failure(
                HostTokenProblem(
                    "the tokens in \(path) came from the embedded demo upstream, which ended with the login that issued them: they cannot be refreshed; sign in again with haapi-gateway login and an upstream (--upstream, \(ConfigurationKey.upstreamBaseURL.path))"
                )
            )
        }
        let outcome = await TokenKeeper(path: path).refreshOnce(
            after: tokens,
            stillValid: { TokenKeeper.areValid($0, writtenAt: $1, for: minimum) },
            manager: manager
        )
        switch outcome {
        case .refreshed, .refreshedElsewhere:
            do throws(GatewayError) {
                return .success(try TokenFile.read(path))
            } catch {
                return .failure(HostTokenProblem(error.message, exitStatus: 78))
            }
        case .signInAgain:
            return .failure(
                HostTokenProblem(
                    "the refresh token is no longer valid (invalid_grant); \(path) was deleted. Sign in again with haapi-gateway login."
                )
            )
        case .unreadable: return .failure(.noSignIn(path))
        case .noRefreshToken:
            return .failure(
                HostTokenProblem(
                    "the access token in \(path) expires within \(Int(minimum)) s and there is no refresh token: sign in again with haapi-gateway login"
                )
            )
        case .failed(let error): return .failure(HostTokenProblem("the refresh failed: \(error.message)"))
        case .notWritten(let error): return .failure(HostTokenProblem("refreshed, but \(error.message)"))
        case .notLocked(let error): return .failure(HostTokenProblem(error.message))
        case .refused(let error):
            return .failure(
                HostTokenProblem(
                    "the token endpoint refused the refresh: \(LogText.untrusted(error.error + (error.errorDescription.map { ": \($0)" } ?? "")))"
                )
            )
        }
    }
}
