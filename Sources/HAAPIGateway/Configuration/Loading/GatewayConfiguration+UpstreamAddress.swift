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
        if let internalURL = reader.httpURL("upstream.internalURL") {
            requireHTTPS(&reader, "upstream.internalURL", internalURL, because: "the client's credentials and the person's sign-in go over it")
            if !(internalURL.path.isEmpty || internalURL.path == "/") || internalURL.query != nil || internalURL.fragment != nil {
                reader.problem(
                    "upstream.internalURL",
                    "must be an origin only (scheme, host and port): requests keep the paths of upstream.baseURL's URLs"
                )
            }
            address.internalURL = internalURL
        }
        let names = ["authorization", "token", "revocation", "jwks", "userinfo"]
        var endpoints: [String: URL] = [:]
        for name in names {
            let key = "upstream.endpoints.\(name)"
            guard let url = reader.httpURL(key) else { continue }
            requireHTTPS(&reader, key, url)
            if address.internalURL != nil, let baseURL, OriginGuard.origin(of: url) != OriginGuard.origin(of: baseURL) {
                reader.problem(
                    key,
                    "must be on upstream.baseURL's origin \(OriginGuard.origin(of: baseURL)): with upstream.internalURL only that origin is reached"
                )
            }
            endpoints[name] = url
        }
        let issuer = reader.string("upstream.issuer")
        guard !endpoints.isEmpty || names.contains(where: { reader.isSet("upstream.endpoints.\($0)") }) else {
            if issuer != nil {
                reader.problem("upstream.issuer", "applies with upstream.endpoints only: with discovery the issuer is upstream.baseURL")
            }
            return address
        }
        for name in ["authorization", "token"] where !reader.isSet("upstream.endpoints.\(name)") {
            reader.problem("upstream.endpoints.\(name)", "is required when the endpoints are named (the server's metadata is not read then)")
        }
        if scopes.contains("openid"), !reader.isSet("upstream.endpoints.jwks") {
            reader.problem(
                "upstream.endpoints.jwks",
                "is required with the openid scope: ID tokens are validated against the server's keys (Curity: <issuer>/jwks)"
            )
        }
        if let issuer, URL(string: issuer)?.scheme == nil {
            reader.problem("upstream.issuer", "must be the server's issuer identifier, an absolute URL (Curity: its anonymous endpoint)")
        }
        guard let authorization = endpoints["authorization"], let token = endpoints["token"], let baseURL else { return address }
        let baseText = baseURL.absoluteString
        address.endpoints = HAAPIEndpoints(
            authorization: authorization,
            token: token,
            revocation: endpoints["revocation"],
            issuer: issuer ?? (baseText.hasSuffix("/") ? String(baseText.dropLast()) : baseText),
            keySet: endpoints["jwks"],
            userinfo: endpoints["userinfo"]
        )
        return address
    }
}
