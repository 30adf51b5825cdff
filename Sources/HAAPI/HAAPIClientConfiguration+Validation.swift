import Crypto
import Foundation
import NIOSSL

extension HAAPIClientConfiguration {
    /// Every problem of this configuration, in a stable order; empty when valid. Messages contain no secrets.
    public var problems: [String] {
        var problems: [String] = []
        let scheme = baseURL.scheme?.lowercased()
        if scheme != "http" && scheme != "https" { problems.append("baseURL must use http or https") }
        if (baseURL.host ?? "").isEmpty { problems.append("baseURL must have a host") }
        if baseURL.query != nil || baseURL.fragment != nil { problems.append("baseURL must not have a query or fragment") }
        if let internalURL {
            let internalScheme = internalURL.scheme?.lowercased()
            if internalScheme != "http" && internalScheme != "https" { problems.append("internalURL must use http or https") }
            if (internalURL.host ?? "").isEmpty { problems.append("internalURL must have a host") }
            if !(internalURL.path.isEmpty || internalURL.path == "/") || internalURL.query != nil || internalURL.fragment != nil {
                problems.append("internalURL must be an origin only (scheme, host and port): requests keep the external URL's path")
            }
            if case .mutualTLS = clientAuthentication, internalScheme == "http" {
                problems.append("mutual TLS client authentication needs an https internalURL")
            }
        }
        if let endpoints {
            for (name, url) in endpoints.named {
                let endpointScheme = url.scheme?.lowercased()
                if endpointScheme != "http" && endpointScheme != "https" || (url.host ?? "").isEmpty {
                    problems.append("the \(name) endpoint must be an absolute http(s) URL")
                } else if internalURL != nil, OriginGuard.origin(of: url) != OriginGuard.origin(of: baseURL) {
                    problems.append("the \(name) endpoint must be on the base URL's origin: with internalURL only that origin is reached")
                }
            }
        }
        if clientID.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("clientID must not be empty") }
        if redirectURI.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("redirectURI must not be empty")
        } else if URL(string: redirectURI)?.scheme == nil {
            problems.append("redirectURI must be an absolute URI")
        }
        for scope in scopes where scope.isEmpty || scope.contains(" ") {
            problems.append("scope '\(scope)' must be non-empty and contain no spaces")
        }
        switch clientAuthentication {
        case .none: break
        case .secretBasic(let secret), .secretPost(let secret):
            if secret.isEmpty { problems.append("the client secret must not be empty") }
        case .secretJWT(let secret):
            if secret.utf8.count < 32 { problems.append("a client_secret_jwt secret must be at least 32 bytes for HS256") }
        case .privateKeyJWT(let pem, _, let algorithm):
            if let problem = ClientAssertionSigner.problem(pem: pem, algorithm: algorithm) { problems.append(problem) }
        case .mutualTLS(let certificatePEM, let privateKeyPEM):
            if ((try? NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))) ?? []).isEmpty {
                problems.append("the mutual TLS client certificate must be PEM")
            }
            if (try? NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)) == nil {
                problems.append("the mutual TLS private key must be PEM")
            }
        }
        for (index, pem) in additionalTrustRootsPEM.enumerated() where ((try? NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))) ?? []).isEmpty {
            problems.append("additional trust root \(index + 1) is not a PEM certificate")
        }
        let reserved = authorizationParameters.additional.keys.filter { AuthorizationParameters.reservedNames.contains($0) }.sorted()
        if !reserved.isEmpty { problems.append("additional authorize parameters may not set \(reserved.joined(separator: ", "))") }
        if let maxAge = authorizationParameters.maxAgeSeconds, maxAge < 0 { problems.append("max_age must not be negative") }
        if let claims = authorizationParameters.claims, !((try? JSONSerialization.jsonObject(with: Data(claims.utf8))) is [String: Any]) {
            problems.append("claims must be a JSON object")
        }
        if case .mutualTLS = clientAuthentication, scheme == "http" { problems.append("mutual TLS client authentication needs an https baseURL") }
        if connectTimeout <= .zero { problems.append("connectTimeout must be positive") }
        if requestTimeout <= .zero { problems.append("requestTimeout must be positive") }
        if haapiTokenRefreshMargin < .zero { problems.append("haapiTokenRefreshMargin must not be negative") }
        if maxResponseBodyBytes <= 0 { problems.append("maxResponseBodyBytes must be positive") }
        if maxAutomaticSteps <= 0 { problems.append("maxAutomaticSteps must be positive") }
        if sharedStepCacheSize < 0 { problems.append("sharedStepCacheSize must not be negative") }
        return problems
    }

    /// Checks the configuration.
    /// - Throws: ``HAAPIError/Code/invalidConfiguration`` with every problem in ``HAAPIError/problems``.
    public func validate() throws(HAAPIError) {
        let problems = problems
        guard problems.isEmpty else {
            throw HAAPIError(.invalidConfiguration, "the HAAPI client configuration has \(problems.count) problem(s)", problems: problems)
        }
    }
}
