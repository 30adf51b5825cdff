import ArgumentParser
import Foundation
import HAAPI
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

    /// The tokens, refreshed first when they expire within `minimum` seconds, or why not
    /// (``CurrentTokens/get(validFor:flags:device:logger:)``).
    func current(validFor minimum: TimeInterval) async -> Result<(tokens: OAuthTokens, written: Date), HostTokenProblem> {
        let logger = terminalLogger(level: options.logLevel)
        return await CurrentTokens(path: tokenFile.path).get(validFor: minimum, flags: options.flags, device: device.flags, logger: logger)
    }

    /// The tokens as ``current(validFor:)`` has them, or the process ended with the problem's line and status.
    func currentOrExit(validFor minimum: TimeInterval) async -> (tokens: OAuthTokens, written: Date) {
        switch await current(validFor: minimum) {
        case .success(let current): return current
        case .failure(let problem): exitWith(problem)
        }
    }
}
