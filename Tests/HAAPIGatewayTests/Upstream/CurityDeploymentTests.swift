import Foundation
import HAAPI
import HAAPIDemoServer
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// Sign-ins through the gateway against the strict demo set up as Curity deployments are: the metadata only under the
/// issuer (the anonymous endpoint), no metadata at all (endpoints named), and an external https URL reached through an
/// internal loopback URL (docs/curity-compatibility.md › Deployment).
@Suite("Curity deployments")
struct CurityDeploymentTests {
    /// The outcome a sign-in handed to the file sink.
    static func outcome(at path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test("metadata only under the issuer: with upstream.baseURL the issuer a sign-in completes, its ID token validated")
    func metadataUnderTheIssuer() async throws {
        try await GatewayHarness.withGateway { browser, demo, sinkPath in
            #expect(demo.issuerURL.path == "/oauth/v2/oauth-anonymous")
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            let outcome = try Self.outcome(at: sinkPath)
            #expect(outcome["outcome"] as? String == "success")
            #expect(outcome["subject"] as? String == "demo", "the ID token was validated (iss = the issuer)")
        }
    }

    @Test("the host's root as the base URL: the client is refused, naming where the metadata is and its issuer")
    func hostRootIsRefusedNamingTheIssuer() async throws {
        let demo = try await DemoServer.start(configuration: .strict)
        var configuration = GatewayHarness.upstream(demo: demo)
        configuration.baseURL = demo.baseURL
        var error: HAAPIError?
        do throws(HAAPIError) {
            let client = try await HAAPIClient(configuration: configuration)
            try? await client.shutdown()
        } catch let refusal {
            error = refusal
        }
        #expect(error?.code == .noDiscoveryDocument)
        #expect(
            error?.message
                == "no discovery document at \(demo.baseURL.absoluteString)/.well-known/openid-configuration (HTTP 404), nor RFC 8414 metadata at \(demo.baseURL.absoluteString)/.well-known/oauth-authorization-server (HTTP 404); there is one at \(demo.issuer)/.well-known/openid-configuration, naming the issuer \(demo.issuer)"
        )
        await demo.shutdown()
    }

    @Test("no metadata published: with the endpoints named a sign-in completes, its ID token validated with the named keys")
    func endpointsNamedWithoutMetadata() async throws {
        var strict = DemoServerConfiguration.strict
        strict.publishesMetadata = false
        try await GatewayHarness.withGateway(
            demoConfiguration: strict,
            upstream: { demo in
                var client = GatewayHarness.upstream(demo: demo)
                let base = demo.baseURL.absoluteString
                client.endpoints = HAAPIEndpoints(
                    authorization: URL(string: base + "/oauth/v2/oauth-authorize")!,
                    token: URL(string: base + "/oauth/v2/oauth-token")!,
                    revocation: URL(string: base + "/oauth/v2/oauth-revoke")!,
                    issuer: demo.issuer,
                    keySet: URL(string: demo.issuer + "/jwks")!,
                    userinfo: URL(string: base + "/oauth/v2/oauth-userinfo")!
                )
                return client
            }
        ) { browser, demo, sinkPath in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            #expect(try Self.outcome(at: sinkPath)["subject"] as? String == "demo")
        }
    }

    @Test("an external https base URL reached through an internal loopback URL: absolute hrefs on the external origin are followed, proofs name it")
    func externalURLThroughAnInternalURL() async throws {
        var strict = DemoServerConfiguration.strict
        strict.publicBaseURL = "https://idsvr.example.test"
        try await GatewayHarness.withGateway(
            demoConfiguration: strict,
            upstream: { demo in
                var client = GatewayHarness.upstream(demo: demo)
                client.internalURL = demo.listeningURL
                return client
            }
        ) { browser, demo, sinkPath in
            #expect(demo.issuer == "https://idsvr.example.test/oauth/v2/oauth-anonymous")
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            let outcome = try Self.outcome(at: sinkPath)
            #expect(outcome["outcome"] as? String == "success")
            #expect(outcome["subject"] as? String == "demo")
        }
    }
}

extension CurityDeploymentTests {
    @Test("EdDSA-signed ID tokens (an Ed25519 token profile key): a sign-in completes, its ID token validated")
    func edDSASignedIDTokens() async throws {
        var strict = DemoServerConfiguration.strict
        strict.idTokenSigningAlgorithm = .ed25519
        try await GatewayHarness.withGateway(demoConfiguration: strict) { browser, _, sinkPath in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            let outcome = try Self.outcome(at: sinkPath)
            #expect(outcome["outcome"] as? String == "success")
            #expect(outcome["subject"] as? String == "demo")
        }
    }

    @Test("ID-token algorithms the upstream names and the gateway cannot validate are named in a warning at startup")
    func unvalidatableAlgorithmsAreNamedAtStartup() async throws {
        var strict = DemoServerConfiguration.strict
        strict.advertisedIDTokenAlgorithms = ["ES256", "Ed448", "HS256"]
        let capture = LogCapture()
        try await GatewayHarness.withGateway(logger: capture.logger, demoConfiguration: strict) { browser, _, _ in
            _ = try await browser.get("/readyz")
        }
        #expect(capture.text.contains("the upstream names ID-token signing algorithms the gateway cannot validate"), "\(capture.text)")
        #expect(capture.text.contains("Ed448, HS256"), "\(capture.text)")
    }
}

extension CurityDeploymentTests {
    @Test(
        "Curity's external URL not how the gateway reaches it, without upstream.internalURL: the listening URL as the base URL is refused, naming the issuer the document gives"
    )
    func internalURLAsTheIssuerIsRefused() async throws {
        var strict = DemoServerConfiguration.strict
        strict.publicBaseURL = "https://idsvr.example.test"
        let demo = try await DemoServer.start(configuration: strict)
        var configuration = GatewayHarness.upstream(demo: demo)
        configuration.baseURL = demo.listeningURL.appendingPathComponent("oauth/v2/oauth-anonymous")
        var error: HAAPIError?
        do throws(HAAPIError) {
            let client = try await HAAPIClient(configuration: configuration)
            try? await client.shutdown()
        } catch let refusal {
            error = refusal
        }
        await demo.shutdown()
        #expect(error?.code == .issuerMismatch)
        #expect(
            error?.message.contains("names the issuer https://idsvr.example.test/oauth/v2/oauth-anonymous, not the configured") == true,
            "\(String(describing: error))"
        )
    }
}
