import AsyncHTTPClient
import Foundation
import HAAPI
import HAAPIGateway
import NIOSSL
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// TLS on both sides: `serve` listening on HTTPS with a configured certificate and key, and an upstream whose
    /// certificate is signed by a CA the gateway is told to trust.
    @Suite("TLS: HTTPS listener and a custom upstream CA")
    struct TLSTests {
        private static var serverTLS: ServerTLSSettings {
            ServerTLSSettings(certificateChainPEM: TLSTestMaterial.serverCertificatePEM, privateKeyPEM: TLSTestMaterial.serverPrivateKeyPEM)
        }

        private static func clientTrustingTestCA() throws -> HTTPClient {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(TLSTestMaterial.caCertificatePEM.utf8)))
            return HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls, redirectConfiguration: .disallow))
        }

        @Test("with server.tls the gateway answers on HTTPS with a Secure __Host- cookie; plain HTTP gets no page")
        func listensOnHTTPS() async throws {
            try await GatewayHarness.withGateway(configure: { $0.server.tls = Self.serverTLS }) { browser, _, _ in
                let port = try #require(URL(string: browser.baseURL)?.port)
                let client = try Self.clientTrustingTestCA()
                do {
                    let response = try await client.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/"), timeout: .seconds(30))
                    let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
                    #expect(response.status.code == 200)
                    #expect(body.contains("Username and password"))
                    let cookie = try #require(response.headers["Set-Cookie"].first)
                    #expect(cookie.hasPrefix("__Host-haapi-gateway=") && cookie.contains("; Secure"))
                    #expect(response.headers["Content-Security-Policy"].first != nil)
                } catch {
                    try? await client.shutdown()
                    throw error
                }
                try await client.shutdown()
                await #expect(throws: (any Error).self) { _ = try await browser.get("/") }
            }
        }

        @Test(
            "an upstream on HTTPS signed by a CA in the upstream trust roots: the whole sign-in works; without the CA the gateway is not ready and says why"
        )
        func customUpstreamCA() async throws {
            var proxyTLS = TLSConfiguration.makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(TLSTestMaterial.serverCertificatePEM.utf8)).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(TLSTestMaterial.serverPrivateKeyPEM.utf8), format: .pem))
            )
            proxyTLS.minimumTLSVersion = .tlsv12
            try await GatewayHarness.withProxiedGateway(
                proxyTLS: proxyTLS,
                configure: {
                    guard case .haapi(var upstream) = $0.upstream else { return }
                    upstream.additionalTrustRootsPEM = [TLSTestMaterial.caCertificatePEM]
                    $0.upstream = .haapi(upstream)
                }
            ) { browser, demo, _, proxy in
                #expect(demo.baseURL.scheme == "https")
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("You are signed in"))
                #expect(proxy.traffic.contains { $0.contains("oauth-authorization-response") }, "the flow went through the TLS upstream")
            }
            // Without the CA it starts but signs no one in: not ready, the TLS failure named, a "sign-in is unavailable" page.
            try await GatewayHarness.withProxiedGateway(proxyTLS: proxyTLS) { browser, _, _, _ in
                let ready = try await browser.get("/readyz")
                #expect(ready.status == 503)
                #expect(ready.html.contains("connecting (tls: the TLS handshake with the upstream failed"), "\(ready.html)")
                let page = try await browser.get("/")
                #expect(page.status == 503 && page.html.contains("Sign-in is unavailable at the moment"))
                #expect(page.header("Retry-After") == "5")
            }
        }

        @Test("server.tlsCertificateFile needs server.tlsKeyFile, and each must hold PEM; a good pair loads and makes cookies Secure")
        func tlsConfigurationKeys() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-config-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let certificate = directory.appendingPathComponent("server.pem")
            let key = directory.appendingPathComponent("server.key")
            let garbage = directory.appendingPathComponent("garbage.pem")
            try TLSTestMaterial.serverCertificatePEM.write(to: certificate, atomically: true, encoding: .utf8)
            try TLSTestMaterial.serverPrivateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
            try "not a pem".write(to: garbage, atomically: true, encoding: .utf8)
            func problems(_ environment: [String: String]) -> [String] {
                do {
                    _ = try GatewayConfiguration.load(file: nil, environment: environment)
                    return []
                } catch {
                    return error.problems
                }
            }
            #expect(
                problems(["HAAPI_GATEWAY_SERVER_TLS_CERTIFICATE_FILE": certificate.path]).first?.hasPrefix("server.tlsKeyFile: is required") == true
            )
            let bad = problems(["HAAPI_GATEWAY_SERVER_TLS_CERTIFICATE_FILE": garbage.path, "HAAPI_GATEWAY_SERVER_TLS_KEY_FILE": key.path])
            #expect(bad.count == 1 && bad[0].hasPrefix("server.tlsCertificateFile") && bad[0].contains("PEM certificate"), "\(bad)")
            let badKey = problems(["HAAPI_GATEWAY_SERVER_TLS_CERTIFICATE_FILE": certificate.path, "HAAPI_GATEWAY_SERVER_TLS_KEY_FILE": garbage.path])
            #expect(badKey.count == 1 && badKey[0].hasPrefix("server.tlsKeyFile"), "\(badKey)")
            let loaded = try GatewayConfiguration.load(
                file: nil,
                environment: ["HAAPI_GATEWAY_SERVER_TLS_CERTIFICATE_FILE": certificate.path, "HAAPI_GATEWAY_SERVER_TLS_KEY_FILE": key.path]
            )
            #expect(loaded.server.tls == Self.serverTLS)
            #expect(loaded.server.servesTLS)
            #expect(!loaded.summary.joined().contains("PRIVATE KEY"))
        }
    }
}
