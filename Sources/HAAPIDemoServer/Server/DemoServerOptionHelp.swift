/// The help of each `demo-server` option, beside ``DemoServerArguments``, which says what the options mean and refuses
/// what they cannot be: `haapi-gateway demo-server --help` prints these.
public enum DemoServerOptionHelp {
    public static let host = "Address to bind. Anything but loopback prints a warning."
    public static let port = "Port to bind; 0 picks a free port."
    public static let requireDPoPNonce = "Issue and require DPoP nonces (use_dpop_nonce challenges)."
    public static let strict =
        "Answer like a strict Curity deployment: DPoP nonces required and issued per DPoP key; authorization codes bound to the flow's DPoP key (the code exchange needs a proof from it, else invalid_dpop_proof); Curity 11.4's authorization-code-dpop-binding and token-dpop-binding required (an authorize request without dpop_jkt and a token request without a DPoP proof are refused); a stickiness cookie (demo-node, Path=/) that every HAAPI request after authorize must send back, and a demo-unused cookie (Path=/demo-unused) that must never reach HAAPI paths; absolute hrefs on the base URL. Implies --nonce."
    public static let consumesCodesOnRefusedProof =
        "With --strict: a code exchange refused for a missing DPoP proof uses its code up, so that the retry with a proof gets invalid_grant; as a server that does so would (Curity does not document whether it does)."
    public static let authorizationCodeDPoPBinding =
        "Curity 11.4's client setting: required (an authorize request without dpop_jkt is refused) or client-requested (a code is bound when the request carries dpop_jkt). Default: required with --strict, else client-requested."
    public static let tokenDPoPBinding =
        "Curity 11.4's client setting: required (a code exchange or refresh without a DPoP proof is refused) or client-requested (tokens are bound when the request carries a proof). Default: required with --strict, else client-requested."
    public static let clientKeyPath = "Write the demo client's private_key_jwt key (PEM) to this path."
    public static let publicBaseURL =
        "Base URL clients use, when it is not http://host:port (as Curity's base-url: DPoP htu, hrefs and the issuer name it)."
    public static let flowLifetimeSeconds = "Lifetime of a login flow."
    public static let passkeyRelyingPartyID = "WebAuthn relying-party id of the passkey option: the host name browsers use (never an IP address)."
    public static let passkeyOrigins =
        "An origin (scheme://host[:port]) allowed to answer passkey ceremonies; repeatable. http(s)://localhost:* is always allowed for the RP id localhost."
    public static let withoutMetadata =
        "Publish no OpenID Connect metadata, as Curity without openid-connect/expose-metadata: clients must name the endpoints."
    public static let requireAttestation =
        "Refuse HAAPI tokens to the client, as Curity's client without capabilities/haapi/allow-without-attestation refuses an unattested one."
    public static let attestationRefusedAs =
        "With --require-attestation: the OAuth error of the refusal, unauthorized_client or invalid_client (Curity does not document which it sends)."
    public static let proofBaseURL =
        "Check DPoP proofs' htu against this base URL instead of the one clients use, as a server behind a proxy that compares proofs with another URL (Curity does not document which URL it compares with)."
    public static let publishesOAuthMetadata =
        "Also publish RFC 8414 metadata at /.well-known/oauth-authorization-server/oauth/v2/oauth-anonymous, as Curity with authorization-server/expose-metadata."
    public static let issuerOverride =
        "Name this issuer (an absolute URL, or a path on the base URL) instead of the anonymous endpoint, as Curity's authorization-server/issuer-override; the OpenID Connect metadata stays under the anonymous endpoint."
    public static let publishesEd448Key =
        "Publish an Ed448 key in the JWKS and name EdDSA in discovery, as a Curity token profile whose EdDSA key is Ed448 (the demo cannot sign with it, so ID tokens then fail validation)."
    public static let reusesRefreshTokens =
        "Keep the refresh token on a refresh, usable again, as Curity with authorization-server/reuse-refresh-tokens true; by default each refresh rotates it, and one used again after its rotation is refused."
    public static let revokesGrantOnRefreshTokenReuse =
        "Revoke the whole sign-in when a rotated refresh token is used again (RFC 9700 reuse detection). This goes beyond Curity, which documents it only for public clients (authorization-server/revoke-delegation-for-public-clients-reusing-refresh-token); the demo's clients are confidential."
    public static let redirectURIRefusal =
        "How an unregistered redirect URI is refused: error-authorization-response (naming redirect_uri) or invalid-request-problem (a problem naming nothing)."
    public static let idTokenAlgorithm = "Sign ID tokens with es256 (P-256) or ed25519 (EdDSA, as a Curity token profile with an Ed25519 key)."
    public static let advertisedIDTokenAlgorithms =
        "Name this algorithm in discovery's id_token_signing_alg_values_supported instead of the one signed with; repeatable."
    public static let maximumFlows = "The most login flows held at once; beyond it the one expiring first is dropped."
    public static let logLevel = "trace, debug, info, notice, warning, error or critical."
}
