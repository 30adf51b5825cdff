import Foundation
import HAAPIDemoServer
import Testing

@Suite struct DiscoveryTests {
    @Test func discoveryListsEndpointsAndDPoPAlgorithms() async throws {
        let harness = try await DemoServerHarness.start()
        let response = try await harness.http.send(.GET, harness.issuer + "/.well-known/openid-configuration")
        #expect(response.status == 200)
        let metadata = response.json
        #expect(harness.issuer == harness.base + "/oauth/v2/oauth-anonymous")
        #expect(metadata["issuer"] as? String == harness.issuer)
        #expect(metadata["authorization_endpoint"] as? String == harness.base + "/oauth/v2/oauth-authorize")
        #expect(metadata["token_endpoint"] as? String == harness.tokenURL)
        #expect(metadata["revocation_endpoint"] as? String == harness.base + "/oauth/v2/oauth-revoke")
        #expect(metadata["jwks_uri"] as? String == harness.base + "/oauth/v2/oauth-anonymous/jwks")
        #expect(metadata["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
        #expect(metadata["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect((metadata["token_endpoint_auth_methods_supported"] as? [String])?.contains("private_key_jwt") == true)
        let jwks = try await harness.http.send(.GET, harness.base + "/oauth/v2/oauth-anonymous/jwks").json
        let key = (jwks["keys"] as? [[String: Any]])?.first
        #expect(key?["kty"] as? String == "EC")
        #expect(key?["crv"] as? String == "P-256")
        #expect(key?["alg"] as? String == "ES256")
        #expect(key?["d"] == nil)
        try await harness.finish()
    }

    @Test("the metadata is published under the issuer only, as Curity's, and not at all when switched off")
    func metadataOnlyUnderTheIssuer() async throws {
        let harness = try await DemoServerHarness.start()
        #expect(try await harness.http.send(.GET, harness.base + "/.well-known/openid-configuration").status == 404)
        #expect(try await harness.http.send(.GET, harness.base + "/.well-known/oauth-authorization-server").status == 404)
        #expect(try await harness.http.send(.GET, harness.issuer + "/.well-known/openid-configuration").status == 200)
        try await harness.finish()
        let hidden = try await DemoServerHarness.start { $0.publishesMetadata = false }
        #expect(try await hidden.http.send(.GET, hidden.issuer + "/.well-known/openid-configuration").status == 404)
        #expect(try await hidden.http.send(.GET, hidden.issuer + "/jwks").status == 200, "the keys stay published")
        try await hidden.finish()
    }

    @Test("with a public base URL, the issuer, the endpoints and every href name it, not where the server listens")
    func publicBaseURLIsTheExternalURL() async throws {
        let harness = try await DemoServerHarness.start(strict: true) { $0.publicBaseURL = "https://idsvr.example.test" }
        #expect(harness.issuer == "https://idsvr.example.test/oauth/v2/oauth-anonymous")
        #expect(harness.server.listeningURL.absoluteString.hasPrefix("http://127.0.0.1:"))
        let listening = harness.server.listeningURL.absoluteString
        let metadata = try await harness.http.send(.GET, listening + "/oauth/v2/oauth-anonymous/.well-known/openid-configuration").json
        #expect(metadata["issuer"] as? String == "https://idsvr.example.test/oauth/v2/oauth-anonymous")
        #expect(metadata["token_endpoint"] as? String == "https://idsvr.example.test/oauth/v2/oauth-token")
        try await harness.finish()
    }

    @Test func unknownPathIsNotFoundNotServerError() async throws {
        let harness = try await DemoServerHarness.start()
        let response = try await harness.http.send(.GET, harness.base + "/no/such/path")
        #expect(response.status == 404)
        try await harness.finish()
    }

    @Test func twoServersGetDistinctPortsAndKeys() async throws {
        let first = try await DemoServerHarness.start()
        let second = try await DemoServerHarness.start()
        #expect(first.base != second.base)
        let firstKey = try await first.http.send(.GET, first.base + "/oauth/v2/oauth-anonymous/jwks").json
        let secondKey = try await second.http.send(.GET, second.base + "/oauth/v2/oauth-anonymous/jwks").json
        #expect(((firstKey["keys"] as? [[String: Any]])?.first?["x"] as? String) != ((secondKey["keys"] as? [[String: Any]])?.first?["x"] as? String))
        try await first.finish()
        try await second.finish()
    }

    @Test func startFailsCleanlyWhenThePortIsTaken() async throws {
        let first = try await DemoServerHarness.start()
        let port = try #require(first.server.baseURL.port)
        await #expect(throws: DemoServerError.self) {
            _ = try await DemoServer.start(configuration: DemoServerConfiguration(host: "127.0.0.1", port: port))
        }
        try await first.finish()
    }
}
