import Foundation
import HAAPI
import Logging
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// How a device finds a central gateway's endpoints (RFC 8414) and which gateway URLs it accepts.
@Suite("Authorization server metadata")
struct AuthorizationServerMetadataTests {
    static let issuer = URL(string: ScriptedAuthorizationServer.issuer)!

    /// The error `body` throws, or nil.
    static func error(_ body: () async throws -> Void) async -> DeviceClientError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? DeviceClientError
        }
    }

    @Test("the endpoints come from the metadata at /.well-known/oauth-authorization-server, whatever their paths")
    func endpointsFromMetadata() async throws {
        let server = ScriptedAuthorizationServer(
            metadata: """
                {"issuer":"https://gateway.example/","device_authorization_endpoint":"https://gateway.example/as/device",
                "token_endpoint":"https://gateway.example/as/token","revocation_endpoint":"https://gateway.example/as/revoke"}
                """
        )
        let metadata = try await AuthorizationServerMetadata.discover(issuer: Self.issuer, transport: server.transport)
        #expect(server.requests.map(\.path) == ["/.well-known/oauth-authorization-server"])
        #expect(server.requests.first?.method == "GET")
        #expect(metadata.deviceAuthorizationEndpoint.absoluteString == "https://gateway.example/as/device")
        #expect(metadata.tokenEndpoint.absoluteString == "https://gateway.example/as/token")
        #expect(metadata.revocationEndpoint?.absoluteString == "https://gateway.example/as/revoke")
        #expect(metadata.grantTypesSupported == nil && metadata.tokenEndpointAuthMethodsSupported == nil)

        // The device client uses them: the device authorization goes to the metadata's path, not a guessed one.
        let device = try await DeviceAuthorizationClient.connect(
            to: Self.issuer,
            credentials: DeviceClientCredentials(clientID: "pi", secret: "s"),
            transport: server.transport,
            logger: .quiet
        )
        _ = try await device.requestAuthorization()
        #expect(server.requests.last?.path == "/as/device")
        #expect(server.requests.last?.method == "POST")
    }

    @Test("metadata without device_authorization_endpoint is a clear error: the gateway does not offer device sign-in")
    func missingDeviceAuthorizationEndpoint() async throws {
        let server = ScriptedAuthorizationServer(
            metadata: #"{"issuer":"https://gateway.example","token_endpoint":"https://gateway.example/oauth/token"}"#
        )
        let error = try #require(
            await Self.error { _ = try await AuthorizationServerMetadata.discover(issuer: Self.issuer, transport: server.transport) }
        )
        #expect(error.message.contains("does not offer device sign-in"))
        #expect(error.message.contains("device_authorization_endpoint"))
        #expect(error.exitStatus == 1)
    }

    @Test("other metadata a device cannot use is refused, each with its reason")
    func unusableMetadata() async throws {
        let cases: [(String, String)] = [
            (
                #"{"issuer":"https://other.example","device_authorization_endpoint":"https://gateway.example/d","token_endpoint":"https://gateway.example/t"}"#,
                "RFC 8414 §3.3"
            ),
            (#"{"device_authorization_endpoint":"https://gateway.example/d","token_endpoint":"https://gateway.example/t"}"#, "names no issuer"),
            (#"{"issuer":"https://gateway.example","device_authorization_endpoint":"https://gateway.example/d"}"#, "names no token_endpoint"),
            (
                #"{"issuer":"https://gateway.example","device_authorization_endpoint":"http://gateway.example/d","token_endpoint":"https://gateway.example/t"}"#,
                "not an absolute https URL"
            ),
            (
                #"{"issuer":"https://gateway.example","device_authorization_endpoint":"https://gateway.example/d","token_endpoint":"https://gateway.example/t","grant_types_supported":["authorization_code"]}"#,
                "does not offer the device authorization grant"
            ),
            ("[]", "not a JSON object"),
        ]
        for (document, reason) in cases {
            let error = await Self.error { _ = try AuthorizationServerMetadata.decode(Data(document.utf8), issuer: Self.issuer) }
            #expect(error?.message.contains(reason) == true, "\(document): \(error?.message ?? "accepted")")
        }
    }

    @Test("a gateway without metadata (404) or one that cannot be reached is a clear error")
    func noMetadata() async throws {
        let missing = ClosureHAAPITransport { _ in HTTPResponseData(status: 404) }
        let notFound = try #require(await Self.error { _ = try await AuthorizationServerMetadata.discover(issuer: Self.issuer, transport: missing) })
        #expect(notFound.message.contains("publishes no authorization server metadata"))
        let down = ClosureHAAPITransport { _ in throw HAAPIError(.connectionRefused, "nothing listens") }
        let unreachable = try #require(await Self.error { _ = try await AuthorizationServerMetadata.discover(issuer: Self.issuer, transport: down) })
        #expect(unreachable.message.contains("could not be reached"))
    }

    @Test("the gateway URL: https, or http only on a loopback address; no query, fragment or user info")
    func gatewayURL() async throws {
        for good in [
            "https://gateway.example", "https://gateway.example:8443/", "http://127.0.0.1:8080", "http://localhost:9000", "http://[::1]:8080",
        ] {
            #expect(throws: Never.self, "\(good)") { try AuthorizationServerMetadata.issuer(good) }
        }
        let bad: [(String, String)] = [
            ("http://gateway.example", "must use https"), ("http://127.0.0.evil", "must use https"), ("http://10.0.0.2:8080", "must use https"),
            ("gateway.example", "not an absolute http(s) URL"), ("ftp://gateway.example", "not an absolute http(s) URL"),
            ("https://gateway.example/?a=b", "must not have a query"), ("https://user:pw@gateway.example", "user info"),
        ]
        for (text, reason) in bad {
            let error = await Self.error { _ = try AuthorizationServerMetadata.issuer(text) }
            #expect(error?.message.contains(reason) == true, "\(text): \(error?.message ?? "accepted")")
            #expect(error?.exitStatus == 78)
        }
    }

    @Test("the metadata URL puts the well-known path between the host and the issuer's path (RFC 8414 §3.1)")
    func metadataURL() {
        #expect(
            AuthorizationServerMetadata.metadataURL(for: URL(string: "https://gw.example")!).absoluteString
                == "https://gw.example/.well-known/oauth-authorization-server"
        )
        #expect(
            AuthorizationServerMetadata.metadataURL(for: URL(string: "https://gw.example/")!).absoluteString
                == "https://gw.example/.well-known/oauth-authorization-server"
        )
        #expect(
            AuthorizationServerMetadata.metadataURL(for: URL(string: "https://gw.example:8443/tenant/")!).absoluteString
                == "https://gw.example:8443/.well-known/oauth-authorization-server/tenant"
        )
    }
}
