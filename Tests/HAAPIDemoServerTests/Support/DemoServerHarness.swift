import Crypto
import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// Starts a demo server on 127.0.0.1:0 for one test and speaks HAAPI to it from scratch.
final class DemoServerHarness: @unchecked Sendable {
    let server: RunningDemoServer
    let http = TestHTTP()
    let clientKeyPath: String
    /// The configuration the server was started with.
    let configuration: DemoServerConfiguration
    var base: String { server.baseURL.absoluteString }
    /// The issuer, Curity's anonymous endpoint under the base URL.
    var issuer: String { server.issuer }
    var tokenURL: String { base + "/oauth/v2/oauth-token" }
    var authorizeURL: String { base + "/oauth/v2/oauth-authorize" }
    var basicAuthorization: String { "Basic " + Data("demo-gateway:demo-secret".utf8).base64EncodedString() }

    private init(server: RunningDemoServer, clientKeyPath: String, configuration: DemoServerConfiguration) {
        self.server = server
        self.clientKeyPath = clientKeyPath
        self.configuration = configuration
    }

    /// Starts a server; `strict` turns on ``DemoServerConfiguration/makeStrict()``, `configure` changes anything else.
    static func start(
        nonce: Bool = false,
        flowLifetimeSeconds: Double = 600,
        maximumBodyBytes: Int? = nil,
        nonceLifetimeSeconds: Double? = nil,
        strict: Bool = false,
        configure: (inout DemoServerConfiguration) -> Void = { _ in }
    ) async throws -> DemoServerHarness {
        let keyPath = FileManager.default.temporaryDirectory.appendingPathComponent("demo-client-key-\(UUID().uuidString).pem").path
        var configuration = DemoServerConfiguration(
            host: "127.0.0.1",
            port: 0,
            requireDPoPNonce: nonce,
            clientKeyPath: keyPath,
            flowLifetimeSeconds: flowLifetimeSeconds
        )
        if let maximumBodyBytes { configuration.maximumRequestBodyBytes = maximumBodyBytes }
        if let nonceLifetimeSeconds { configuration.dpopNonceLifetimeSeconds = nonceLifetimeSeconds }
        if strict { configuration.makeStrict() }
        configure(&configuration)
        let server = try await DemoServer.start(configuration: configuration)
        return DemoServerHarness(server: server, clientKeyPath: keyPath, configuration: configuration)
    }

    /// Validates every HAAPI body recorded so far (where Python's jsonschema is installed: "SchemaValidatorTests" shows
    /// as skipped where it is not), then stops the server.
    func finish(validateSchema: Bool = true) async throws {
        defer { try? FileManager.default.removeItem(atPath: clientKeyPath) }
        await server.shutdown()
        if validateSchema, TestTools.schemaValidatorAvailable {
            let count = try await SchemaValidator.validate(http.recordedBodies)
            #expect(count > 0 || http.recordedBodies.isEmpty)
        }
    }

    // MARK: Token endpoint

    func tokenRequest(
        _ fields: [(String, String)],
        dpop: String? = nil,
        authorization: String? = nil,
        contentType: String = "application/x-www-form-urlencoded"
    ) async throws -> TestResponse {
        var headers = [("Content-Type", contentType), ("Accept", "application/json")]
        if let dpop { headers.append(("DPoP", dpop)) }
        if let authorization { headers.append(("Authorization", authorization)) }
        return try await http.send(.POST, tokenURL, headers: headers, body: TestHTTP.formEncode(fields))
    }

    /// A HAAPI token for `key` (handles one use_dpop_nonce round).
    func haapiToken(key: TestDPoPKey, attempts: Int = 2) async throws -> (token: String, nonce: String?) {
        var nonce: String?
        for _ in 0..<attempts {
            let response = try await tokenRequest(
                [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")],
                dpop: key.proof(method: "POST", url: tokenURL, nonce: nonce),
                authorization: basicAuthorization
            )
            if response.status == 400, response.json["error"] as? String == "use_dpop_nonce" {
                nonce = response.header("DPoP-Nonce")
                continue
            }
            #expect(response.status == 200, "HAAPI token: \(response.text)")
            #expect(response.json["token_type"] as? String == "DPoP")
            return (response.json["access_token"] as? String ?? "", response.header("DPoP-Nonce") ?? nonce)
        }
        Issue.record("no HAAPI token")
        return ("", nil)
    }

    /// The demo client's private_key_jwt key, read from the PEM file the server wrote.
    func clientAssertionKey() throws -> P256.Signing.PrivateKey {
        try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: clientKeyPath, encoding: .utf8))
    }

    func clientAssertion(audience: String? = nil, jti: String = UUID().uuidString, expiresIn: Int = 60) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        return TestJWS.es256(
            header: ["alg": "ES256", "typ": "JWT"],
            claims: ["iss": "demo-gateway", "sub": "demo-gateway", "aud": audience ?? tokenURL, "exp": now + expiresIn, "iat": now, "jti": jti],
            key: try clientAssertionKey()
        )
    }
}
