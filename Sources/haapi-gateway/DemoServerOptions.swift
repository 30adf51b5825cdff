import ArgumentParser
import HAAPIDemoServer

/// The options of `demo-server`, as ``DemoServerArguments`` (which checks them and makes the server's configuration).
struct DemoServerOptions: ParsableArguments {
    @Option(help: "Address to bind. Anything but loopback prints a warning.")
    var host: String = "127.0.0.1"
    @Option(help: "Port to bind; 0 picks a free port.")
    var port: Int = 8443
    @Flag(name: .customLong("nonce"), help: "Issue and require DPoP nonces (use_dpop_nonce challenges).")
    var requireDPoPNonce = false
    @Flag(help: "Answer like a strict Curity deployment: DPoP nonces required and issued per DPoP key; authorization codes bound to the flow's DPoP key (the code exchange needs a proof from it, else invalid_dpop_proof); Curity 11.4's authorization-code-dpop-binding and token-dpop-binding required (an authorize request without dpop_jkt and a token request without a DPoP proof are refused); a stickiness cookie (demo-node, Path=/) that every HAAPI request after authorize must send back, and a demo-unused cookie (Path=/demo-unused) that must never reach HAAPI paths; absolute hrefs on the base URL. Implies --nonce.")
    var strict = false
    @Flag(name: .customLong("consumes-codes-on-refused-proof"), help: "With --strict: a code exchange refused for a missing DPoP proof uses its code up, so that the retry with a proof gets invalid_grant; as a server that does so would (Curity does not document whether it does).")
    var consumesCodesOnRefusedProof = false
    @Option(name: .customLong("authorization-code-dpop-binding"), help: "Curity 11.4's client setting: required (an authorize request without dpop_jkt is refused) or client-requested (a code is bound when the request carries dpop_jkt). Default: required with --strict, else client-requested.")
    var authorizationCodeDPoPBinding: String?
    @Option(name: .customLong("token-dpop-binding"), help: "Curity 11.4's client setting: required (a code exchange or refresh without a DPoP proof is refused) or client-requested (tokens are bound when the request carries a proof). Default: required with --strict, else client-requested.")
    var tokenDPoPBinding: String?
    @Option(name: .customLong("client-key-path"), help: "Write the demo client's private_key_jwt key (PEM) to this path.")
    var clientKeyPath: String?
    @Option(name: .customLong("public-base-url"), help: "Base URL clients use, when it is not http://host:port (as Curity's base-url: DPoP htu, hrefs and the issuer name it).")
    var publicBaseURL: String?
    @Option(name: .customLong("flow-lifetime-seconds"), help: "Lifetime of a login flow.")
    var flowLifetimeSeconds: Double = 600
    @Option(name: .customLong("passkey-rp-id"), help: "WebAuthn relying-party id of the passkey option: the host name browsers use (never an IP address).")
    var passkeyRelyingPartyID: String = "localhost"
    @Option(name: .customLong("passkey-origin"), help: "An origin (scheme://host[:port]) allowed to answer passkey ceremonies; repeatable. http(s)://localhost:* is always allowed for the RP id localhost.")
    var passkeyOrigins: [String] = []
    @Flag(name: .customLong("no-metadata"), help: "Publish no OpenID Connect metadata, as Curity without openid-connect/expose-metadata: clients must name the endpoints.")
    var withoutMetadata = false
    @Flag(name: .customLong("require-attestation"), help: "Refuse HAAPI tokens to the client, as Curity's client without capabilities/haapi/allow-without-attestation refuses an unattested one.")
    var requireAttestation = false
    @Option(name: .customLong("attestation-refused-as"), help: "With --require-attestation: the OAuth error of the refusal, unauthorized_client or invalid_client (Curity does not document which it sends).")
    var attestationRefusedAs: String = DemoAttestationRefusal.unauthorizedClient.rawValue
    @Option(name: .customLong("proof-base-url"), help: "Check DPoP proofs' htu against this base URL instead of the one clients use, as a server behind a proxy that compares proofs with another URL (Curity does not document which URL it compares with).")
    var proofBaseURL: String?
    @Flag(name: .customLong("oauth-metadata"), help: "Also publish RFC 8414 metadata at /.well-known/oauth-authorization-server/oauth/v2/oauth-anonymous, as Curity with authorization-server/expose-metadata.")
    var publishesOAuthMetadata = false
    @Option(name: .customLong("issuer-override"), help: "Name this issuer (an absolute URL, or a path on the base URL) instead of the anonymous endpoint, as Curity's authorization-server/issuer-override; the OpenID Connect metadata stays under the anonymous endpoint.")
    var issuerOverride: String?
    @Flag(name: .customLong("ed448-signing-key"), help: "Publish an Ed448 key in the JWKS and name EdDSA in discovery, as a Curity token profile whose EdDSA key is Ed448 (the demo cannot sign with it, so ID tokens then fail validation).")
    var publishesEd448Key = false
    @Flag(name: .customLong("reuse-refresh-tokens"), help: "Keep the refresh token on a refresh, usable again, as Curity with authorization-server/reuse-refresh-tokens true; by default each refresh rotates it, and one used again after its rotation is refused.")
    var reusesRefreshTokens = false
    @Flag(name: .customLong("revoke-grant-on-refresh-token-reuse"), help: "Revoke the whole sign-in when a rotated refresh token is used again (RFC 9700 reuse detection). This goes beyond Curity, which documents it only for public clients (authorization-server/revoke-delegation-for-public-clients-reusing-refresh-token); the demo's clients are confidential.")
    var revokesGrantOnRefreshTokenReuse = false
    @Option(name: .customLong("redirect-uri-refusal"), help: "How an unregistered redirect URI is refused: error-authorization-response (naming redirect_uri) or invalid-request-problem (a problem naming nothing).")
    var redirectURIRefusal: String = DemoRedirectURIRefusal.errorAuthorizationResponse.rawValue
    @Option(name: .customLong("id-token-algorithm"), help: "Sign ID tokens with es256 (P-256) or ed25519 (EdDSA, as a Curity token profile with an Ed25519 key).")
    var idTokenAlgorithm: String = "es256"
    @Option(name: .customLong("advertise-id-token-algorithm"), help: "Name this algorithm in discovery's id_token_signing_alg_values_supported instead of the one signed with; repeatable.")
    var advertisedIDTokenAlgorithms: [String] = []
    @Option(name: .customLong("max-flows"), help: "The most login flows held at once; beyond it the one expiring first is dropped.")
    var maximumFlows: Int = 10_000
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    /// The options given.
    var arguments: DemoServerArguments {
        var arguments = DemoServerArguments()
        (arguments.host, arguments.port, arguments.requireDPoPNonce, arguments.strict) = (host, port, requireDPoPNonce, strict)
        (arguments.consumesCodesOnRefusedProof, arguments.authorizationCodeDPoPBinding) = (consumesCodesOnRefusedProof, authorizationCodeDPoPBinding)
        (arguments.tokenDPoPBinding, arguments.clientKeyPath, arguments.publicBaseURL) = (tokenDPoPBinding, clientKeyPath, publicBaseURL)
        (arguments.flowLifetimeSeconds, arguments.passkeyRelyingPartyID) = (flowLifetimeSeconds, passkeyRelyingPartyID)
        (arguments.passkeyOrigins, arguments.withoutMetadata, arguments.requireAttestation) = (passkeyOrigins, withoutMetadata, requireAttestation)
        (arguments.attestationRefusedAs, arguments.proofBaseURL) = (attestationRefusedAs, proofBaseURL)
        (arguments.publishesOAuthMetadata, arguments.issuerOverride) = (publishesOAuthMetadata, issuerOverride)
        (arguments.publishesEd448Key, arguments.reusesRefreshTokens) = (publishesEd448Key, reusesRefreshTokens)
        (arguments.revokesGrantOnRefreshTokenReuse, arguments.redirectURIRefusal) = (revokesGrantOnRefreshTokenReuse, redirectURIRefusal)
        (arguments.idTokenAlgorithm, arguments.advertisedIDTokenAlgorithms) = (idTokenAlgorithm, advertisedIDTokenAlgorithms)
        (arguments.maximumFlows, arguments.logLevel) = (maximumFlows, logLevel)
        return arguments
    }
}
