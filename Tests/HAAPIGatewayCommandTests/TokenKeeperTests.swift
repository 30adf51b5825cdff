import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `login`, then `keep` and `logout` against a demo upstream that outlives them (short access tokens).
@Suite(.startsPrograms()) struct TokenKeeperTests {
    private struct Tokens: Decodable {
        struct Token: Decodable {
            let accessToken: String
            let refreshToken: String?
        }
        let token: Token
    }

    private func tokens(at url: URL) throws -> Tokens.Token {
        try JSONDecoder().decode(Tokens.self, from: try Data(contentsOf: url)).token
    }

    /// Upstream calls may be slow while the whole suite loads this machine.
    static let patient: [String: String] = ["HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60"]

    /// Against a strict demo with and without token-bound authorization codes (Curity's
    /// `issue-token-bound-authorization-code`), found by the gateway itself: bound tokens come with their key and are
    /// refreshed with proofs by it.
    @Test(arguments: [false, true])
    func keepRefreshesLogoutRevokesAndARevokedTokenStopsTheKeeper(boundToDPoP: Bool) async throws {
        var demoConfiguration = DemoServerConfiguration.strict
        if !boundToDPoP { demoConfiguration.bindOnlyWhenRequested() }
        demoConfiguration.accessTokenLifetimeSeconds = 4
        let demo = try await DemoServer.start(configuration: demoConfiguration)
        do {
            try await walk(demo, boundToDPoP: boundToDPoP)
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }

    private func walk(_ demo: RunningDemoServer, boundToDPoP: Bool) async throws {
        let upstream = ["--upstream", demo.issuer, "--client-id", DemoServer.clientID, "--client-secret", DemoServer.clientSecret]
        let environment = Self.patient
        let directory = try Repository.temporaryDirectory().appendingPathComponent("private")
        let tokenFile = directory.appendingPathComponent("tokens.json")
        let tokenArguments = ["--token-file", tokenFile.path]

        // Sign in once.
        let login = try RunningGateway(["login", "--port", "0", "--timeout-seconds", "120"] + tokenArguments + upstream, environment: environment)
        _ = try await login.pairAndSignIn()
        #expect(try await login.waitForExit() == 0, "\(login.standardError)")
        let first = try tokens(at: tokenFile)
        let document = try JSONSerialization.jsonObject(with: try Data(contentsOf: tokenFile)) as? [String: Any]
        #expect((document?["token"] as? [String: Any])?["tokenType"] as? String == (boundToDPoP ? "DPoP" : "Bearer"))
        #expect(((document?["dpopPrivateKey"] as? String)?.contains("PRIVATE KEY") ?? false) == boundToDPoP, "the key travels only with bound tokens")

        // keep --once refreshes now, with refresh token rotation.
        let once = try await runGateway(["keep", "--once"] + tokenArguments + upstream, environment: environment, directory: Repository.root)
        #expect(once.status == 0, "\(once.standardError)")
        #expect(once.standardOutput.contains("Refreshed the tokens in \(tokenFile.path); the access token expires in 4 s."))
        let second = try tokens(at: tokenFile)
        #expect(second.accessToken != first.accessToken)
        #expect(second.refreshToken != first.refreshToken)
        #expect(!once.standardOutput.contains(second.accessToken), "never a token in the output")

        // keep refreshes by itself when three quarters of the lifetime have passed, and runs the hook.
        let hookOutput = directory.appendingPathComponent("hook-ran")
        let hook = try Repository.temporaryDirectory().appendingPathComponent("hook.sh")
        try "#!/bin/sh\necho \"$HAAPI_GATEWAY_TOKEN_FILE\" > '\(hookOutput.path)'\n".write(to: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: hook.path)
        let keeper = try RunningGateway(["keep", "--exec", hook.path] + tokenArguments + upstream, environment: environment)
        _ = try await keeper.waitForOutput(#"(Refreshed the tokens)"#, timeout: .seconds(30))
        _ = try await keeper.waitForExit(timeout: .milliseconds(300))
        let third = try tokens(at: tokenFile)
        #expect(third.accessToken != second.accessToken)
        #expect((try? String(contentsOf: hookOutput, encoding: .utf8))?.contains(tokenFile.path) == true)

        // logout revokes; a copy of the revoked tokens can no longer be refreshed, and the keeper says to sign in again.
        let stale = directory.appendingPathComponent("stale.json")
        try FileManager.default.copyItem(at: tokenFile, to: stale)
        let logout = try await runGateway(["logout"] + tokenArguments + upstream, environment: environment, directory: Repository.root)
        #expect(logout.status == 0, "\(logout.standardError)")
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
        let refused = try await runGateway(
            ["keep", "--once", "--token-file", stale.path] + upstream,
            environment: environment,
            directory: Repository.root
        )
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("invalid_grant"))
        #expect(refused.standardError.contains("Sign in again"))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    /// A token file not marked as the embedded demo's (an older `login`'s, or one whose upstream was not named): without
    /// an upstream, `keep` and `logout` stop with one line saying to name it, and what to do with a demo's file.
    @Test func keepAndLogoutNeedARealUpstream() async throws {
        let directory = try Repository.temporaryDirectory()
        let file = directory.appendingPathComponent("tokens.json")
        try #"{"outcome":"success","token":{"accessToken":"a","refreshToken":"r","tokenType":"Bearer","expiresIn":60}}"#.write(
            to: file,
            atomically: true,
            encoding: .utf8
        )
        let keep = try await runGateway(["keep", "--once", "--token-file", file.path], directory: Repository.root)
        #expect(keep.status == 78)
        #expect(keep.standardError.contains("no upstream is configured to refresh the tokens of \(file.path) at: set the one they came from"))
        let logout = try await runGateway(["logout", "--token-file", file.path], directory: Repository.root)
        #expect(logout.status == 78)
        #expect(logout.standardError.split(separator: "\n").count == 1, "one line: \(logout.standardError)")
        #expect(logout.standardError.contains("if they came from the embedded demo upstream"))
        #expect(logout.standardError.contains("just delete \(file.path)"))
        #expect(FileManager.default.fileExists(atPath: file.path), "nothing is deleted without knowing where the tokens came from")
        let missing = try await runGateway(
            ["logout", "--token-file", directory.appendingPathComponent("none.json").path],
            directory: Repository.root
        )
        #expect(missing.status == 78)
        #expect(missing.standardError.contains("sign in with haapi-gateway login first"))
    }

    /// Tokens of the embedded demo upstream (`login` without an upstream), which ended with that `login`: the file says
    /// so, `keep` says they cannot be refreshed (exit 1), and `logout` deletes the file without asking any server (exit 0).
    @Test func tokensOfTheEmbeddedDemoAreSignedOutOfByDeletingTheirFile() async throws {
        let tokenFile = try Repository.temporaryDirectory().appendingPathComponent("private").appendingPathComponent("tokens.json")
        let login = try RunningGateway(
            ["login", "--port", "0", "--token-file", tokenFile.path, "--timeout-seconds", "120"],
            environment: Self.patient
        )
        #expect(try await login.pairAndSignIn().html.contains("You are signed in"))
        #expect(try await login.waitForExit() == 0, "\(login.standardError)")
        let document = try JSONSerialization.jsonObject(with: try Data(contentsOf: tokenFile)) as? [String: Any]
        #expect(document?["embeddedDemoUpstream"] as? Bool == true)
        #expect(document?["outcome"] as? String == "success" && document?["token"] != nil)

        let keep = try await runGateway(["keep", "--once", "--token-file", tokenFile.path], directory: Repository.root)
        #expect(keep.status == 1)
        #expect(
            keep.standardError.contains("came from the embedded demo upstream, which ended with the login that issued them: they cannot be refreshed")
        )
        #expect(FileManager.default.fileExists(atPath: tokenFile.path))

        let logout = try await runGateway(["logout", "--token-file", tokenFile.path], directory: Repository.root)
        #expect(logout.status == 0, "\(logout.standardError)")
        #expect(logout.standardOutput.contains("Signed out: the tokens came from the embedded demo upstream"))
        #expect(logout.standardOutput.contains("nothing to revoke; \(tokenFile.path) deleted."))
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
    }
}
