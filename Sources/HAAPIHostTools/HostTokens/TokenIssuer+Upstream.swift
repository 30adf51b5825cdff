import Foundation
import HAAPI
import HAAPIGateway

extension TokenIssuer {
    /// The upstream the tokens of `tokenPath` are refreshed or revoked at: the configured one; when the configuration
    /// names none, the one `login` recorded in the token file, with this configuration's client authentication (a secret
    /// from the file, the environment or a flag).
    /// - Parameters:
    ///   - flags: The configuration's flags (the host-side configuration file is read too).
    ///   - tokenPath: The token file.
    ///   - use: What the command does with the tokens, for messages.
    ///   - environment: The process environment.
    /// - Throws: 78 when the configuration cannot be loaded or names no real upstream (the embedded demo upstream lives
    ///   only as long as the command that started it, so its tokens cannot be refreshed or revoked later: the line says
    ///   what to do with such a file).
    public static func upstream(
        flags: ConfigurationFlags,
        tokenPath: String,
        use: Use,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(HostTokenProblem) -> HAAPIClientConfiguration {
        var effective = flags
        let loaded = Result { () throws(ConfigurationError) in try flags.loadForHost(environment: environment) }
        // The configuration names no upstream (a client secret alone is then a mistake): the one `login` recorded.
        if (try? loaded.get())?.upstream.isHAAPI != true, let origin = TokenFile.origin(of: tokenPath), origin.issuedBy == .upstream {
            effective.upstream = origin.issuer
            effective.clientID = effective.clientID ?? origin.clientID
        }
        let configuration: GatewayConfiguration
        do {
            configuration = effective.upstream == flags.upstream ? try loaded.get() : try effective.loadForHost(environment: environment)
        } catch {
            throw HostTokenProblem(error.description, exitStatus: 78)
        }
        guard case .haapi(let upstream) = configuration.upstream else {
            let demo =
                switch use {
                case .revoke: "nothing can use them any more, so just delete \(tokenPath)"
                case .refresh: "they cannot be refreshed: sign in again with an upstream"
                }
            let verb = use == .revoke ? "revoke" : "refresh"
            throw HostTokenProblem(
                "no upstream is configured to \(verb) the tokens of \(tokenPath) at: set the one they came from (--upstream, \(ConfigurationKey.upstreamBaseURL.path)); if they came from the embedded demo upstream (login without one), which ended with that login, \(demo)",
                exitStatus: 78
            )
        }
        return upstream
    }
}
