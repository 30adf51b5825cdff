import Foundation
import Testing

@testable import HAAPI

@Suite struct AsyncHTTPClientTransportTests {
    static func configuration(_ authentication: ClientAuthentication, trustRoots: [String] = []) throws -> HAAPIClientConfiguration {
        HAAPIClientConfiguration(
            baseURL: try #require(URL(string: "https://idp.example.com")),
            clientID: "c",
            clientAuthentication: authentication,
            additionalTrustRootsPEM: trustRoots,
            redirectURI: "haapi:start",
            scopes: ["openid"]
        )
    }

    @Test func mutualTLSCertificateAndExtraTrustRootsLoad() async throws {
        let transport = try AsyncHTTPClientTransport(
            configuration: try Self.configuration(
                .mutualTLS(certificatePEM: TestKeyMaterial.certificatePEM, privateKeyPEM: TestKeyMaterial.privateKeyPEM),
                trustRoots: [TestKeyMaterial.certificatePEM]
            )
        )
        try await transport.shutdown()
    }

    @Test func unloadableClientKeyIsACryptoError() throws {
        let error = #expect(throws: HAAPIError.self) {
            try AsyncHTTPClientTransport(
                configuration: try Self.configuration(.mutualTLS(certificatePEM: TestKeyMaterial.certificatePEM, privateKeyPEM: "nope"))
            )
        }
        #expect(error?.code == .crypto)
        #expect(error?.message.contains("nope") == false)
    }

    @Test func closureTransportEnforcesTheBodyCap() async throws {
        let transport = ClosureHAAPITransport { _ in HTTPResponseData(status: 200, body: Data(count: 2048)) }
        let request = HTTPRequestData(method: "GET", url: try #require(URL(string: "https://idp.example.com/")))
        let error = await #expect(throws: HAAPIError.self) { try await transport.send(request, timeout: .seconds(1), maxBodyBytes: 1024) }
        #expect(error?.code == .malformedResponse)
        let fits = try await transport.send(request, timeout: .seconds(1), maxBodyBytes: 4096)
        #expect(fits.body.count == 2048)
    }
}
