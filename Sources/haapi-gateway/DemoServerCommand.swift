import ArgumentParser
import Foundation
import HAAPIDemoServer
import HAAPIGateway
import Hummingbird
import Logging

/// `haapi-gateway demo-server`: runs the embedded demo HAAPI server on its own.
struct DemoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-server",
        abstract: "Run the demo HAAPI server (demo users, client demo-gateway/demo-secret). Not an identity provider.",
        discussion: "A failure to start is one line on standard error. \(StartupFailure.exitStatusHelp)"
    )

    @Option(help: "Address to bind. Anything but loopback prints a warning.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free port.")
    var port: Int = 8443

    @Flag(name: .customLong("nonce"), help: "Issue and require DPoP nonces (use_dpop_nonce challenges).")
    var requireDPoPNonce = false

    @Flag(
        help: """
            Answer like a strict Curity deployment: DPoP nonces required and issued per DPoP key; authorization codes bound \
            to the flow's DPoP key (the code exchange needs a proof from it, else invalid_dpop_proof); Curity 11.4's \
            authorization-code-dpop-binding and token-dpop-binding required (an authorize request without dpop_jkt and a \
            token request without a DPoP proof are refused); a stickiness cookie \
            (demo-node, Path=/) that every HAAPI request after authorize must send back, and a demo-unused cookie \
            (Path=/demo-unused) that must never reach HAAPI paths; absolute hrefs on the base URL. Implies --nonce.
            """
    )
    var strict = false

    @Flag(
        name: .customLong("consumes-codes-on-refused-proof"),
        help: """
            With --strict: a code exchange refused for a missing DPoP proof uses its code up, so that the retry with a proof \
            gets invalid_grant; as a server that does so would (Curity does not document whether it does).
            """
    )
    var consumesCodesOnRefusedProof = false

    @Option(
        name: .customLong("authorization-code-dpop-binding"),
        help: """
            Curity 11.4's client setting: required (an authorize request without dpop_jkt is refused) or client-requested \
            (a code is bound when the request carries dpop_jkt). Default: required with --strict, else client-requested.
            """
    )
    var authorizationCodeDPoPBinding: String?

    @Option(
        name: .customLong("token-dpop-binding"),
        help: """
            Curity 11.4's client setting: required (a code exchange or refresh without a DPoP proof is refused) or \
            client-requested (tokens are bound when the request carries a proof). Default: required with --strict, else \
            client-requested.
            """
    )
    var tokenDPoPBinding: String?

    @Option(name: .customLong("client-key-path"), help: "Write the demo client's private_key_jwt key (PEM) to this path.")
    var clientKeyPath: String?

    @Option(
        name: .customLong("public-base-url"),
        help: "Base URL clients use, when it is not http://host:port (as Curity's base-url: DPoP htu, hrefs and the issuer name it)."
    )
    var publicBaseURL: String?

    @Option(name: .customLong("flow-lifetime-seconds"), help: "Lifetime of a login flow.")
    var flowLifetimeSeconds: Double = 600

    @Option(
        name: .customLong("passkey-rp-id"),
        help: "WebAuthn relying-party id of the passkey option: the host name browsers use (never an IP address)."
    )
    var passkeyRelyingPartyID: String = "localhost"

    @Option(
        name: .customLong("passkey-origin"),
        help:
            """
            An origin (scheme://host[:port]) allowed to answer passkey ceremonies; repeatable. http(s)://localhost:* is always allowed \
            for the RP id localhost.
            """
    )
    var passkeyOrigins: [String] = []

    @Flag(
        name: .customLong("no-metadata"),
        help: "Publish no OpenID Connect metadata, as Curity without openid-connect/expose-metadata: clients must name the endpoints."
    )
    var withoutMetadata = false

    @Flag(
        name: .customLong("require-attestation"),
        help: "Refuse HAAPI tokens to the client, as Curity's client without capabilities/haapi/allow-without-attestation refuses an unattested one."
    )
    var requireAttestation = false

    @Option(
        name: .customLong("attestation-refused-as"),
        help: """
            With --require-attestation: the OAuth error of the refusal, unauthorized_client or invalid_client (Curity does not \
            document which it sends).
            """
    )
    var attestationRefusedAs: String = DemoAttestationRefusal.unauthorizedClient.rawValue

    @Option(
        name: .customLong("proof-base-url"),
        help: """
            Check DPoP proofs' htu against this base URL instead of the one clients use, as a server behind a proxy that \
            compares proofs with another URL (Curity does not document which URL it compares with).
            """
    )
    var proofBaseURL: String?

    @Flag(
        name: .customLong("oauth-metadata"),
        help: """
            Also publish RFC 8414 metadata at /.well-known/oauth-authorization-server/oauth/v2/oauth-anonymous, as Curity \
            with authorization-server/expose-metadata.
            """
    )
    var publishesOAuthMetadata = false

    @Option(
        name: .customLong("issuer-override"),
        help: """
            Name this issuer (an absolute URL, or a path on the base URL) instead of the anonymous endpoint, as Curity's \
            authorization-server/issuer-override; the OpenID Connect metadata stays under the anonymous endpoint.
            """
    )
    var issuerOverride: String?

    @Flag(
        name: .customLong("ed448-signing-key"),
        help: """
            Publish an Ed448 key in the JWKS and name EdDSA in discovery, as a Curity token profile whose EdDSA key is \
            Ed448 (the demo cannot sign with it, so ID tokens then fail validation).
            """
    )
    var publishesEd448Key = false

    @Flag(
        name: .customLong("reuse-refresh-tokens"),
        help: """
            Keep the refresh token on a refresh, usable again, as Curity with authorization-server/reuse-refresh-tokens \
            true; by default each refresh rotates it, and one used again after its rotation is refused.
            """
    )
    var reusesRefreshTokens = false

    @Flag(
        name: .customLong("revoke-grant-on-refresh-token-reuse"),
        help: """
            Revoke the whole sign-in when a rotated refresh token is used again (RFC 9700 reuse detection). This goes \
            beyond Curity, which documents it only for public clients \
            (authorization-server/revoke-delegation-for-public-clients-reusing-refresh-token); the demo's clients are \
            confidential.
            """
    )
    var revokesGrantOnRefreshTokenReuse = false

    @Option(
        name: .customLong("redirect-uri-refusal"),
        help: """
            How an unregistered redirect URI is refused: error-authorization-response (naming redirect_uri) or \
            invalid-request-problem (a problem naming nothing).
            """
    )
    var redirectURIRefusal: String = DemoRedirectURIRefusal.errorAuthorizationResponse.rawValue

    @Option(
        name: .customLong("id-token-algorithm"),
        help: "Sign ID tokens with es256 (P-256) or ed25519 (EdDSA, as a Curity token profile with an Ed25519 key)."
    )
    var idTokenAlgorithm: String = "es256"

    @Option(
        name: .customLong("advertise-id-token-algorithm"),
        help: "Name this algorithm in discovery's id_token_signing_alg_values_supported instead of the one signed with; repeatable."
    )
    var advertisedIDTokenAlgorithms: [String] = []

    @Option(name: .customLong("max-flows"), help: "The most login flows held at once; beyond it the one expiring first is dropped.")
    var maximumFlows: Int = 10_000

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard flowLifetimeSeconds > 0 else { throw ValidationError("--flow-lifetime-seconds must be positive") }
        guard maximumFlows > 0 else { throw ValidationError("--max-flows must be positive") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("Unknown --log-level \(logLevel)") }
        guard strict || !consumesCodesOnRefusedProof else {
            throw ValidationError("--consumes-codes-on-refused-proof needs --strict (it applies to token-bound codes)")
        }
        guard DemoServerConfiguration.isRelyingPartyID(passkeyRelyingPartyID) else {
            throw ValidationError("--passkey-rp-id must be a host name, not an IP address")
        }
        guard DemoIDTokenAlgorithm(rawValue: idTokenAlgorithm) != nil else { throw ValidationError("--id-token-algorithm must be es256 or ed25519") }
        for (option, value) in [("--public-base-url", publicBaseURL), ("--proof-base-url", proofBaseURL)] {
            guard let value else { continue }
            guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("\(option) must be an absolute http(s) URL")
            }
        }
        if let issuerOverride, !issuerOverride.hasPrefix("/") {
            guard let url = URL(string: issuerOverride), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("--issuer-override must be an absolute http(s) URL or a path starting with /")
            }
        }
        guard DemoAttestationRefusal(rawValue: attestationRefusedAs) != nil else {
            throw ValidationError("--attestation-refused-as must be unauthorized_client or invalid_client")
        }
        guard requireAttestation || attestationRefusedAs == DemoAttestationRefusal.unauthorizedClient.rawValue else {
            throw ValidationError("--attestation-refused-as needs --require-attestation")
        }
        for (option, value) in [("--authorization-code-dpop-binding", authorizationCodeDPoPBinding), ("--token-dpop-binding", tokenDPoPBinding)] {
            guard let value, DemoDPoPBinding(rawValue: value) == nil else { continue }
            throw ValidationError("\(option) must be required or client-requested")
        }
        guard DemoRedirectURIRefusal(rawValue: redirectURIRefusal) != nil else {
            throw ValidationError("--redirect-uri-refusal must be error-authorization-response or invalid-request-problem")
        }
    }

    /// The server configuration these options describe.
    var serverConfiguration: DemoServerConfiguration {
        var configuration = DemoServerConfiguration(
            host: host,
            port: port,
            requireDPoPNonce: requireDPoPNonce,
            clientKeyPath: clientKeyPath,
            publicBaseURL: publicBaseURL,
            flowLifetimeSeconds: flowLifetimeSeconds,
            maximumFlows: maximumFlows
        )
        configuration.passkeyRelyingPartyID = passkeyRelyingPartyID.lowercased()
        configuration.passkeyAllowedOrigins = passkeyOrigins
        if strict { configuration.makeStrict() }
        configuration.publishesMetadata = !withoutMetadata
        configuration.haapiAllowedWithoutAttestation = !requireAttestation
        configuration.idTokenSigningAlgorithm = DemoIDTokenAlgorithm(rawValue: idTokenAlgorithm) ?? .es256
        if !advertisedIDTokenAlgorithms.isEmpty { configuration.advertisedIDTokenAlgorithms = advertisedIDTokenAlgorithms }
        configuration.consumesCodesOnRefusedProof = consumesCodesOnRefusedProof
        if let binding = authorizationCodeDPoPBinding.flatMap(DemoDPoPBinding.init(rawValue:)) {
            configuration.authorizationCodeDPoPBinding = binding
        }
        if let binding = tokenDPoPBinding.flatMap(DemoDPoPBinding.init(rawValue:)) { configuration.tokenDPoPBinding = binding }
        configuration.attestationRefusal = DemoAttestationRefusal(rawValue: attestationRefusedAs) ?? .unauthorizedClient
        configuration.proofBaseURL = proofBaseURL
        configuration.publishesOAuthMetadata = publishesOAuthMetadata
        configuration.publishesEd448Key = publishesEd448Key
        configuration.reusesRefreshTokens = reusesRefreshTokens
        configuration.revokesGrantOnRefreshTokenReuse = revokesGrantOnRefreshTokenReuse
        configuration.issuerOverride = issuerOverride
        configuration.redirectURIRefusal = DemoRedirectURIRefusal(rawValue: redirectURIRefusal) ?? .errorAuthorizationResponse
        return configuration
    }

    func run() async throws {
        // The gateway's text lines: a path or a value a client sent is logged with its control characters escaped.
        let logger = LoggingSettings(level: Logger.Level(rawValue: logLevel) ?? .info).makeLogger(label: "haapi-demo-server")
        let strictNote =
            strict
            ? """
            Strict mode: per-key DPoP nonces, token-bound authorization \
            codes\(consumesCodesOnRefusedProof ? " (used up by an exchange refused for a missing proof)" : ""), \
            authorization-code-dpop-binding \(serverConfiguration.authorizationCodeDPoPBinding.rawValue), token-dpop-binding \
            \(serverConfiguration.tokenDPoPBinding.rawValue), stickiness cookie demo-node\n
            """
            : ""
        let application = try DemoServer.makeApplication(configuration: serverConfiguration, logger: logger) { url, _ in
            let banner = """
                Demo HAAPI server: issuer \(url.absoluteString)/oauth/v2/oauth-anonymous (the gateway's \(ConfigurationKey.upstreamBaseURL.path), \
                --upstream), its metadata at \(url.absoluteString)/oauth/v2/oauth-anonymous/.well-known/openid-configuration
                Client \(DemoServer.clientID) / \(DemoServer.clientSecret), redirect URI \(DemoServer.redirectURI)
                Users demo/demo, otp/otp, poll/poll, consent/consent, sms/sms, locked/locked (each can also create a passkey); outbox at \
                \(url.absoluteString)/demo/outbox
                \(strictNote)
                """
            FileHandle.standardOutput.write(Data(banner.utf8))
        }
        do {
            try await application.runService()
        } catch {
            exitStarting(error, listening: host, port: port)
        }
    }
}
