import Foundation
import Testing

@testable import HAAPIDemoServer

/// ``DemoServerArguments``: `demo-server`'s options checked, each refusal naming its option, and the configuration they
/// make; ``DemoServerBanner``: what it prints once it listens.
@Suite("The demo server's options")
struct DemoServerArgumentsTests {
    /// The refusal of `change` applied to the defaults, if any.
    static func refusal(_ change: (inout DemoServerArguments) -> Void) -> String? {
        var arguments = DemoServerArguments()
        change(&arguments)
        do {
            _ = try arguments.configuration()
            return nil
        } catch {
            return error.message
        }
    }

    @Test("the defaults are taken; each value out of range or unknown is refused, naming its option")
    func refusals() {
        #expect(Self.refusal { _ in } == nil)
        #expect(Self.refusal { $0.port = 70_000 } == "--port must be between 0 and 65535")
        #expect(Self.refusal { $0.flowLifetimeSeconds = 0 } == "--flow-lifetime-seconds must be positive")
        #expect(Self.refusal { $0.maximumFlows = 0 } == "--max-flows must be positive")
        #expect(Self.refusal { $0.logLevel = "loud" } == "Unknown --log-level loud")
        #expect(
            Self.refusal { $0.consumesCodesOnRefusedProof = true }
                == "--consumes-codes-on-refused-proof needs --strict (it applies to token-bound codes)"
        )
        #expect(Self.refusal { $0.passkeyRelyingPartyID = "127.0.0.1" } == "--passkey-rp-id must be a host name, not an IP address")
        #expect(Self.refusal { $0.idTokenAlgorithm = "rs256" } == "--id-token-algorithm must be es256 or ed25519")
        #expect(Self.refusal { $0.publicBaseURL = "ftp://x" } == "--public-base-url must be an absolute http(s) URL")
        #expect(Self.refusal { $0.proofBaseURL = "/relative" } == "--proof-base-url must be an absolute http(s) URL")
        #expect(Self.refusal { $0.issuerOverride = "/issuer" } == nil)
        #expect(Self.refusal { $0.issuerOverride = "issuer" } == "--issuer-override must be an absolute http(s) URL or a path starting with /")
        #expect(Self.refusal { $0.attestationRefusedAs = "nope" } == "--attestation-refused-as must be unauthorized_client or invalid_client")
        #expect(Self.refusal { $0.attestationRefusedAs = "invalid_client" } == "--attestation-refused-as needs --require-attestation")
        #expect(Self.refusal { $0.tokenDPoPBinding = "always" } == "--token-dpop-binding must be required or client-requested")
        #expect(
            Self.refusal { $0.redirectURIRefusal = "silent" }
                == "--redirect-uri-refusal must be error-authorization-response or invalid-request-problem"
        )
    }

    @Test("the configuration: strict turns every check on, and a binding given wins over strict's")
    func configuration() throws {
        var arguments = DemoServerArguments()
        arguments.strict = true
        arguments.tokenDPoPBinding = "client-requested"
        arguments.passkeyRelyingPartyID = "Login.Example"
        arguments.withoutMetadata = true
        let configuration = try arguments.configuration()
        #expect(configuration.requireDPoPNonce)
        #expect(configuration.authorizationCodeDPoPBinding == .required)
        #expect(configuration.tokenDPoPBinding == .clientRequested)
        #expect(configuration.passkeyRelyingPartyID == "login.example")
        #expect(!configuration.publishesMetadata)
        #expect(try DemoServerArguments().configuration().authorizationCodeDPoPBinding == .clientRequested)
    }

    @Test("the embedded demo: a free port, nonces or strict as asked, passkeys for the gateway's public host")
    func embedded() {
        let plain = DemoServerConfiguration.embedded(requireDPoPNonce: false, strict: false, publicURL: nil)
        #expect(plain.port == 0 && !plain.requireDPoPNonce && !plain.noncesPerKey && plain.passkeyRelyingPartyID == "localhost")
        #expect(DemoServerConfiguration.embedded(requireDPoPNonce: true, strict: false, publicURL: nil).requireDPoPNonce)
        let strict = DemoServerConfiguration.embedded(requireDPoPNonce: false, strict: true, publicURL: URL(string: "https://Login.Example:8443"))
        #expect(strict.noncesPerKey && strict.tokenDPoPBinding == .required)
        #expect(strict.passkeyRelyingPartyID == "login.example")
        #expect(strict.passkeyAllowedOrigins == ["https://login.example:8443"])
    }

    @Test("the banner names the issuer, its metadata, the client and the outbox; in strict mode what strict means")
    func banner() throws {
        let url = URL(string: "http://127.0.0.1:8443")!
        let plain = DemoServerBanner.text(url: url, configuration: DemoServerConfiguration(), strict: false, gatewaySetting: "upstream.baseURL")
        #expect(
            plain.hasPrefix("Demo HAAPI server: issuer http://127.0.0.1:8443/oauth/v2/oauth-anonymous (the gateway's upstream.baseURL, --upstream)")
        )
        #expect(plain.hasSuffix("outbox at http://127.0.0.1:8443/demo/outbox\n"))
        #expect(plain.split(separator: "\n").count == 3)
        var arguments = DemoServerArguments()
        arguments.strict = true
        arguments.consumesCodesOnRefusedProof = true
        let strict = DemoServerBanner.text(url: url, configuration: try arguments.configuration(), strict: true, gatewaySetting: "upstream.baseURL")
        #expect(
            strict.hasSuffix(
                "(used up by an exchange refused for a missing proof), authorization-code-dpop-binding required, token-dpop-binding required, stickiness cookie demo-node\n"
            )
        )
    }
}
