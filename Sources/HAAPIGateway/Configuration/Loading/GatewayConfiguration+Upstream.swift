import Foundation
import HAAPI

extension GatewayConfiguration {
    /// The demo upstream unless `upstream.baseURL` is set; then a full HAAPI client configuration.
    static func resolveUpstream(_ reader: inout ConfigurationReader) -> UpstreamSettings {
        // OAuth writes scopes space-separated (RFC 6749 §3.3: a scope token has no space), so "openid profile" is two
        // wherever it is written, as it would be in a request.
        let scopes =
            reader.list("upstream.scopes").map { $0.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) } }
            ?? DemoUpstreamSettings().scopes
        let timeout = reader.integer("upstream.timeoutSeconds", default: 5)
        // Scopes and the timeout apply to the demo upstream too; every other upstream key needs a real one.
        let sharedKeys: Set = ["upstream.baseURL", "upstream.scopes", "upstream.timeoutSeconds"]
        let upstreamKeys = ConfigurationKey.all.filter { $0.section == "upstream" && !sharedKeys.contains($0.path) }
        guard reader.isSet("upstream.baseURL") else {
            for key in upstreamKeys where reader.isSet(key.path) {
                reader.problem(key.path, "is set, but upstream.baseURL is not (without it the embedded demo upstream is used)")
            }
            return .demo(
                DemoUpstreamSettings(
                    requireDPoPNonce: reader.boolean("demo.requireDPoPNonce", default: false),
                    strict: reader.boolean("demo.strict", default: false),
                    scopes: scopes,
                    timeoutSeconds: timeout
                )
            )
        }
        for key in ["demo.requireDPoPNonce", "demo.strict"] where reader.isSet(key) {
            reader.problem(key, "applies to the embedded demo upstream only; remove it or upstream.baseURL")
        }
        let baseURL = reader.httpURL("upstream.baseURL") { text in
            // A host name alone (`idsvr.example.com`, `idsvr:8443`): the issuer a default Curity there has.
            guard !text.contains("/"), !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "-.:[]".contains($0) }) else { return nil }
            return "for a Curity Identity Server at that host, its issuer: https://\(text)/oauth/v2/oauth-anonymous"
        }
        if let baseURL { requireHTTPS(&reader, "upstream.baseURL", baseURL) }
        let clientID = reader.string("upstream.clientID")
        if clientID == nil { reader.problem("upstream.clientID", "is required when upstream.baseURL is set") }
        let method = reader.stringOrDefault("upstream.clientAuthentication")
        var authentication: ClientAuthentication?
        switch method {
        case "secret-basic", "secret-post":
            if reader.isSet("upstream.clientSecret") || reader.isSet("upstream.clientSecretFile") {
                if let secret = reader.secret("upstream.clientSecret", fileKey: "upstream.clientSecretFile") {
                    authentication = method == "secret-basic" ? .secretBasic(secret) : .secretPost(secret)
                }
            } else {
                reader.problem(
                    "upstream.clientSecret",
                    """
                    \(method) needs upstream.clientSecret or upstream.clientSecretFile (or \
                    \(ConfigurationKey.byPath["upstream.clientSecret"]!.environmentName))
                    """
                )
            }
        case "secret-jwt":
            if reader.isSet("upstream.clientSecret") || reader.isSet("upstream.clientSecretFile") {
                if let secret = reader.secret("upstream.clientSecret", fileKey: "upstream.clientSecretFile") { authentication = .secretJWT(secret) }
            } else {
                reader.problem(
                    "upstream.clientSecret",
                    "secret-jwt needs upstream.clientSecret or upstream.clientSecretFile (the HS256 key, at least 32 bytes)"
                )
            }
        case "private-key-jwt":
            let name = reader.stringOrDefault("upstream.clientAssertionAlgorithm")
            let algorithm = ClientAssertionAlgorithm(rawValue: name.uppercased())
            if algorithm == nil {
                reader.problem("upstream.clientAssertionAlgorithm", "must be ES256, RS256 or PS256; got '\(name)'")
            }
            if reader.isSet("upstream.privateKeyFile") {
                if let pem = reader.fileContents("upstream.privateKeyFile"), let algorithm {
                    authentication = .privateKeyJWT(privateKeyPEM: pem, keyID: reader.string("upstream.keyID"), algorithm: algorithm)
                }
            } else {
                reader.problem(
                    "upstream.privateKeyFile",
                    "private-key-jwt needs upstream.privateKeyFile (a PEM P-256 key for ES256, RSA for RS256 or PS256)"
                )
            }
        case "mtls":
            if reader.isSet("upstream.clientCertificateFile"), reader.isSet("upstream.privateKeyFile") {
                if let certificate = reader.fileContents("upstream.clientCertificateFile"), let key = reader.fileContents("upstream.privateKeyFile") {
                    authentication = .mutualTLS(certificatePEM: certificate, privateKeyPEM: key)
                }
            } else {
                reader.problem("upstream.clientAuthentication", "mtls needs upstream.clientCertificateFile and upstream.privateKeyFile")
            }
        case "none":
            // A HAAPI client without authentication relies on attestation, which a server cannot produce; Curity most
            // likely refuses it a HAAPI token ([CLIENTAUTH], notes 1.2). Only when the person says their server allows it.
            if reader.booleanOrDefault("upstream.allowUnauthenticatedClient") {
                authentication = ClientAuthentication.none
            } else {
                reader.problem(
                    "upstream.clientAuthentication",
                    """
                    none cannot work against a Curity server: a HAAPI client without authentication must attest, and a gateway cannot; \
                    use secret-basic, secret-post, secret-jwt, private-key-jwt or mtls (or set upstream.allowUnauthenticatedClient: true \
                    if your server really allows it)
                    """
                )
            }
        default:
            reader.problem(
                "upstream.clientAuthentication",
                "must be secret-basic, secret-post, secret-jwt, private-key-jwt, mtls or none; got '\(method)'"
            )
        }
        if method != "private-key-jwt", reader.isSet("upstream.clientAssertionAlgorithm") {
            reader.problem("upstream.clientAssertionAlgorithm", "applies to private-key-jwt only")
        }
        if method != "none", reader.isSet("upstream.allowUnauthenticatedClient") {
            reader.problem("upstream.allowUnauthenticatedClient", "applies to clientAuthentication: none only")
        }
        let trustRoots = reader.isSet("upstream.trustRootsFile") ? reader.fileContents("upstream.trustRootsFile").map { [$0] } ?? [] : []
        let parameters = AuthorizationParameters(
            acrValues: reader.list("upstream.acrValues") ?? [],
            prompt: reader.string("upstream.prompt"),
            uiLocales: reader.list("upstream.uiLocales") ?? [],
            loginHint: reader.string("upstream.loginHint"),
            maxAgeSeconds: reader.isSet("upstream.maxAgeSeconds") ? reader.integer("upstream.maxAgeSeconds", default: 0) : nil,
            claims: reader.string("upstream.claims")
        )
        if let claims = parameters.claims, (try? JSONSerialization.jsonObject(with: Data(claims.utf8))) as? [String: Any] == nil {
            reader.problem("upstream.claims", "must be a JSON object (the OpenID Connect claims request)")
        }
        let bind = reader.booleanOrDefault("upstream.bindTokensToDPoP")
        let address = resolveUpstreamAddress(&reader, baseURL: baseURL, scopes: scopes)
        guard let baseURL, let clientID, let authentication else { return .demo(DemoUpstreamSettings()) }
        // The connect timeout also bounds the wait for a pooled connection (AsyncHTTPClient), so it is the whole timeout:
        // under many concurrent sign-ins a call may wait for a connection, and only the whole call has a limit.
        var client = HAAPIClientConfiguration(
            baseURL: baseURL,
            clientID: clientID,
            clientAuthentication: authentication,
            additionalTrustRootsPEM: trustRoots,
            redirectURI: reader.stringOrDefault("upstream.redirectURI"),
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
            reader.problem("upstream", problem)
        }
        return .haapi(client)
    }
}
