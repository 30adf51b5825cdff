import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// What `keep` and `logout` say when they end: ``RefreshLoop/Ending/problem(tokenPath:)`` and
/// ``TokenRevoker/Outcome/report(tokenPath:server:)``.
@Suite("How keep and logout end")
struct KeepAndLogoutEndingTests {
    typealias Ending = RefreshLoop<ContinuousClock>.Ending

    @Test("keep: stopped is no problem; each other ending one line and its status")
    func keepEndings() {
        #expect(Ending.stopped.problem(tokenPath: "/t") == nil)
        #expect(Ending.noRefreshToken.problem(tokenPath: "/t") == HostTokenProblem("the tokens in /t have no refresh token; sign in again"))
        #expect(Ending.signInAgain.problem(tokenPath: "/t")?.message.contains("(invalid_grant); /t was deleted") == true)
        #expect(Ending.unreadable(GatewayError(.configuration, "bad file")).problem(tokenPath: "/t")?.exitStatus == 78)
        let refusal = OAuthErrorResponse(error: "invalid_client", errorDescription: "no\nway", errorURI: nil, httpStatus: 401)
        let refused = Ending.refused(refusal).problem(tokenPath: "/t")
        #expect(refused?.exitStatus == 1)
        #expect(refused?.message.hasPrefix("the token endpoint refused the refresh: invalid_client: no") == true)
        #expect(refused?.message.contains("\n") == false)
        #expect(HostTokenProblem.embeddedDemoTokens("/t").message.contains("came from the embedded demo upstream"))
    }

    @Test("logout: signed out is the line printed; a refusal names the server and keeps the file")
    func logoutOutcomes() throws {
        #expect(
            try TokenRevoker.Outcome.signedOut.report(tokenPath: "/t", server: "upstream").get()
                == "Signed out: the tokens were revoked and /t deleted."
        )
        let refusal = OAuthErrorResponse(error: "unsupported_token_type", errorDescription: nil, errorURI: nil, httpStatus: 400)
        guard case .failure(let refused) = TokenRevoker.Outcome.refused(refusal).report(tokenPath: "/t", server: "gateway") else {
            Issue.record("a refusal was reported as signed out")
            return
        }
        #expect(refused == HostTokenProblem("the gateway refused the revocation: unsupported_token_type; /t was kept"))
        guard case .failure(let kept) = TokenRevoker.Outcome.notDeleted.report(tokenPath: "/t", server: "upstream") else { return }
        #expect(kept.message == "revoked, but /t could not be deleted")
    }

    @Test("logout of the embedded demo's tokens deletes the file and asks no server")
    func embeddedDemo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("logout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("tokens.json").path
        let tokens = OAuthTokens(accessToken: "a", expiresIn: 300, refreshToken: "r", tokenType: "Bearer", scope: nil, idToken: nil)
        try TokenFile.write(.success(tokens), to: path, embeddedDemo: true)
        let line = try TokenRevoker.discardEmbeddedDemo(tokenFile: path).get()
        #expect(line.hasPrefix("Signed out: the tokens came from the embedded demo upstream"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
