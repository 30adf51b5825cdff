import Foundation
import HAAPI
import Logging
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The device authorization request (RFC 8628 §3.1) and its answer (§3.2).
@Suite("Device authorization request")
struct DeviceAuthorizationRequestTests {
    static let issuer = URL(string: ScriptedAuthorizationServer.issuer)!

    static func connect(_ server: ScriptedAuthorizationServer, secret: String?) async throws -> DeviceAuthorizationClient {
        try await DeviceAuthorizationClient.connect(
            to: issuer,
            credentials: DeviceClientCredentials(clientID: "pi-kitchen", secret: secret),
            transport: server.transport,
            logger: .quiet
        )
    }

    @Test("a device client with a secret authenticates with HTTP Basic and sends neither its id nor its secret in the form")
    func basicAuthentication() async throws {
        let server = ScriptedAuthorizationServer()
        let grant = try await Self.connect(server, secret: "s3cret:+/").requestAuthorization()
        let request = try #require(server.requests(to: "/oauth/device_authorization").first)
        #expect(request.method == "POST")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        // RFC 6749 §2.3.1: id and secret form-encoded before Base64.
        #expect(ScriptedAuthorizationServer.basicCredentials(request) == "pi-kitchen:s3cret%3A%2B%2F")
        #expect(request.form.isEmpty, "no client_id, client_secret or scope: \(request.form)")
        #expect(grant.userCode == "WDJB-MJHT")
        #expect(grant.deviceCode == "secret-device-code")
        #expect(grant.verificationURI.absoluteString == "https://gateway.example/device")
        #expect(grant.verificationURIComplete?.absoluteString == "https://gateway.example/device?user_code=WDJB-MJHT")
        #expect(grant.expiresIn == .seconds(600) && grant.interval == .seconds(5))
    }

    @Test("a public device client sends only its client_id (and the scopes when asked for)")
    func publicClient() async throws {
        let server = ScriptedAuthorizationServer()
        let device = try await Self.connect(server, secret: nil)
        _ = try await device.requestAuthorization()
        _ = try await device.requestAuthorization(scopes: ["openid", "profile"])
        let requests = server.requests(to: "/oauth/device_authorization")
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.header("Authorization") == nil })
        #expect(requests[0].form == ["client_id": "pi-kitchen"])
        #expect(requests[1].form == ["client_id": "pi-kitchen", "scope": "openid profile"])
    }

    @Test(
        "the client authentication follows what the gateway accepts: client_secret_post when it lists only that; a public client where none is refused"
    )
    func authenticationFromMetadata() async throws {
        let postOnly = ScriptedAuthorizationServer(
            metadata: ScriptedAuthorizationServer.standardMetadata.replacingOccurrences(
                of: #""client_secret_basic","client_secret_post","none""#,
                with: #""client_secret_post""#
            )
        )
        _ = try await Self.connect(postOnly, secret: "s3cret").requestAuthorization()
        let request = try #require(postOnly.requests(to: "/oauth/device_authorization").first)
        #expect(request.header("Authorization") == nil)
        #expect(request.form == ["client_id": "pi-kitchen", "client_secret": "s3cret"])

        let confidentialOnly = ScriptedAuthorizationServer(
            metadata: ScriptedAuthorizationServer.standardMetadata.replacingOccurrences(of: #","none""#, with: "")
        )
        await #expect {
            _ = try await Self.connect(confidentialOnly, secret: nil)
        } throws: { error in
            (error as? DeviceClientError)?.message.contains("--device-client-secret-file") == true
        }
        #expect(confidentialOnly.requests(to: "/oauth/device_authorization").isEmpty, "nothing is sent that the gateway would refuse")
    }

    @Test("a refusal (invalid_client) is an error carrying the OAuth error; so is an answer without the codes")
    func refusals() async throws {
        let refusing = ScriptedAuthorizationServer(
            deviceAuthorization: .json(401, #"{"error":"invalid_client","error_description":"unknown client"}"#)
        )
        let device = try await Self.connect(refusing, secret: "wrong")
        await #expect {
            _ = try await device.requestAuthorization()
        } throws: { error in
            guard let error = error as? DeviceClientError else { return false }
            return error.oauthError?.error == "invalid_client" && error.message.contains("invalid_client: unknown client")
        }

        let broken = ScriptedAuthorizationServer(
            deviceAuthorization: .json(200, #"{"user_code":"WDJB-MJHT","verification_uri":"https://gateway.example/device","expires_in":600}"#)
        )
        await #expect {
            _ = try await Self.connect(broken, secret: "s").requestAuthorization()
        } throws: { error in
            (error as? DeviceClientError)?.message.contains("device_code") == true
        }
    }

    @Test("the answer: interval 5 s when not given, at least 1 s; nothing a terminal would obey; the device code never described")
    func grantDecoding() throws {
        func grant(_ members: String) throws(DeviceClientError) -> DeviceAuthorizationGrant {
            try DeviceAuthorizationGrant.decode(try! JSONDecoder().decode(JSONValue.self, from: Data("{\(members)}".utf8)))
        }
        let base = #""device_code":"dc-123","verification_uri":"https://gateway.example/device","expires_in":600"#
        #expect(try grant(base + #","user_code":"ABCD-EFGH""#).interval == .seconds(5))
        #expect(try grant(base + #","user_code":"ABCD-EFGH","interval":0"#).interval == .seconds(1))
        #expect(try grant(base + #","user_code":"ABCD-EFGH","interval":7"#).interval == .seconds(7))
        #expect(throws: DeviceClientError.self) { try grant(base + #","user_code":"ABCD\u001b[2J""#) }
        #expect(throws: DeviceClientError.self) { try grant(base + #","user_code":"ABCD-EFGH","verification_uri_complete":"javascript:alert(1)""#) }
        #expect(throws: DeviceClientError.self) {
            try grant(#""device_code":"d","user_code":"A","verification_uri":"https://g.example","expires_in":0"#)
        }
        let described = try grant(base + #","user_code":"ABCD-EFGH""#).description
        #expect(described.contains("ABCD-EFGH") && !described.contains("dc-123"))
        #expect(!DeviceClientCredentials(clientID: "pi", secret: "s3cret").description.contains("s3cret"))
    }
}
