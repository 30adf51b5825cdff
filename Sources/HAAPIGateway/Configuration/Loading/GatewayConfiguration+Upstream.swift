import Foundation
import HAAPI

extension GatewayConfiguration {
    /// The demo upstream unless `upstream.baseURL` is set; then a full HAAPI client configuration.
    static func resolveUpstream(_ reader: inout ConfigurationReader) -> UpstreamSettings {
        // OAuth writes scopes space-separated (RFC 6749 §3.3: a scope token has no space), so "openid profile" is two
        // wherever it is written, as it would be in a request.
        let scopes =
            reader.list(.upstreamScopes).map { $0.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) } }
            ?? DemoUpstreamSettings().scopes
        let timeout = reader.integer(.upstreamTimeoutSeconds, default: 5)
        // Scopes and the timeout apply to the demo upstream too; every other upstream key needs a real one.
        let sharedKeys: Set<ConfigurationKey> = [.upstreamBaseURL, .upstreamScopes, .upstreamTimeoutSeconds]
        let upstreamKeys = ConfigurationKey.all.filter { $0.section == "upstream" && !sharedKeys.contains($0) }
        guard reader.isSet(.upstreamBaseURL) else {
            for key in upstreamKeys where reader.isSet(key) {
                reader.problem(key, "is set, but \(ConfigurationKey.upstreamBaseURL.path) is not (without it the embedded demo upstream is used)")
            }
            return .demo(
                DemoUpstreamSettings(
                    requireDPoPNonce: reader.boolean(.demoRequireDPoPNonce, default: false),
                    strict: reader.boolean(.demoStrict, default: false),
                    scopes: scopes,
                    timeoutSeconds: timeout
                )
            )
        }
        for key: ConfigurationKey in [.demoRequireDPoPNonce, .demoStrict] where reader.isSet(key) {
            reader.problem(key, "applies to the embedded demo upstream only; remove it or \(ConfigurationKey.upstreamBaseURL.path)")
        }
        let baseURL = reader.httpURL(.upstreamBaseURL) { text in
            // A host name alone (`idsvr.example.com`, `idsvr:8443`): the issuer a default Curity there has.
            guard !text.contains("/"), !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "-.:[]".contains($0) }) else { return nil }
            return "for a Curity Identity Server at that host, its issuer: https://\(text)/oauth/v2/oauth-anonymous"
        }
        if let baseURL { requireHTTPS(&reader, .upstreamBaseURL, baseURL) }
        let clientID = reader.string(.upstreamClientID)
        if clientID == nil { reader.problem(.upstreamClientID, "is required when \(ConfigurationKey.upstreamBaseURL.path) is set") }
        let method = reader.stringOrDefault(.upstreamClientAuthentication)
        var authentication: ClientAuthentication?
        switch method {
        case "secret-basic", "secret-post":
            if reader.isSet(.upstreamClientSecret) || reader.isSet(.upstreamClientSecretFile) {
                if let secret = reader.secret(.upstreamClientSecret, fileKey: .upstreamClientSecretFile) {
                    authentication = method == "secret-basic" ? .secretBasic(secret) : .secretPost(secret)
                }
            } else {
                reader.problem(
                    .upstreamClientSecret,
                    """
                    \(method) needs \(ConfigurationKey.upstreamClientSecret.path) or \(ConfigurationKey.upstreamClientSecretFile.path) (or \
                    \(ConfigurationKey.upstreamClientSecret.environmentName))
                    """
                )
            }
        case "secret-jwt":
            if reader.isSet(.upstreamClientSecret) || reader.isSet(.upstreamClientSecretFile) {
                if let secret = reader.secret(.upstreamClientSecret, fileKey: .upstreamClientSecretFile) { authentication = .secretJWT(secret) }
            } else {
                reader.problem(
                    .upstreamClientSecret,
                    """
                    secret-jwt needs \(ConfigurationKey.upstreamClientSecret.path) or \(ConfigurationKey.upstreamClientSecretFile.path) (the \
                    HS256 key, at least 32 bytes)
                    """
                )
            }
        case "private-key-jwt":
            let name = reader.stringOrDefault(.upstreamClientAssertionAlgorithm)
            let algorithm = ClientAssertionAlgorithm(rawValue: name.uppercased())
            if algorithm == nil {
                reader.problem(.upstreamClientAssertionAlgorithm, "must be ES256, RS256 or PS256; got '\(name)'")
            }
            if reader.isSet(.upstreamPrivateKeyFile) {
                if let pem = reader.fileContents(.upstreamPrivateKeyFile), let algorithm {
                    authentication = .privateKeyJWT(privateKeyPEM: pem, keyID: reader.string(.upstreamKeyID), algorithm: algorithm)
                }
            } else {
                reader.problem(
                    .upstreamPrivateKeyFile,
                    "private-key-jwt needs \(ConfigurationKey.upstreamPrivateKeyFile.path) (a PEM P-256 key for ES256, RSA for RS256 or PS256)"
                )
            }
        case "mtls":
            if reader.isSet(.upstreamClientCertificateFile), reader.isSet(.upstreamPrivateKeyFile) {
                if let certificate = reader.fileContents(.upstreamClientCertificateFile), let key = reader.fileContents(.upstreamPrivateKeyFile) {
                    authentication = .mutualTLS(certificatePEM: certificate, privateKeyPEM: key)
                }
            } else {
                reader.problem(
                    .upstreamClientAuthentication,
                    "mtls needs \(ConfigurationKey.upstreamClientCertificateFile.path) and \(ConfigurationKey.upstreamPrivateKeyFile.path)"
                )
            }
        case "none":
            // A HAAPI client without authentication relies on attestation, which a server cannot produce; Curity most
            // likely refuses it a HAAPI token ([CLIENTAUTH], notes 1.2). Only when the person says their server allows it.
            if reader.booleanOrDefault(.upstreamAllowUnauthenticatedClient) {
                authentication = ClientAuthentication.none
            } else {
                reader.problem(
                    .upstreamClientAuthentication,
                    """
                    none cannot work against a Curity server: a HAAPI client without authentication must attest, and a gateway cannot; use \
                    secret-basic, secret-post, secret-jwt, private-key-jwt or mtls (or set \
                    \(ConfigurationKey.upstreamAllowUnauthenticatedClient.path): true if your server really allows it)
                    """
                )
            }
        default:
            reader.problem(
                .upstreamClientAuthentication,
                "must be secret-basic, secret-post, secret-jwt, private-key-jwt, mtls or none; got '\(method)'"
            )
        }
        if method != "private-key-jwt", reader.isSet(.upstreamClientAssertionAlgorithm) {
            reader.problem(.upstreamClientAssertionAlgorithm, "applies to private-key-jwt only")
        }
        if method != "none", reader.isSet(.upstreamAllowUnauthenticatedClient) {
            reader.problem(.upstreamAllowUnauthenticatedClient, "applies to clientAuthentication: none only")
        }
        let trustRoots = reader.isSet(.upstreamTrustRootsFile) ? reader.fileContents(.upstreamTrustRootsFile).map { [$0] } ?? [] : []
        let parameters = AuthorizationParameters(
            acrValues: reader.list(.upstreamAcrValues) ?? [],
            prompt: reader.string(.upstreamPrompt),
            uiLocales: reader.list(.upstreamUiLocales) ?? [],
            loginHint: reader.string(.upstreamLoginHint),
            maxAgeSeconds: reader.isSet(.upstreamMaxAgeSeconds) ? reader.integer(.upstreamMaxAgeSeconds, default: 0) : nil,
            claims: reader.string(.upstreamClaims)
        )
        if let claims = parameters.claims, (try? JSONSerialization.jsonObject(with: Data(claims.utf8))) as? [String: Any] == nil {
            reader.problem(.upstreamClaims, "must be a JSON object (the OpenID Connect claims request)")
        }
        let bind = reader.booleanOrDefault(.upstreamBindTokensToDPoP)
        let address = resolveUpstreamAddress(&reader, baseURL: baseURL, scopes: scopes)
        guard let baseURL, let clientID, let authentication else { return .demo(DemoUpstreamSettings()) }
        // The connect timeout also bounds the wait for a pooled connection (AsyncHTTPClient), so it is the whole timeout:
        // under many concurrent sign-ins a call may wait for a connection, and only the whole call has a limit.
        var client = HAAPIClientConfiguration(
            baseURL: baseURL,
            clientID: clientID,
            clientAuthentication: authentication,
            additionalTrustRootsPEM: trustRoots,
            redirectURI: reader.stringOrDefault(.upstreamRedirectURI),
            scopes: scopes,
            authorizationParameters: parameters,
            connectTimeout: .seconds(timeout),
            requestTimeout: .seconds(timeout),
            bindTokensToDPoP: bind
        )
        client.endpoints = address.endpoints
        client.internalURL = address.internalURL
        // The client library's own checks (key material, URLs); claims were checked above under their own key.
        // (internalURL and the endpoints were checked above under their own keys.)
        for problem in client.problems where !problem.hasPrefix("claims") && !problem.hasPrefix("internalURL") && !problem.contains(" endpoint must")
        {
            reader.problem(inSection: "upstream", problem)
        }
        return .haapi(client)
    }
}
