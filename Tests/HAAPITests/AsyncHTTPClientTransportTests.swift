import Foundation
import Synchronization
import Testing

@testable import GatewayTestSupport
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

    @Test("the whole exchange's limit: an operation still running at the limit is cancelled and the call fails as a timeout")
    func limitCancelsTheOperation() async throws {
        let started = ContinuousClock.now
        let cancelled = Mutex(false)
        let error = await #expect(throws: HAAPIError.self) {
            try await AsyncHTTPClientTransport.withTimeout(.milliseconds(50)) {
                do { try await Task.sleep(for: .seconds(60)) } catch {
                    cancelled.withLock { $0 = true }
                    throw error
                }
                return 1
            }
        }
        #expect(error?.code == .timeout)
        #expect(cancelled.withLock { $0 }, "the operation saw its cancellation")
        let took = ContinuousClock.now - started
        #expect(took < .seconds(30), "\(MachineLoad.waited(took, for: "a 50 ms limit to cancel its operation"))")
    }

    @Test("within the limit the operation's value and its own error come back unchanged")
    func resultWithinTheLimit() async throws {
        let value = try await AsyncHTTPClientTransport.withTimeout(.seconds(30)) { 42 }
        #expect(value == 42)
        let error = await #expect(throws: HAAPIError.self) {
            try await AsyncHTTPClientTransport.withTimeout(.seconds(30)) { () async throws -> Int in throw HAAPIError(.transport, "refused") }
        }
        #expect(error?.code == .transport)
    }

    @Test("an exchange that failed for a named cause (a refused connection) says so even when the limit fired first")
    func namedCauseWinsOverTheLimit() async throws {
        let error = await #expect(throws: HAAPIError.self) {
            try await AsyncHTTPClientTransport.withTimeout(.milliseconds(20)) { () async throws -> Int in
                try? await Task.sleep(for: .milliseconds(300))  // its cancellation ignored, as a busy machine's late answer
                throw HAAPIError(.connectionRefused, "the upstream refused the connection")
            }
        }
        #expect(error?.code == .connectionRefused)
        let late = await #expect(throws: HAAPIError.self) {
            try await AsyncHTTPClientTransport.withTimeout(.milliseconds(20)) { () async throws -> Int in
                try? await Task.sleep(for: .milliseconds(300))
                throw HAAPIError(.transport, "the HTTP exchange failed (cancelled)")
            }
        }
        #expect(late?.code == .timeout, "a failure the cancellation may have made is the timeout")
    }

    @Test("a caller's cancellation reaches the operation")
    func callerCancellationReachesTheOperation() async throws {
        let cancelled = Mutex(false)
        let caller = Task {
            try await AsyncHTTPClientTransport.withTimeout(.seconds(60)) {
                do { try await Task.sleep(for: .seconds(60)) } catch { cancelled.withLock { $0 = true } }
                return 1
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        caller.cancel()
        _ = try? await caller.value
        #expect(cancelled.withLock { $0 })
    }
}
