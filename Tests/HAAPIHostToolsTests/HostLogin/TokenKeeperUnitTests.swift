import Foundation
import HAAPI
import Synchronization
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// ``TokenKeeper``, the library side of `keep`: when a refresh is due, what a refresh answer leaves out, and what each
/// answer of the token endpoint does to the token file (against a scripted token endpoint).
@Suite("Token keeper")
struct TokenKeeperUnitTests {
    static let tokens = OAuthTokens(
        accessToken: "old-access",
        expiresIn: 400,
        refreshToken: "old-refresh",
        tokenType: "Bearer",
        scope: "openid profile",
        idToken: "old-id"
    )

    /// How often the scripted token endpoint was asked.
    final class Asked: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A client whose token endpoint answers `status` with `body`, and how often it was asked.
    static func client(answering status: Int, _ body: String) async throws -> (HAAPIClient, Asked) {
        let asked = Asked()
        let client = try await client { _ in
            asked.increment()
            return HTTPResponseData(status: status, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
        }
        return (client, asked)
    }

    /// A client of `https://login.example` with its endpoints named (no discovery), whose every request `answer` answers.
    static func client(_ answer: @escaping @Sendable (HTTPRequestData) async throws -> HTTPResponseData) async throws -> HAAPIClient {
        var configuration = HAAPIClientConfiguration(
            baseURL: URL(string: "https://login.example")!,
            clientID: "device",
            clientAuthentication: .secretBasic("s"),
            redirectURI: "haapi:start",
            scopes: ["openid"]
        )
        configuration.endpoints = HAAPIEndpoints(
            authorization: URL(string: "https://login.example/authorize")!,
            token: URL(string: "https://login.example/token")!
        )
        return try await HAAPIClient(configuration: configuration, transport: ClosureHAAPITransport(answer))
    }

    static func tokenFile() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keeper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("tokens.json").path
        try TokenFile.write(.success(tokens), to: path)
        return path
    }

    @Test("a refresh is due three quarters into the access token's lifetime (300 s when unknown), at least a second after writing")
    func due() {
        let written = Date(timeIntervalSince1970: 1_000)
        #expect(TokenKeeper.refreshDue(for: Self.tokens, writtenAt: written) == Date(timeIntervalSince1970: 1_300))
        let unknown = OAuthTokens(accessToken: "a", expiresIn: nil, refreshToken: "r", tokenType: "Bearer", scope: nil, idToken: nil)
        #expect(TokenKeeper.refreshDue(for: unknown, writtenAt: written) == Date(timeIntervalSince1970: 1_225))
        let instant = OAuthTokens(accessToken: "a", expiresIn: 0, refreshToken: "r", tokenType: "Bearer", scope: nil, idToken: nil)
        #expect(TokenKeeper.refreshDue(for: instant, writtenAt: written) == Date(timeIntervalSince1970: 1_001))
    }

    @Test("fresh tokens are written, keeping the refresh token, ID token and scope a refresh answer leaves out")
    func refreshed() async throws {
        let path = try Self.tokenFile()
        let (client, asked) = try await Self.client(answering: 200, #"{"access_token":"new-access","token_type":"Bearer","expires_in":600}"#)
        guard case .refreshed(let merged) = await TokenKeeper(path: path).refresh(Self.tokens, with: client.tokenManager) else {
            Issue.record("not refreshed")
            return
        }
        #expect(merged.accessToken == "new-access" && merged.expiresIn == 600)
        #expect(merged.refreshToken == "old-refresh" && merged.idToken == "old-id" && merged.scope == "openid profile")
        #expect(try TokenFile.read(path).tokens.accessToken == "new-access")
        #expect(asked.value == 1)
        try await client.shutdown()
    }

    @Test("invalid_grant deletes the token file (sign in again); another OAuth error leaves it; no refresh token asks nothing")
    func refusals() async throws {
        let path = try Self.tokenFile()
        let (expired, _) = try await Self.client(answering: 400, #"{"error":"invalid_grant"}"#)
        guard case .signInAgain = await TokenKeeper(path: path).refresh(Self.tokens, with: expired.tokenManager) else {
            Issue.record("invalid_grant is not 'sign in again'")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: path))

        let kept = try Self.tokenFile()
        let (refusing, _) = try await Self.client(answering: 401, #"{"error":"invalid_client"}"#)
        guard case .refused(let error) = await TokenKeeper(path: kept).refresh(Self.tokens, with: refusing.tokenManager) else {
            Issue.record("invalid_client is not a refusal")
            return
        }
        #expect(error.error == "invalid_client")
        #expect(FileManager.default.fileExists(atPath: kept))

        let (untouched, asked) = try await Self.client(answering: 200, "{}")
        let withoutRefresh = OAuthTokens(accessToken: "a", expiresIn: 60, refreshToken: nil, tokenType: "Bearer", scope: nil, idToken: nil)
        guard case .noRefreshToken = await TokenKeeper(path: kept).refresh(withoutRefresh, with: untouched.tokenManager) else {
            Issue.record("no refresh token")
            return
        }
        #expect(asked.value == 0)
        for client in [expired, refusing, untouched] { try await client.shutdown() }
    }
}
