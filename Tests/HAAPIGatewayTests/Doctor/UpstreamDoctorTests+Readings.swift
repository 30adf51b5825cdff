import Foundation
import HAAPI
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// `doctor`'s readings of what an upstream answers that can mean several things, each against the demo set up that way:
/// the refusal names every setting it could mean, most likely first, and quotes what the server said.
extension UpstreamDoctorTests {
    static let client = "profiles/profile{token-service}/settings/authorization-server/client-store/config-backed/client{demo-gateway}"

    @Test("attestation refused as invalid_client: client authentication fails, naming the client's authentication and allow-without-attestation")
    func attestationRefusedAsInvalidClient() async throws {
        var demo = DemoServerConfiguration.strict
        demo.haapiAllowedWithoutAttestation = false
        demo.attestationRefusal = .invalidClient
        let report = try await Self.examine(demo: demo)
        let check = try Self.check("client-authentication", in: report)
        #expect(check.result == .failed)
        #expect(check.found.contains("(HTTP 401 invalid_client: The client must attest"))
        #expect(
            check.fix?.contains(
                "\(Self.client)/secret (Admin UI: OAuth & OpenID Connect → Clients → demo-gateway → Overview → Capabilities → Code Flow → Client Authentication"
            )
                == true
        )
        #expect(check.fix?.contains("\(Self.client)/capabilities/haapi/allow-without-attestation = true") == true, "\(check.line)")
        #expect(!report.checks.contains { $0.name == "haapi-token" }, "\(report.text)")
    }

    @Test(
        "attestation refused as unauthorized_client: the client authenticated; the HAAPI token fails, allow-without-attestation first, the HAAPI capability second"
    )
    func attestationRefusedAsUnauthorizedClient() async throws {
        var demo = DemoServerConfiguration.strict
        demo.haapiAllowedWithoutAttestation = false
        let report = try await Self.examine(demo: demo)
        #expect(try Self.check("client-authentication", in: report).result == .passed)
        let check = try Self.check("haapi-token", in: report)
        #expect(check.result == .failed)
        #expect(check.found.contains("unauthorized_client"))
        #expect(
            check.fix?.hasPrefix(
                "most likely the client must attest, which a server cannot: it needs \(Self.client)/capabilities/haapi/allow-without-attestation = true"
            ) == true
        )
        #expect(check.fix?.contains("; or the client has no HAAPI capability: \(Self.client)/capabilities/haapi (") == true, "\(check.line)")
    }

    @Test("a proof checked against another external URL: the HAAPI token fails with invalid_dpop_proof, naming the base URL and upstream.internalURL")
    func proofCheckedAgainstAnotherURL() async throws {
        var demo = DemoServerConfiguration.strict
        demo.proofBaseURL = "https://idsvr.example.test"
        let report = try await Self.examine(demo: demo)
        let check = try Self.check("haapi-token", in: report)
        #expect(check.result == .failed)
        #expect(check.found.contains("(HTTP 400 invalid_dpop_proof: htu does not match the request URL)"), "\(check.line)")
        #expect(
            check.found.contains(
                "the proof named POST \(report.upstream.replacingOccurrences(of: "/oauth/v2/oauth-anonymous", with: ""))/oauth/v2/oauth-token"
            )
        )
        #expect(check.fix?.contains("(Curity's external URL, environments/environment/base-url, or the endpoint's own in ") == true, "\(check.line)")
        #expect(check.fix?.contains("openid-connect/expose-metadata/token-endpoint/base-url") == true)
        #expect(
            check.fix?.contains("set upstream.internalURL to the URL this machine uses (upstream.internalURL is not set)") == true,
            "\(check.line)"
        )
        #expect(!report.checks.contains { $0.name == "client-authentication" }, "a refused proof says nothing of the client's authentication")
        #expect(!report.signInCanStart)
    }

    @Test("an unregistered redirect URI refused by a problem that names nothing: the authorize line names the redirect URI and scopes sent")
    func terseRedirectURIRefusal() async throws {
        var demo = DemoServerConfiguration.strict
        demo.redirectURIRefusal = .invalidRequestProblem
        let report = try await Self.examine(demo: demo) { configuration, _ in configuration.redirectURI = "https://gateway.example/unregistered" }
        let check = try Self.check("authorize", in: report)
        #expect(check.result == .failed)
        #expect(
            check.found
                == "the authorize request (redirect_uri https://gateway.example/unregistered, scope openid profile email) was answered by a problem: https://curity.se/problems/invalid-request (Invalid request)."
        )
        #expect(
            check.fix?.hasPrefix(
                "most likely the redirect URI https://gateway.example/unregistered is not among the client's redirect URIs: \(Self.client)/redirect-uris (Admin UI: OAuth & OpenID Connect → Clients → demo-gateway → Overview → Capabilities → Code Flow → Redirect URI"
            ) == true,
            "\(check.line)"
        )
        #expect(check.fix?.contains("; or a scope of openid profile email is not among the client's scopes: \(Self.client)/scope") == true)
    }

    @Test("only RFC 8414 metadata published: discovery falls back to it, says so, and a sign-in can start")
    func oauthMetadataOnly() async throws {
        var demo = DemoServerConfiguration.strict
        demo.publishesMetadata = false
        demo.publishesOAuthMetadata = true
        let report = try await Self.examine(demo: demo)
        #expect(report.signInCanStart, "\(report.text)")
        let discovery = try Self.check("discovery", in: report)
        #expect(
            discovery.found.hasPrefix("no OpenID Connect metadata at \(report.upstream)/.well-known/openid-configuration; the RFC 8414 metadata at ")
        )
        #expect(discovery.found.contains("/.well-known/oauth-authorization-server/oauth/v2/oauth-anonymous names the issuer \(report.upstream)"))
        var hidden = DemoServerConfiguration.strict
        hidden.publishesMetadata = false
        let none = try Self.check("discovery", in: try await Self.examine(demo: hidden))
        #expect(none.found.contains(", nor RFC 8414 metadata at "), "\(none.line)")
        #expect(none.fix?.contains("profiles/profile{token-service}/settings/authorization-server/expose-metadata") == true)
    }

    @Test("an issuer override with RFC 8414 metadata: discovery fails naming issuer-override and the issuer to set; set, a sign-in can start")
    func issuerOverrideWithMetadata() async throws {
        var demo = DemoServerConfiguration.strict
        demo.issuerOverride = "/custom-issuer"
        demo.publishesOAuthMetadata = true
        let report = try await Self.examine(demo: demo)
        let discovery = try Self.check("discovery", in: report)
        let issuer = report.upstream.replacingOccurrences(of: "/oauth/v2/oauth-anonymous", with: "/custom-issuer")
        #expect(discovery.result == .failed)
        #expect(discovery.found.contains("that issuer's own metadata is at "), "\(discovery.line)")
        #expect(
            discovery.fix
                == "set upstream.baseURL to \(issuer), the issuer (Curity's profiles/profile{token-service}/settings/authorization-server/issuer-override makes it differ from the anonymous endpoint)."
        )
        let set = try await Self.examine(demo: demo) { configuration, demo in configuration.baseURL = demo.baseURL.appending(path: "custom-issuer") }
        #expect(set.signInCanStart, "\(set.text)")
    }

    @Test("an issuer override without metadata of its own: discovery fails naming issuer-override, upstream.issuer and the endpoints")
    func issuerOverrideWithoutMetadata() async throws {
        var demo = DemoServerConfiguration.strict
        demo.issuerOverride = "/custom-issuer"
        let report = try await Self.examine(demo: demo)
        let discovery = try Self.check("discovery", in: report)
        let issuer = report.upstream.replacingOccurrences(of: "/oauth/v2/oauth-anonymous", with: "/custom-issuer")
        #expect(discovery.result == .failed)
        #expect(discovery.found.contains("that issuer publishes no metadata of its own"), "\(discovery.line)")
        #expect(discovery.fix?.contains("authorization-server/issuer-override makes it") == true)
        #expect(discovery.fix?.contains("with upstream.issuer: \(issuer); or remove the override") == true, "\(discovery.line)")
        let named = try await Self.examine(demo: demo) { configuration, demo in
            // A demo of its own, on another port: its issuer, not the first one's.
            configuration.endpoints = Self.namedEndpoints(of: demo, issuer: demo.baseURL.absoluteString + "/custom-issuer")
        }
        #expect(named.signInCanStart, "\(named.text)")
    }

    @Test("an Ed448 key behind EdDSA: the algorithm passes, the JWKS check fails naming Ed448, and no sign-in can start")
    func ed448KeyBehindEdDSA() async throws {
        var demo = DemoServerConfiguration.strict
        demo.publishesEd448Key = true
        let report = try await Self.examine(demo: demo)
        #expect(try Self.check("id-token-algorithms", in: report).result == .passed)
        let keys = try Self.check("id-token-keys", in: report)
        #expect(keys.result == .failed)
        #expect(
            keys.found.contains("holds 0 keys the gateway can use and 1 Ed448 key, which the gateway cannot use; EdDSA here means Ed448"),
            "\(keys.line)"
        )
        #expect(keys.fix?.contains("token-issuers/default-token-issuer/jwt-issuer-settings") == true)
        #expect(!report.signInCanStart)
        var ed25519 = DemoServerConfiguration.strict
        ed25519.idTokenSigningAlgorithm = .ed25519
        let good = try Self.check("id-token-keys", in: try await Self.examine(demo: ed25519))
        #expect(good.result == .passed)
        #expect(good.found.contains("(verifying EdDSA)"))
    }

    /// A doctor for unit readings, with no server behind it.
    static func offlineDoctor(_ clientAuthentication: ClientAuthentication = .secretBasic("s")) -> UpstreamDoctor {
        UpstreamDoctor(
            configuration: HAAPIClientConfiguration(
                baseURL: URL(string: "https://idsvr.example/oauth/v2/oauth-anonymous")!,
                clientID: "gw",
                clientAuthentication: clientAuthentication,
                redirectURI: "haapi:start",
                scopes: ["openid"]
            ),
            publicURL: nil
        )
    }

    @Test("use_dpop_nonce after the retry is read as the nonce (a proxy dropping DPoP-Nonce, use-legacy-dpop), invalid_dpop_proof as the URL")
    func nonceAndProofRefusalsAreReadApart() throws {
        let doctor = Self.offlineDoctor()
        let endpoint = URL(string: "https://idsvr.example/oauth/v2/oauth-token")!
        let nonce = try #require(
            doctor.tokenRefused(
                OAuthErrorResponse(error: "use_dpop_nonce", errorDescription: "Nonce is stale", errorURI: nil, httpStatus: 400),
                tokenEndpoint: endpoint
            ).first
        )
        #expect(nonce.result == .failed)
        #expect(nonce.found.contains("asked for a DPoP nonce again after the gateway retried"), "\(nonce.line)")
        #expect(
            nonce.fix?.contains("most likely a proxy between this machine and Curity drops the DPoP-Nonce response header") == true,
            "\(nonce.line)"
        )
        #expect(nonce.fix?.contains("client{gw}/capabilities/haapi/use-legacy-dpop") == true)
        #expect(nonce.fix?.contains("upstream.internalURL") == false, "a nonce refusal says nothing of URLs")
        let proof = try #require(
            doctor.tokenRefused(
                OAuthErrorResponse(error: "invalid_dpop_proof", errorDescription: nil, errorURI: nil, httpStatus: 400),
                tokenEndpoint: endpoint
            ).first
        )
        #expect(proof.fix?.contains("upstream.internalURL") == true, "\(proof.line)")
        #expect(proof.fix?.contains("drops or changes the DPoP header") == true)
    }

    @Test("mutual TLS names both of Curity's methods, mutual-tls and mutual-tls-by-proxy with the profile's by-proxy section")
    func mutualTLSNamesBothMethods() {
        let text = CuritySetting.clientAuthentication("gw", method: "mtls")
        #expect(text.contains("client{gw}/mutual-tls when this machine's TLS reaches Curity"), "\(text)")
        #expect(text.contains("client{gw}/mutual-tls-by-proxy when a proxy ends it"), "\(text)")
        #expect(text.contains("profiles/profile{token-service}/settings/authorization-server/client-authentication/mutual-tls/by-proxy"))
    }

    @Test("Curity 11.4's DPoP bindings are named by the setting and the client, with the ephemeral-client place, never a guessed path")
    func dpopBindingTexts() {
        let code = CuritySetting.authorizationCodeDPoPBinding("gw")
        #expect(code.contains("the authorization-code-dpop-binding DPoP setting of profiles/profile{token-service}"), "\(code)")
        #expect(code.contains("required or client-requested"))
        #expect(code.contains("/profiles/profile/settings/authorization-server/ephemeral-client/dpop/authorization-code-dpop-binding"))
        #expect(CuritySetting.tokenDPoPBinding("gw").contains("the token-dpop-binding DPoP setting of "))
    }
}
