import Crypto
import Foundation
import Hummingbird

/// OpenID Connect discovery under the issuer and the JWKS with the id_token signing key.
struct DiscoveryController: Sendable {
    let context: DemoServerContext

    func register(on router: Router<BasicRequestContext>) {
        // Only under the issuer, and only when exposed, as Curity's token service publishes it ([OIDCMETA]).
        if context.configuration.publishesMetadata {
            router.get(RouterPath(DemoPaths.openIDConfiguration)) { _, _ in DemoResponse.json(metadata) }
        }
        if context.configuration.publishesOAuthMetadata {
            router.get(RouterPath(context.oauthMetadataPath)) { _, _ in DemoResponse.json(metadata) }
        }
        router.get(RouterPath(DemoPaths.jwks)) { _, _ in
            DemoResponse.json(["keys": [publishedKey]], contentType: "application/jwk-set+json")
        }
    }

    /// The signing key's public JWK, or with ``DemoServerConfiguration/publishesEd448Key`` an Ed448 key (RFC 8037 §2: `x`
    /// the 57 bytes of the key, derived from the `kid` since nothing is signed with it) under the signing key's `kid`.
    private var publishedKey: [String: String] {
        guard context.configuration.publishesEd448Key else { return context.idTokenSigner.publicJWK }
        let keyID = context.idTokenSigner.keyID
        return [
            "kty": "OKP", "crv": "Ed448", "use": "sig", "alg": "EdDSA", "kid": keyID,
            "x": Base64URL.encode(Data(SHA512.hash(data: Data(keyID.utf8)).prefix(57))),
        ]
    }

    /// The algorithm discovery names by default: the signing key's, or `EdDSA` for the published Ed448 key.
    private var signingAlgorithm: String {
        context.configuration.publishesEd448Key ? "EdDSA" : context.idTokenSigner.algorithm.jwsAlgorithm
    }

    private var metadata: [String: JSONValue] {
        func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
        return [
            "issuer": .string(context.issuer),
            "authorization_endpoint": .string(context.url(DemoPaths.authorize)),
            "token_endpoint": .string(context.url(DemoPaths.token)),
            "revocation_endpoint": .string(context.url(DemoPaths.revoke)),
            "introspection_endpoint": .string(context.url(DemoPaths.introspect)),
            "jwks_uri": .string(context.url(DemoPaths.jwks)),
            "userinfo_endpoint": .string(context.url(DemoPaths.userinfo)),
            "response_types_supported": strings(["code"]),
            "response_modes_supported": strings(["query"]),
            "grant_types_supported": strings(["authorization_code", "refresh_token", "client_credentials"]),
            "subject_types_supported": strings(["public"]),
            "id_token_signing_alg_values_supported": strings(
                context.configuration.advertisedIDTokenAlgorithms ?? [signingAlgorithm]
            ),
            "scopes_supported": strings(["openid", "profile", "email", RegisteredClient.haapiScope]),
            "claims_supported": strings([
                "sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "name", "preferred_username", "email", "email_verified",
            ]),
            "token_endpoint_auth_methods_supported": strings(["client_secret_basic", "client_secret_post", "private_key_jwt"]),
            "token_endpoint_auth_signing_alg_values_supported": strings(["ES256"]),
            "revocation_endpoint_auth_methods_supported": strings(["client_secret_basic", "client_secret_post", "private_key_jwt"]),
            "introspection_endpoint_auth_methods_supported": strings(["client_secret_basic", "client_secret_post", "private_key_jwt"]),
            "code_challenge_methods_supported": strings(["S256"]),
            "dpop_signing_alg_values_supported": strings(["ES256"]),
            "authorization_response_iss_parameter_supported": .bool(true),
        ]
    }
}
