import ArgumentParser
import HAAPIDemoServer

/// The options of `demo-server`, as ``DemoServerArguments`` (which checks them and makes the server's configuration).
struct DemoServerOptions: ParsableArguments {
    @Option(help: .init(DemoServerOptionHelp.host))
    var host: String = "127.0.0.1"
    @Option(help: .init(DemoServerOptionHelp.port))
    var port: Int = 8443
    @Flag(name: .customLong("nonce"), help: .init(DemoServerOptionHelp.requireDPoPNonce))
    var requireDPoPNonce = false
    @Flag(help: .init(DemoServerOptionHelp.strict))
    var strict = false
    @Flag(name: .customLong("consumes-codes-on-refused-proof"), help: .init(DemoServerOptionHelp.consumesCodesOnRefusedProof))
    var consumesCodesOnRefusedProof = false
    @Option(name: .customLong("authorization-code-dpop-binding"), help: .init(DemoServerOptionHelp.authorizationCodeDPoPBinding))
    var authorizationCodeDPoPBinding: String?
    @Option(name: .customLong("token-dpop-binding"), help: .init(DemoServerOptionHelp.tokenDPoPBinding))
    var tokenDPoPBinding: String?
    @Option(name: .customLong("client-key-path"), help: .init(DemoServerOptionHelp.clientKeyPath))
    var clientKeyPath: String?
    @Option(name: .customLong("public-base-url"), help: .init(DemoServerOptionHelp.publicBaseURL))
    var publicBaseURL: String?
    @Option(name: .customLong("flow-lifetime-seconds"), help: .init(DemoServerOptionHelp.flowLifetimeSeconds))
    var flowLifetimeSeconds: Double = 600
    @Option(name: .customLong("passkey-rp-id"), help: .init(DemoServerOptionHelp.passkeyRelyingPartyID))
    var passkeyRelyingPartyID: String = "localhost"
    @Option(name: .customLong("passkey-origin"), help: .init(DemoServerOptionHelp.passkeyOrigins))
    var passkeyOrigins: [String] = []
    @Flag(name: .customLong("no-metadata"), help: .init(DemoServerOptionHelp.withoutMetadata))
    var withoutMetadata = false
    @Flag(name: .customLong("require-attestation"), help: .init(DemoServerOptionHelp.requireAttestation))
    var requireAttestation = false
    @Option(name: .customLong("attestation-refused-as"), help: .init(DemoServerOptionHelp.attestationRefusedAs))
    var attestationRefusedAs: String = DemoAttestationRefusal.unauthorizedClient.rawValue
    @Option(name: .customLong("proof-base-url"), help: .init(DemoServerOptionHelp.proofBaseURL))
    var proofBaseURL: String?
    @Flag(name: .customLong("oauth-metadata"), help: .init(DemoServerOptionHelp.publishesOAuthMetadata))
    var publishesOAuthMetadata = false
    @Option(name: .customLong("issuer-override"), help: .init(DemoServerOptionHelp.issuerOverride))
    var issuerOverride: String?
    @Flag(name: .customLong("ed448-signing-key"), help: .init(DemoServerOptionHelp.publishesEd448Key))
    var publishesEd448Key = false
    @Flag(name: .customLong("reuse-refresh-tokens"), help: .init(DemoServerOptionHelp.reusesRefreshTokens))
    var reusesRefreshTokens = false
    @Flag(name: .customLong("revoke-grant-on-refresh-token-reuse"), help: .init(DemoServerOptionHelp.revokesGrantOnRefreshTokenReuse))
    var revokesGrantOnRefreshTokenReuse = false
    @Option(name: .customLong("redirect-uri-refusal"), help: .init(DemoServerOptionHelp.redirectURIRefusal))
    var redirectURIRefusal: String = DemoRedirectURIRefusal.errorAuthorizationResponse.rawValue
    @Option(name: .customLong("id-token-algorithm"), help: .init(DemoServerOptionHelp.idTokenAlgorithm))
    var idTokenAlgorithm: String = "es256"
    @Option(name: .customLong("advertise-id-token-algorithm"), help: .init(DemoServerOptionHelp.advertisedIDTokenAlgorithms))
    var advertisedIDTokenAlgorithms: [String] = []
    @Option(name: .customLong("max-flows"), help: .init(DemoServerOptionHelp.maximumFlows))
    var maximumFlows: Int = 10_000
    @Option(name: .customLong("log-level"), help: .init(DemoServerOptionHelp.logLevel))
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
