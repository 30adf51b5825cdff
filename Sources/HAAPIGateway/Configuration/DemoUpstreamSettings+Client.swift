import Foundation
import HAAPI

extension DemoUpstreamSettings {
    /// The upstream a gateway uses once its embedded demo server listens: that server's issuer and client, with these
    /// settings' scopes and timeout (for connecting and for each request).
    /// - Parameters:
    ///   - issuer: The demo server's issuer.
    ///   - clientID: Its client's id.
    ///   - clientSecret: Its client's secret (`client_secret_basic`).
    ///   - redirectURI: Its client's registered redirect URI.
    public func clientConfiguration(issuer: URL, clientID: String, clientSecret: String, redirectURI: String) -> HAAPIClientConfiguration {
        HAAPIClientConfiguration(
            baseURL: issuer,
            clientID: clientID,
            clientAuthentication: .secretBasic(clientSecret),
            redirectURI: redirectURI,
            scopes: scopes,
            connectTimeout: .seconds(timeoutSeconds),
            requestTimeout: .seconds(timeoutSeconds)
        )
    }
}
