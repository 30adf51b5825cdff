import Foundation
import HAAPI
import HAAPIGateway
import HAAPIHostTools
import Logging

/// The server the tokens of `login` came from, for `keep` and `logout`: the configured upstream, or with `--via` the
/// central gateway, asked as the device client.
struct TokenIssuer {
    /// `upstream` or `gateway`, for messages.
    let name: String
    /// Refreshes and revokes at that server.
    let tokenManager: TokenManager
    /// Which tokens `logout` revokes there.
    let revocation: TokenRevoker.Selection
    /// Releases the HTTP client.
    let shutdown: @Sendable () async -> Void

    /// What a command does with the tokens there, for its messages.
    enum Use {
        case refresh, revoke
    }

    /// The central gateway with `--via`, else the configured upstream; exits when it cannot be set up.
    /// - Parameters:
    ///   - tokenPath: The token file, for messages.
    ///   - use: What the command does with the tokens, for messages.
    static func make(options: ConfigurationOptions, device: DeviceClientOptions, tokenPath: String, use: Use, logger: Logger) async -> TokenIssuer {
        do {
            return try await connect(options: options, device: device, tokenPath: tokenPath, use: use, logger: logger)
        } catch {
            exitWith("haapi-gateway: \(error.message)", status: error.exitStatus)
        }
    }

    /// The central gateway with `--via`, else the configured upstream, or why it cannot be set up (78 bad configuration,
    /// 1 unreachable), for a command that goes on after a failed refresh (`proxy`).
    /// - Parameters:
    ///   - tokenPath: The token file, for messages.
    ///   - use: What the command does with the tokens, for messages.
    static func connect(
        options: ConfigurationOptions,
        device: DeviceClientOptions,
        tokenPath: String,
        use: Use,
        logger: Logger
    ) async throws(HostTokenProblem) -> TokenIssuer {
        var device = device
        // Tokens `login --via` got from a central gateway go back there, as the device client it recorded, unless the
        // command names an upstream or another gateway.
        if device.via == nil, options.upstream == nil, let origin = TokenFile.origin(of: tokenPath), origin.issuedBy == .gateway {
            device.via = origin.issuer
            device.deviceClient = device.deviceClient ?? origin.clientID
        }
        if let gateway = device.gateway {
            let client = try await device.connected(to: gateway, logger: logger)
            return TokenIssuer(
                name: "gateway",
                tokenManager: client.tokenManager,
                revocation: .refreshTokenThenAccessToken,
                shutdown: { try? await client.shutdown() }
            )
        }
        let client = try await UpstreamClient.connect(options: options, tokenPath: tokenPath, use: use, logger: logger)
        return TokenIssuer(
            name: "upstream",
            tokenManager: client.tokenManager,
            revocation: .refreshTokenElseAccessToken,
            shutdown: { try? await client.shutdown() }
        )
    }
}

/// A logger for a terminal command: the gateway's text lines on standard error (control characters escaped), warnings
/// and errors unless `--log-level` says otherwise.
func terminalLogger(level: String?) -> Logger {
    LoggingSettings(level: level.flatMap { Logger.Level(rawValue: $0) } ?? .warning).makeLogger(label: "haapi-gateway")
}
