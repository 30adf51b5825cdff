import Foundation
import HAAPI
import HAAPIGateway
import Logging

/// The server the tokens of `login` came from, for `keep`, `logout` and a refresh of `token`, the credential helpers and
/// `proxy`: the configured upstream (or the one `login` recorded in the token file), or with `--via` the central gateway,
/// asked as the device client.
public struct TokenIssuer: Sendable {
    /// `upstream` or `gateway`, for messages.
    public let name: String
    /// Refreshes and revokes at that server.
    public let tokenManager: TokenManager
    /// Which tokens `logout` revokes there.
    public let revocation: TokenRevoker.Selection
    /// Releases the HTTP client.
    public let shutdown: @Sendable () async -> Void

    /// What a command does with the tokens there, for its messages.
    public enum Use: Sendable {
        case refresh, revoke
    }

    /// The central gateway with `--via` (or the one `login --via` recorded in the token file), else the upstream, or why
    /// it cannot be set up (78 bad configuration, 1 unreachable).
    /// - Parameters:
    ///   - flags: The configuration's flags.
    ///   - device: `--via` and the device client.
    ///   - tokenPath: The token file.
    ///   - use: What the command does with the tokens, for messages.
    public static func connect(
        flags: ConfigurationFlags,
        device: DeviceClientFlags,
        tokenPath: String,
        use: Use,
        logger: Logger
    ) async throws(HostTokenProblem) -> TokenIssuer {
        let device = device.forTokens(in: tokenPath, upstream: flags.upstream)
        if let gateway = device.gateway {
            let client = try await device.connect(to: gateway, logger: logger)
            return TokenIssuer(
                name: "gateway",
                tokenManager: client.tokenManager,
                revocation: .refreshTokenThenAccessToken,
                shutdown: { try? await client.shutdown() }
            )
        }
        let configuration = try upstream(flags: flags, tokenPath: tokenPath, use: use)
        let client: HAAPIClient
        do {
            client = try await HAAPIClient(configuration: configuration, logger: logger)
        } catch {
            throw HostTokenProblem("the upstream could not be reached: \(error.message)")
        }
        return TokenIssuer(
            name: "upstream",
            tokenManager: client.tokenManager,
            revocation: .refreshTokenElseAccessToken,
            shutdown: { try? await client.shutdown() }
        )
    }
}
