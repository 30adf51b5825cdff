import Foundation
import HAAPI

extension GatewayConfiguration {
    /// How the gateway authenticates as the upstream's client (`upstream.clientAuthentication` and what each method
    /// needs); nil when it is wrong or incomplete, the problems listed.
    static func resolveClientAuthentication(_ reader: inout ConfigurationReader) -> ClientAuthentication? {
        let method = reader.stringOrDefault(.upstreamClientAuthentication)
        let authentication: ClientAuthentication?
        switch method {
        case "secret-basic", "secret-post", "secret-jwt": authentication = sharedSecretAuthentication(&reader, method: method)
        case "private-key-jwt": authentication = privateKeyJWTAuthentication(&reader)
        case "mtls": authentication = mutualTLSAuthentication(&reader)
        case "none": authentication = unauthenticatedClient(&reader)
        default:
            reader.problem(
                .upstreamClientAuthentication,
                "must be secret-basic, secret-post, secret-jwt, private-key-jwt, mtls or none; got '\(method)'"
            )
            authentication = nil
        }
        if method != "private-key-jwt", reader.isSet(.upstreamClientAssertionAlgorithm) {
            reader.problem(.upstreamClientAssertionAlgorithm, "applies to private-key-jwt only")
        }
        if method != "none", reader.isSet(.upstreamAllowUnauthenticatedClient) {
            reader.problem(.upstreamAllowUnauthenticatedClient, "applies to clientAuthentication: none only")
        }
        return authentication
    }

    /// `secret-basic`, `secret-post` or `secret-jwt`: the client secret (`upstream.clientSecret` or its file).
    private static func sharedSecretAuthentication(_ reader: inout ConfigurationReader, method: String) -> ClientAuthentication? {
        guard reader.isSet(.upstreamClientSecret) || reader.isSet(.upstreamClientSecretFile) else {
            let needs =
                method == "secret-jwt"
                ? "secret-jwt needs \(ConfigurationKey.upstreamClientSecret.path) or \(ConfigurationKey.upstreamClientSecretFile.path) (the HS256 key, at least 32 bytes)"
                : "\(method) needs \(ConfigurationKey.upstreamClientSecret.path) or \(ConfigurationKey.upstreamClientSecretFile.path) (or \(ConfigurationKey.upstreamClientSecret.environmentName))"
            reader.problem(.upstreamClientSecret, needs)
            return nil
        }
        guard let secret = reader.secret(.upstreamClientSecret, fileKey: .upstreamClientSecretFile) else { return nil }
        switch method {
        case "secret-basic": return .secretBasic(secret)
        case "secret-post": return .secretPost(secret)
        default: return .secretJWT(secret)
        }
    }

    /// `private-key-jwt`: the assertion's algorithm and the key (`upstream.privateKeyFile`, `upstream.keyID`).
    private static func privateKeyJWTAuthentication(_ reader: inout ConfigurationReader) -> ClientAuthentication? {
        let name = reader.stringOrDefault(.upstreamClientAssertionAlgorithm)
        let algorithm = ClientAssertionAlgorithm(rawValue: name.uppercased())
        if algorithm == nil {
            reader.problem(.upstreamClientAssertionAlgorithm, "must be ES256, RS256 or PS256; got '\(name)'")
        }
        guard reader.isSet(.upstreamPrivateKeyFile) else {
            reader.problem(
                .upstreamPrivateKeyFile,
                "private-key-jwt needs \(ConfigurationKey.upstreamPrivateKeyFile.path) (a PEM P-256 key for ES256, RSA for RS256 or PS256)"
            )
            return nil
        }
        guard let pem = reader.fileContents(.upstreamPrivateKeyFile), let algorithm else { return nil }
        return .privateKeyJWT(privateKeyPEM: pem, keyID: reader.string(.upstreamKeyID), algorithm: algorithm)
    }

    /// `mtls`: the client certificate and its key.
    private static func mutualTLSAuthentication(_ reader: inout ConfigurationReader) -> ClientAuthentication? {
        guard reader.isSet(.upstreamClientCertificateFile), reader.isSet(.upstreamPrivateKeyFile) else {
            reader.problem(
                .upstreamClientAuthentication,
                "mtls needs \(ConfigurationKey.upstreamClientCertificateFile.path) and \(ConfigurationKey.upstreamPrivateKeyFile.path)"
            )
            return nil
        }
        guard let certificate = reader.fileContents(.upstreamClientCertificateFile), let key = reader.fileContents(.upstreamPrivateKeyFile) else {
            return nil
        }
        return .mutualTLS(certificatePEM: certificate, privateKeyPEM: key)
    }

    /// `none`: a HAAPI client without authentication relies on attestation, which a server cannot produce; Curity most
    /// likely refuses it a HAAPI token ([CLIENTAUTH], notes 1.2). Only when the person says their server allows it.
    private static func unauthenticatedClient(_ reader: inout ConfigurationReader) -> ClientAuthentication? {
        guard reader.booleanOrDefault(.upstreamAllowUnauthenticatedClient) else {
            reader.problem(
                .upstreamClientAuthentication,
                "none cannot work against a Curity server: a HAAPI client without authentication must attest, and a gateway cannot; use secret-basic, secret-post, secret-jwt, private-key-jwt or mtls (or set \(ConfigurationKey.upstreamAllowUnauthenticatedClient.path): true if your server really allows it)"
            )
            return nil
        }
        return ClientAuthentication.none
    }

    /// The authorize request's parameters beyond OAuth's own (`acr_values`, `prompt`, `ui_locales`, `login_hint`,
    /// `max_age`, `claims`), the claims request checked to be a JSON object.
    static func resolveAuthorizationParameters(_ reader: inout ConfigurationReader) -> AuthorizationParameters {
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
        return parameters
    }
}
