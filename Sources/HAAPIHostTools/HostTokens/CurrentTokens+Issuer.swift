import Foundation
import HAAPI
import HAAPIGateway
import Logging

extension CurrentTokens {
    /// The tokens, refreshed first at their ``TokenIssuer`` when they expire within `minimum` seconds, or why not. It never
    /// ends the process: an issuer that cannot be set up or reached for the refresh is a problem like any other (`proxy`
    /// answers with it and goes on).
    /// - Parameters:
    ///   - flags: The configuration's flags, for the upstream.
    ///   - device: `--via` and the device client.
    public func get(
        validFor minimum: TimeInterval,
        flags: ConfigurationFlags,
        device: DeviceClientFlags,
        logger: Logger
    ) async -> Result<(tokens: OAuthTokens, written: Date), HostTokenProblem> {
        let path = path
        var issuer: TokenIssuer?
        var setUpProblem: HostTokenProblem?
        let result = await get(validFor: minimum) { () async throws(HAAPIError) -> TokenManager in
            do throws(HostTokenProblem) {
                let made = try await TokenIssuer.connect(flags: flags, device: device, tokenPath: path, use: .refresh, logger: logger)
                issuer = made
                return made.tokenManager
            } catch {
                setUpProblem = error
                throw HAAPIError(.invalidConfiguration, error.message)
            }
        }
        await issuer?.shutdown()
        if case .failure = result, let setUpProblem { return .failure(setUpProblem) }
        return result
    }
}
