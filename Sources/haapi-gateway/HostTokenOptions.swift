import ArgumentParser
import Foundation
import HAAPI
import HAAPIGateway
import HAAPIHostTools

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

    /// The tokens, refreshed first when they expire within `minimum` seconds, or why not. It never ends the process: an
    /// upstream that cannot be set up or reached for the refresh is a problem like any other (`proxy` answers with it
    /// and goes on).
    func current(validFor minimum: TimeInterval) async -> Result<(tokens: OAuthTokens, written: Date), HostTokenProblem> {
        let path = tokenFile.path
        let logger = terminalLogger(level: options.logLevel)
        let (options, device) = (options, device)
        var issuer: TokenIssuer?
        var setUpProblem: HostTokenProblem?
        let result = await CurrentTokens(path: path).get(validFor: minimum) { () async throws(HAAPIError) -> TokenManager in
            do throws(HostTokenProblem) {
                let made = try await TokenIssuer.connect(options: options, device: device, tokenPath: path, use: .refresh, logger: logger)
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

    /// The tokens as ``current(validFor:)`` has them, or the process ended with the problem's line and status.
    func currentOrExit(validFor minimum: TimeInterval) async -> (tokens: OAuthTokens, written: Date) {
        switch await current(validFor: minimum) {
        case .success(let current): return current
        case .failure(let problem): exitWith("haapi-gateway: \(problem.message)", status: problem.exitStatus)
        }
    }
}
