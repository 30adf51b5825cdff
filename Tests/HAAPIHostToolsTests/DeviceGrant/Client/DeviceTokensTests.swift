import Foundation
import HAAPI
import Logging
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// `keep --via` and `logout --via` in the library: refreshing through the central gateway's token endpoint with
/// ``TokenKeeper``, and revoking through its revocation endpoint with ``TokenRevoker``, as the device client.
@Suite("Device tokens")
struct DeviceTokensTests {
    static let tokens = OAuthTokens(
        accessToken: "old-access",
        expiresIn: 300,
        refreshToken: "old-refresh",
        tokenType: "Bearer",
        scope: "openid",
        idToken: "old-id"
    )

    static func device(_ server: ScriptedAuthorizationServer, secret: String? = "s") async throws -> DeviceAuthorizationClient {
        try await DeviceAuthorizationClient.connect(
            to: URL(string: ScriptedAuthorizationServer.issuer)!,
            credentials: DeviceClientCredentials(clientID: "pi", secret: secret),
            transport: server.transport,
            logger: .quiet
        )
    }

    static func tokenFile() throws -> String {
        let path = try DeviceLoginTests.tokenPath()
        try TokenFile.write(.success(tokens), to: path)
        return path
    }

    @Test("keep refreshes at the gateway's token endpoint with grant_type=refresh_token, as the device client")
    func refreshThroughTheGateway() async throws {
        let server = ScriptedAuthorizationServer(tokenAnswers: [.json(200, #"{"access_token":"new-access","token_type":"Bearer","expires_in":300}"#)])
        let path = try Self.tokenFile()
        guard case .refreshed(let merged) = await TokenKeeper(path: path).refresh(Self.tokens, with: try await Self.device(server).tokenManager)
        else {
            Issue.record("not refreshed")
            return
        }
        #expect(merged.accessToken == "new-access" && merged.refreshToken == "old-refresh")
        #expect(try TokenFile.read(path).tokens.accessToken == "new-access")
        let request = try #require(server.requests(to: "/oauth/token").first)
        #expect(request.form == ["grant_type": "refresh_token", "refresh_token": "old-refresh"])
        #expect(ScriptedAuthorizationServer.basicCredentials(request) == "pi:s")

        // A public device client names itself in the form.
        let publicServer = ScriptedAuthorizationServer(tokenAnswers: [.error("invalid_grant")])
        guard
            case .signInAgain = await TokenKeeper(path: path).refresh(
                Self.tokens,
                with: try await Self.device(publicServer, secret: nil).tokenManager
            )
        else {
            Issue.record("invalid_grant is not 'sign in again'")
            return
        }
        #expect(
            publicServer.requests(to: "/oauth/token").first?.form == [
                "grant_type": "refresh_token", "refresh_token": "old-refresh", "client_id": "pi",
            ]
        )
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("logout revokes the refresh token, then the access token, at the gateway's revocation endpoint, then deletes the file")
    func revokeThroughTheGateway() async throws {
        let server = ScriptedAuthorizationServer()
        let path = try Self.tokenFile()
        let outcome = await TokenRevoker(path: path, selection: .refreshTokenThenAccessToken).signOut(
            Self.tokens,
            with: try await Self.device(server).tokenManager
        )
        #expect(outcome == .signedOut)
        let revocations = server.requests(to: "/oauth/revoke")
        #expect(
            revocations.map(\.form) == [
                ["token": "old-refresh", "token_type_hint": "refresh_token"], ["token": "old-access", "token_type_hint": "access_token"],
            ]
        )
        #expect(revocations.allSatisfy { ScriptedAuthorizationServer.basicCredentials($0) == "pi:s" })
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a revocation that fails or is refused keeps the token file; an upstream gets the refresh token alone")
    func revocationFailures() async throws {
        let path = try Self.tokenFile()
        let down = ScriptedAuthorizationServer(revocationAnswers: [.json(200, ""), .networkFailure])
        guard
            case .failed = await TokenRevoker(path: path, selection: .refreshTokenThenAccessToken).signOut(
                Self.tokens,
                with: try await Self.device(down).tokenManager
            )
        else {
            Issue.record("a network failure is not a failure")
            return
        }
        #expect(FileManager.default.fileExists(atPath: path))

        let refusing = ScriptedAuthorizationServer(revocationAnswers: [.error("invalid_client")])
        guard
            case .refused(let error) = await TokenRevoker(path: path, selection: .refreshTokenThenAccessToken).signOut(
                Self.tokens,
                with: try await Self.device(refusing).tokenManager
            )
        else {
            Issue.record("invalid_client is not a refusal")
            return
        }
        #expect(error.error == "invalid_client")
        #expect(refusing.requests(to: "/oauth/revoke").count == 1)
        #expect(FileManager.default.fileExists(atPath: path))

        let upstream = ScriptedAuthorizationServer()
        #expect(
            await TokenRevoker(path: path, selection: .refreshTokenElseAccessToken).signOut(
                Self.tokens,
                with: try await Self.device(upstream).tokenManager
            ) == .signedOut
        )
        #expect(upstream.requests(to: "/oauth/revoke").map { $0.form["token"] } == ["old-refresh"])
    }
}
