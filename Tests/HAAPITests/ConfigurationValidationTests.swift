import Crypto
import Foundation
import Testing

@testable import HAAPI

@Suite struct ConfigurationValidationTests {
    static func valid() throws -> HAAPIClientConfiguration {
        HAAPIClientConfiguration(
            baseURL: try #require(URL(string: "https://idp.example.com")),
            clientID: "demo-gateway",
            clientAuthentication: .secretBasic("demo-secret"),
            redirectURI: "haapi:start",
            scopes: ["openid", "profile"]
        )
    }

    @Test func validConfigurationHasNoProblems() throws {
        #expect(try Self.valid().problems.isEmpty)
        try Self.valid().validate()
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        var configuration = try Self.valid()
        configuration.baseURL = try #require(URL(string: "ftp://"))
        configuration.clientID = " "
        configuration.redirectURI = ""
        configuration.scopes = ["openid", "bad scope"]
        configuration.clientAuthentication = .privateKeyJWT(privateKeyPEM: "not a key")
        configuration.additionalTrustRootsPEM = ["not a certificate"]
        configuration.authorizationParameters = AuthorizationParameters(
            maxAgeSeconds: -1,
            claims: "[not an object]",
            additional: ["state": "x", "client_id": "y"]
        )
        configuration.requestTimeout = .zero
        configuration.connectTimeout = .seconds(-1)
        configuration.maxResponseBodyBytes = 0
        configuration.sharedStepCacheSize = -1
        let error = #expect(throws: HAAPIError.self) { try configuration.validate() }
        #expect(error?.code == .invalidConfiguration)
        let problems = error?.problems ?? []
        let expectedFragments = [
            "baseURL must use http or https", "baseURL must have a host", "clientID", "redirectURI", "bad scope", "private_key_jwt",
            "trust root 1", "client_id, state", "max_age", "claims must be a JSON object", "requestTimeout", "connectTimeout", "maxResponseBodyBytes",
            "sharedStepCacheSize",
        ]
        for fragment in expectedFragments {
            #expect(problems.contains { $0.contains(fragment) }, "missing problem about \(fragment)")
        }
        #expect(problems.count == expectedFragments.count)
    }

    @Test func mutualTLSNeedsHTTPS() throws {
        var configuration = try Self.valid()
        configuration.clientAuthentication = .mutualTLS(certificatePEM: TestKeyMaterial.certificatePEM, privateKeyPEM: TestKeyMaterial.privateKeyPEM)
        #expect(configuration.problems.isEmpty)
        configuration.baseURL = try #require(URL(string: "http://127.0.0.1:8443"))
        #expect(configuration.problems == ["mutual TLS client authentication needs an https baseURL"])
    }

    @Test func secretsNeverAppearInProblemsOrDescriptions() throws {
        var configuration = try Self.valid()
        configuration.clientAuthentication = .secretPost("super-secret-value")
        configuration.scopes = ["bad scope"]
        #expect(!configuration.description.contains("super-secret-value"))
        #expect(!configuration.problems.joined().contains("super-secret-value"))
        configuration.clientAuthentication = .mutualTLS(certificatePEM: TestKeyMaterial.certificatePEM, privateKeyPEM: TestKeyMaterial.privateKeyPEM)
        #expect(!configuration.description.contains("PRIVATE KEY"))
    }

    @Test func mutualTLSAndTrustRootsAcceptPEMAndRejectGarbage() throws {
        var configuration = try Self.valid()
        configuration.clientAuthentication = .mutualTLS(certificatePEM: TestKeyMaterial.certificatePEM, privateKeyPEM: TestKeyMaterial.privateKeyPEM)
        configuration.additionalTrustRootsPEM = [TestKeyMaterial.certificatePEM]
        #expect(configuration.problems.isEmpty)
        configuration.clientAuthentication = .mutualTLS(certificatePEM: "garbage", privateKeyPEM: "garbage")
        #expect(configuration.problems.count == 2)
    }

    @Test func privateKeyJWTAcceptsPKCS8PEMFromOpenSSLAndSwiftCrypto() throws {
        var configuration = try Self.valid()
        configuration.clientAuthentication = .privateKeyJWT(privateKeyPEM: TestKeyMaterial.privateKeyPEM, keyID: "k1")
        #expect(configuration.problems.isEmpty)
        configuration.clientAuthentication = .privateKeyJWT(privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
        #expect(configuration.problems.isEmpty)
    }

    @Test func clientInitRefusesInvalidConfigurationBeforeAnyRequest() async throws {
        var configuration = try Self.valid()
        configuration.clientID = ""
        let transport = ClosureHAAPITransport { _ in
            Issue.record("no request expected")
            return HTTPResponseData(status: 500)
        }
        let error = await #expect(throws: HAAPIError.self) { try await HAAPIClient(configuration: configuration, transport: transport) }
        #expect(error?.code == .invalidConfiguration)
    }
}
