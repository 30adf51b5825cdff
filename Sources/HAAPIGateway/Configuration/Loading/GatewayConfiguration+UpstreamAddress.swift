import Foundation
import HAAPI

extension GatewayConfiguration {
    /// Where the upstream is and how it is reached, besides its issuer (`upstream.baseURL`): the URL connected to when
    /// that is not the issuer's origin (`upstream.internalURL`), and the endpoints when the server publishes no metadata
    /// (`upstream.endpoints.*` with `upstream.issuer`), as oauth2-proxy's skip-discovery options allow. Every mistake is
    /// a problem.
    static func resolveUpstreamAddress(
        _ reader: inout ConfigurationReader,
        baseURL: URL?,
        scopes: [String]
    ) -> (internalURL: URL?, endpoints: HAAPIEndpoints?) {
        var address: (internalURL: URL?, endpoints: HAAPIEndpoints?) = (nil, nil)
        if let internalURL = reader.httpURL(.upstreamInternalURL) {
            requireHTTPS(&reader, .upstreamInternalURL, internalURL, because: "the client's credentials and the person's sign-in go over it")
            if !(internalURL.path.isEmpty || internalURL.path == "/") || internalURL.query != nil || internalURL.fragment != nil {
                reader.problem(
                    .upstreamInternalURL,
                    "must be an origin only (scheme, host and port): requests keep the paths of \(ConfigurationKey.upstreamBaseURL.path)'s URLs"
                )
            }
            address.internalURL = internalURL
        }
        let endpointKeys: [ConfigurationKey] = [
            .upstreamEndpointsAuthorization, .upstreamEndpointsToken, .upstreamEndpointsRevocation, .upstreamEndpointsJWKS,
            .upstreamEndpointsUserinfo,
        ]
        var endpoints: [ConfigurationKey: URL] = [:]
        for key in endpointKeys {
            guard let url = reader.httpURL(key) else { continue }
            requireHTTPS(&reader, key, url)
            if address.internalURL != nil, let baseURL, OriginGuard.origin(of: url) != OriginGuard.origin(of: baseURL) {
                reader.problem(
                    key,
                    "must be on \(ConfigurationKey.upstreamBaseURL.path)'s origin \(OriginGuard.origin(of: baseURL)): with \(ConfigurationKey.upstreamInternalURL.path) only that origin is reached"
                )
            }
            endpoints[key] = url
        }
        let issuer = reader.string(.upstreamIssuer)
        guard !endpoints.isEmpty || endpointKeys.contains(where: { reader.isSet($0) }) else {
            if issuer != nil {
                reader.problem(
                    .upstreamIssuer,
                    "applies with upstream.endpoints only: with discovery the issuer is \(ConfigurationKey.upstreamBaseURL.path)"
                )
            }
            return address
        }
        for key: ConfigurationKey in [.upstreamEndpointsAuthorization, .upstreamEndpointsToken] where !reader.isSet(key) {
            reader.problem(key, "is required when the endpoints are named (the server's metadata is not read then)")
        }
        if scopes.contains("openid"), !reader.isSet(.upstreamEndpointsJWKS) {
            reader.problem(
                .upstreamEndpointsJWKS,
                "is required with the openid scope: ID tokens are validated against the server's keys (Curity: <issuer>/jwks)"
            )
        }
        if let issuer, URL(string: issuer)?.scheme == nil {
            reader.problem(.upstreamIssuer, "must be the server's issuer identifier, an absolute URL (Curity: its anonymous endpoint)")
        }
        guard let authorization = endpoints[.upstreamEndpointsAuthorization], let token = endpoints[.upstreamEndpointsToken], let baseURL else {
            return address
        }
        let baseText = baseURL.absoluteString
        address.endpoints = HAAPIEndpoints(
            authorization: authorization,
            token: token,
            revocation: endpoints[.upstreamEndpointsRevocation],
            issuer: issuer ?? (baseText.hasSuffix("/") ? String(baseText.dropLast()) : baseText),
            keySet: endpoints[.upstreamEndpointsJWKS],
            userinfo: endpoints[.upstreamEndpointsUserinfo]
        )
        return address
    }
}
