import Foundation
import HAAPIGateway

extension TokenOrigin {
    /// What `login` records for tokens from the configuration's upstream: its issuer and client id; nil when the
    /// configuration names no HAAPI upstream.
    public static func upstream(of configuration: GatewayConfiguration) -> TokenOrigin? {
        guard case .haapi(let upstream) = configuration.upstream else { return nil }
        return TokenOrigin(issuedBy: .upstream, issuer: upstream.baseURL.absoluteString, clientID: upstream.clientID)
    }
}
