import Foundation
import HAAPI
import Hummingbird
import HummingbirdTLS
import NIOSSL
import Testing

@testable import GatewayTestSupport

/// The client's TLS settings against a real TLS server on loopback: extra trust roots and mutual TLS.
@Suite struct TLSHandshakeTests {
    /// The discovery document of the server reached as `authority`, which it names as its issuer.
    private static func discovery(authority: String) -> String {
        #"{"issuer":"https://\#(authority)","authorization_endpoint":"https://\#(authority)/oauth/authorize","token_endpoint":"https://\#(authority)/oauth/token"}"#
    }

    /// Runs a TLS server that answers discovery; `requireClientCertificate` makes it demand a certificate from the test CA.
    private func withTLSServer(requireClientCertificate: Bool, _ body: (URL) async throws -> Void) async throws {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(TLSTestMaterial.serverCertificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(TLSTestMaterial.serverPrivateKeyPEM.utf8), format: .pem))
        )
        if requireClientCertificate {
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(TLSTestMaterial.caCertificatePEM.utf8)))
        }
        let router = Router()
        router.get(".well-known/openid-configuration") { request, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: Self.discovery(authority: request.head.authority ?? "")))
            )
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }
        )
        let server = Task { try await app.run() }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        try await body(try #require(URL(string: "https://127.0.0.1:\(port)/")))
    }

    private func configuration(_ base: URL, trustTestCA: Bool, authentication: ClientAuthentication) -> HAAPIClientConfiguration {
        HAAPIClientConfiguration(
            baseURL: base,
            clientID: "demo-gateway",
            clientAuthentication: authentication,
            additionalTrustRootsPEM: trustTestCA ? [TLSTestMaterial.caCertificatePEM] : [],
            redirectURI: "haapi:start",
            scopes: ["openid"],
            // Generous: the handshakes are what is tested, and a test machine busy with every suite at once has been slow.
            connectTimeout: .seconds(20),
            requestTimeout: .seconds(20)
        )
    }

    @Test func anUpstreamSignedByAnExtraTrustRootIsAccepted() async throws {
        try await withTLSServer(requireClientCertificate: false) { base in
            let client = try await HAAPIClient(configuration: configuration(base, trustTestCA: true, authentication: .secretBasic("s")))
            #expect(client.endpoints.token.absoluteString == "https://127.0.0.1:\(base.port ?? 0)/oauth/token")
            try await client.shutdown()
        }
    }

    /// A host name that does not resolve is named so (`.invalid` never resolves: RFC 2606).
    @Test func aNameThatDoesNotResolveIsANameResolutionError() async throws {
        let error = await #expect(throws: HAAPIError.self) {
            _ = try await HAAPIClient(
                configuration: configuration(
                    try #require(URL(string: "https://idsvr.nothing.invalid")),
                    trustTestCA: false,
                    authentication: .secretBasic("s")
                )
            )
        }
        #expect(error?.code == .nameResolution, "\(String(describing: error))")
    }

    @Test func anUpstreamSignedByAnUnknownCAIsRefused() async throws {
        try await withTLSServer(requireClientCertificate: false) { base in
            let error = await #expect(throws: HAAPIError.self) {
                _ = try await HAAPIClient(configuration: configuration(base, trustTestCA: false, authentication: .secretBasic("s")))
            }
            #expect(error?.code == .tls, "\(String(describing: error))")
        }
    }

    @Test func mutualTLSPresentsTheClientCertificate() async throws {
        try await withTLSServer(requireClientCertificate: true) { base in
            let authentication = ClientAuthentication.mutualTLS(
                certificatePEM: TLSTestMaterial.clientCertificatePEM,
                privateKeyPEM: TLSTestMaterial.clientPrivateKeyPEM
            )
            let client = try await HAAPIClient(configuration: configuration(base, trustTestCA: true, authentication: authentication))
            #expect(client.endpoints.authorization.absoluteString == "https://127.0.0.1:\(base.port ?? 0)/oauth/authorize")
            try await client.shutdown()
        }
    }

    @Test func withoutAClientCertificateAServerRequiringOneRefusesTheHandshake() async throws {
        try await withTLSServer(requireClientCertificate: true) { base in
            await #expect(throws: HAAPIError.self) {
                _ = try await HAAPIClient(configuration: configuration(base, trustTestCA: true, authentication: .secretBasic("s")))
            }
        }
    }
}
