import Foundation
import Logging

/// The options of `haapi-gateway demo-server` as given, and the ``DemoServerConfiguration`` they describe: each option
/// checked (``configuration()``), every refusal a ``DemoServerArgumentProblem`` naming the option.
public struct DemoServerArguments: Sendable {
    public var host = "127.0.0.1"
    public var port = 8443
    public var requireDPoPNonce = false
    public var strict = false
    public var consumesCodesOnRefusedProof = false
    public var authorizationCodeDPoPBinding: String?
    public var tokenDPoPBinding: String?
    public var clientKeyPath: String?
    public var publicBaseURL: String?
    public var flowLifetimeSeconds: Double = 600
    public var passkeyRelyingPartyID = "localhost"
    public var passkeyOrigins: [String] = []
    public var withoutMetadata = false
    public var requireAttestation = false
    public var attestationRefusedAs = DemoAttestationRefusal.unauthorizedClient.rawValue
    public var proofBaseURL: String?
    public var publishesOAuthMetadata = false
    public var issuerOverride: String?
    public var publishesEd448Key = false
    public var reusesRefreshTokens = false
    public var revokesGrantOnRefreshTokenReuse = false
    public var redirectURIRefusal = DemoRedirectURIRefusal.errorAuthorizationResponse.rawValue
    public var idTokenAlgorithm = "es256"
    public var advertisedIDTokenAlgorithms: [String] = []
    public var maximumFlows = 10_000
    public var logLevel = "info"

    /// The defaults of `demo-server`.
    public init() {}

    /// The log level `--log-level` names, or why not.
    public func level() throws(DemoServerArgumentProblem) -> Logger.Level {
        guard let level = Logger.Level(rawValue: logLevel) else { throw DemoServerArgumentProblem("Unknown --log-level \(logLevel)") }
        return level
    }

    /// The configuration these options describe, or the first option refused.
    public func configuration() throws(DemoServerArgumentProblem) -> DemoServerConfiguration {
        try check()
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

    /// Refuses the first option out of its range or naming nothing the demo knows, and options that need another.
    func check() throws(DemoServerArgumentProblem) {
        guard (0...65_535).contains(port) else { throw DemoServerArgumentProblem("--port must be between 0 and 65535") }
        guard flowLifetimeSeconds > 0 else { throw DemoServerArgumentProblem("--flow-lifetime-seconds must be positive") }
        guard maximumFlows > 0 else { throw DemoServerArgumentProblem("--max-flows must be positive") }
        _ = try level()
        guard strict || !consumesCodesOnRefusedProof else {
            throw DemoServerArgumentProblem("--consumes-codes-on-refused-proof needs --strict (it applies to token-bound codes)")
        }
        guard DemoServerConfiguration.isRelyingPartyID(passkeyRelyingPartyID) else {
            throw DemoServerArgumentProblem("--passkey-rp-id must be a host name, not an IP address")
        }
        guard DemoIDTokenAlgorithm(rawValue: idTokenAlgorithm) != nil else {
            throw DemoServerArgumentProblem("--id-token-algorithm must be es256 or ed25519")
        }
        for (option, value) in [("--public-base-url", publicBaseURL), ("--proof-base-url", proofBaseURL)] {
            guard let value, !Self.isAbsoluteHTTPURL(value) else { continue }
            throw DemoServerArgumentProblem("\(option) must be an absolute http(s) URL")
        }
        if let issuerOverride, !issuerOverride.hasPrefix("/"), !Self.isAbsoluteHTTPURL(issuerOverride) {
            throw DemoServerArgumentProblem("--issuer-override must be an absolute http(s) URL or a path starting with /")
        }
        try checkChoices()
    }

    /// Refuses a value that is none of its option's choices, and `--attestation-refused-as` without `--require-attestation`.
    private func checkChoices() throws(DemoServerArgumentProblem) {
        guard DemoAttestationRefusal(rawValue: attestationRefusedAs) != nil else {
            throw DemoServerArgumentProblem("--attestation-refused-as must be unauthorized_client or invalid_client")
        }
        guard requireAttestation || attestationRefusedAs == DemoAttestationRefusal.unauthorizedClient.rawValue else {
            throw DemoServerArgumentProblem("--attestation-refused-as needs --require-attestation")
        }
        for (option, value) in [("--authorization-code-dpop-binding", authorizationCodeDPoPBinding), ("--token-dpop-binding", tokenDPoPBinding)] {
            guard let value, DemoDPoPBinding(rawValue: value) == nil else { continue }
            throw DemoServerArgumentProblem("\(option) must be required or client-requested")
        }
        guard DemoRedirectURIRefusal(rawValue: redirectURIRefusal) != nil else {
            throw DemoServerArgumentProblem("--redirect-uri-refusal must be error-authorization-response or invalid-request-problem")
        }
    }

    /// Whether `text` is an absolute http or https URL with a host.
    static func isAbsoluteHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else { return false }
        return true
    }
}
