import Foundation
import HAAPIGateway

extension HostTokenProblem {
    /// Why `keep` does not start for tokens of the embedded demo upstream, which ended with the login that issued them.
    public static func embeddedDemoTokens(_ tokenPath: String) -> HostTokenProblem {
        HostTokenProblem(
            "the tokens in \(tokenPath) came from the embedded demo upstream, which ended with the login that issued them: they cannot be refreshed; sign in again with an upstream (--upstream, \(ConfigurationKey.upstreamBaseURL.path))"
        )
    }
}
