import Foundation
import HAAPIDemoServer
import Testing

@Suite struct DiscoveryTests {
    @Test func discoveryListsEndpointsAndDPoPAlgorithms() async throws {
        let harness = try await DemoServerHarness.start()
        let response = try await harness.http.send(.GET, harness.base + "/.well-known/openid-configuration")
        #expect(response.status == 200)
        let metadata = response.json
        #expect(metadata["issuer"] as? String == harness.base)
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
