import ArgumentParser
import Foundation
import HAAPI
import HAAPIGateway

/// What every command that uses `login`'s tokens on the host shares (`token`, the credential helpers, `proxy`): the
/// token file, the upstream or central gateway a refresh goes to (by default the one `login` recorded in the file), and
/// the way to the current tokens (``CurrentTokens``).
struct HostTokenOptions: ParsableArguments {
    @OptionGroup var options: ConfigurationOptions

    @OptionGroup var device: DeviceClientOptions

    @OptionGroup var tokenFile: TokenFileOption

    func validate() throws {
        try device.validate(against: options)
    }

    /// The tokens, refreshed first when they expire within `minimum` seconds, or why not.
    func current(validFor minimum: TimeInterval) async -> Result<(tokens: OAuthTokens, written: Date), HostTokenProblem> {
        let path = tokenFile.path
        let logger = terminalLogger(level: options.logLevel)
        let (options, device) = (options, device)
        var issuer: TokenIssuer?
        let result = await CurrentTokens(path: path).get(validFor: minimum) { () async throws(HAAPIError) -> TokenManager in
            let made = await TokenIssuer.make(options: options, device: device, tokenPath: path, use: .refresh, logger: logger)
            issuer = made
            return made.tokenManager
        }
        await issuer?.shutdown()
        return result
    }

    /// The tokens as ``current(validFor:)`` has them, or the process ended with the problem's line and status.
    func currentOrExit(validFor minimum: TimeInterval) async -> (tokens: OAuthTokens, written: Date) {
        switch await current(validFor: minimum) {
        case .success(let current): return current
        case .failure(let problem): exitWith("haapi-gateway: \(problem.message)", status: problem.exitStatus)
        }
    }
}
