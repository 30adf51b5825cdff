import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `haapi-gateway token` after a real `login` against a demo upstream that outlives it: it prints what the token file
/// holds, refreshes first when the access token expires within `--min-valid-seconds` (with no upstream options: the
/// upstream and client `login` recorded, the secret from the environment or the user's configuration file), twenty
/// callers at once make one refresh against a server that rotates refresh tokens and revokes the sign-in when one is used
/// twice, and the docs' lines (the configuration file, the curl line) work as written.
@Suite(.startsPrograms()) struct TokenCommandTests {
    private struct Document: Decodable {
        struct Token: Decodable {
            let accessToken: String
            let refreshToken: String?
            let idToken: String?
        }
        struct Origin: Decodable {
            let issuedBy: String
            let issuer: String
            let clientID: String
        }
        let token: Token
        let origin: Origin?
    }

    private static func document(_ file: URL) throws -> Document {
        try JSONDecoder().decode(Document.self, from: try Data(contentsOf: file))
    }

    private static func token(_ arguments: [String], _ tokenFile: URL) async throws -> ProcessResult {
        try await runGateway(
            ["token", "--token-file", tokenFile.path] + arguments,
            environment: SignedInHost.environment,
            directory: Repository.root
        )
    }

    @Test(
        "after login, token needs no upstream option: it prints the access token, the ID token, a header and a summary, and refreshes when asked for more validity than is left"
    )
    func printsAndRefreshesWithTheRecordedUpstream() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let tokenFile = try await SignedInHost.login(demo)
            let signedIn = try Self.document(tokenFile)
            #expect(signedIn.origin?.issuedBy == "upstream")
            #expect(signedIn.origin?.issuer == demo.issuer)
            #expect(signedIn.origin?.clientID == DemoServer.clientID)
            #expect(!(try String(contentsOf: tokenFile, encoding: .utf8)).contains(DemoServer.clientSecret), "no secret in the token file")

            let access = try await Self.token([], tokenFile)
            #expect(access.status == 0, "\(access.standardError)")
            #expect(access.standardOutput == signedIn.token.accessToken + "\n", "fresh for 300 s: printed as it is")
            let id = try await Self.token(["--id-token"], tokenFile)
            #expect(id.standardOutput == (signedIn.token.idToken ?? "none") + "\n")
            let header = try await Self.token(["--header"], tokenFile)
            #expect(header.standardOutput == "Bearer " + signedIn.token.accessToken + "\n")
            let summary = try await Self.token(["--json"], tokenFile)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.standardOutput.utf8)) as? [String: Any])
            #expect(json["tokenType"] as? String == "Bearer")
            #expect(json["subject"] as? String == "demo")
            #expect((json["expiresIn"] as? Int).map { (250...300).contains($0) } == true, "\(json)")
            #expect(!summary.standardOutput.contains(signedIn.token.accessToken), "no token in the summary")

            // The access token lives 300 s: asking for 400 refreshes it, through the upstream login recorded.
            let refreshed = try await Self.token(["--min-valid-seconds", "400"], tokenFile)
            #expect(refreshed.status == 0, "\(refreshed.standardError)")
            let after = try Self.document(tokenFile)
            #expect(after.token.accessToken != signedIn.token.accessToken)
            #expect(after.token.refreshToken != signedIn.token.refreshToken, "the demo rotates refresh tokens, as Curity does by default")
            #expect(refreshed.standardOutput == after.token.accessToken + "\n")
            #expect(after.origin?.issuer == demo.issuer, "the refresh keeps the recorded origin")
        }
    }

    @Test("twenty token calls at once after the access token expired make one refresh: all print the same new token, and the sign-in survives")
    func twentyAtOnceMakeOneRefresh() async throws {
        // A server that revokes a sign-in whose rotated refresh token comes back (RFC 9700 §4.14.2): beyond what Curity
        // documents for a confidential client, and the harshest answer to a refresh token spent twice.
        try await SignedInHost.withDemo({ $0.revokesGrantOnRefreshTokenReuse = true }) { demo in
            let tokenFile = try await SignedInHost.login(demo)
            let signedIn = try Self.document(tokenFile)
            // Written an hour ago, the access token (300 s) has expired by the file's clock, which is what `token` goes by;
            // the new one is valid for 300 s, well past the 60 s asked, however long twenty processes take to start here.
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: tokenFile.path)
            let refreshesBefore = demo.tokensIssued(grantType: "refresh_token")
            let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
                for _ in 0..<20 { group.addTask { try await Self.token([], tokenFile) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(demo.tokensIssued(grantType: "refresh_token") - refreshesBefore == 1, "the demo's count of refresh grants")
            #expect(results.allSatisfy { $0.status == 0 }, "\(results.filter { $0.status != 0 }.map(\.standardError))")
            let printed = Set(results.map(\.standardOutput))
            let now = try Self.document(tokenFile)
            #expect(printed == [now.token.accessToken + "\n"], "every caller prints the one new token: \(printed.count) different")
            #expect(now.token.accessToken != signedIn.token.accessToken)
            // Had two callers spent the same refresh token, the demo would have revoked the sign-in.
            let again = try await Self.token(["--min-valid-seconds", "60"], tokenFile)
            #expect(again.status == 0, "the sign-in survived: \(again.standardError)")
        }
    }

    @Test(
        "a newcomer's defaults: with docs/headless-and-devices.md's ~/.config/haapi-gateway/config.yaml, login and token need no option, and the tokens are kept beside it"
    )
    func readsTheUsersConfigurationFile() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let home = try Repository.temporaryDirectory()
            let directory = home.appendingPathComponent(".config/haapi-gateway")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // The doc's file, with the demo's issuer and client: the secret in a file beside it, named relative to it.
            let document = try String(contentsOf: Repository.root.appendingPathComponent("docs/headless-and-devices.md"), encoding: .utf8)
            let block = try #require(
                document.components(separatedBy: "```yaml\n# ~/.config/haapi-gateway/config.yaml").dropFirst().first?.components(separatedBy: "```")
                    .first,
                "the configuration file of docs/headless-and-devices.md"
            )
            let configuration = ("# ~/.config/haapi-gateway/config.yaml" + block).replacingOccurrences(
                of: "https://idsvr.example.com/oauth/v2/oauth-anonymous",
                with: demo.issuer
            )
            .replacingOccurrences(of: "clientID: cli\n", with: "clientID: \(DemoServer.clientID)\n")
            #expect(configuration.contains(demo.issuer) && configuration.contains("clientID: \(DemoServer.clientID)\n"), "\(configuration)")
            // Mode 0600, as the doc's file says, the secret's file too.
            for (name, text) in [("config.yaml", configuration), ("client-secret", DemoServer.clientSecret)] {
                let file = directory.appendingPathComponent(name)
                try Data(text.utf8).write(to: file)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            }
            // Nothing but HOME (and patience with a loaded machine): no option names the upstream, the client, its secret
            // or the token file.
            let environment = ["HOME": home.path, "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60"]
            let login = try RunningGateway(["login", "--port", "0", "--timeout-seconds", "120"], environment: environment)
            _ = try await login.pairAndSignIn()
            #expect(try await login.waitForExit() == 0, "\(login.standardError)")
            let tokenFile = directory.appendingPathComponent("tokens.json")
            let signedIn = try Self.document(tokenFile)
            #expect(signedIn.origin?.issuer == demo.issuer, "the configured upstream issued the tokens, not the embedded demo")

            let refreshed = try await runGateway(["token", "--min-valid-seconds", "400"], environment: environment, directory: home)
            #expect(refreshed.status == 0, "\(refreshed.standardError)")
            let after = try Self.document(tokenFile)
            #expect(after.token.accessToken != signedIn.token.accessToken, "refreshed with the secret from the configuration file")
            #expect(refreshed.standardOutput == after.token.accessToken + "\n")

            // Without the configuration file the secret is missing: one line says so and names where it comes from.
            try FileManager.default.removeItem(at: directory.appendingPathComponent("config.yaml"))
            let withoutSecret = try await runGateway(["token", "--min-valid-seconds", "400"], environment: environment, directory: home)
            #expect(withoutSecret.status == 78)
            #expect(withoutSecret.standardError.split(separator: "\n").count == 1, "\(withoutSecret.standardError)")
            #expect(
                withoutSecret.standardError.contains("needs upstream.clientSecret or upstream.clientSecretFile"),
                "\(withoutSecret.standardError)"
            )
        }
    }

    @Test(
        "docs/headless-and-devices.md's curl line, run as written against the demo's userinfo endpoint, reads it with the token of the default token file"
    )
    func theDocumentedCurlLine() async throws {
        let document = try String(contentsOf: Repository.root.appendingPathComponent("docs/headless-and-devices.md"), encoding: .utf8)
        let api = "https://api.example.com/me"
        let line = try #require(
            document.split(separator: "\n").map(String.init).first { $0.hasPrefix(#"curl -H "Authorization: $(haapi-gateway token --header)""#) },
            "the curl line of the doc"
        )
        #expect(line.hasSuffix(" " + api))
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let signedIn = try await SignedInHost.login(demo)
            // The default token file of a user whose HOME is new: the doc's line names none.
            let home = try Repository.temporaryDirectory()
            let directory = home.appendingPathComponent(".config/haapi-gateway")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(at: signedIn, to: directory.appendingPathComponent("tokens.json"))
            let userinfo = demo.baseURL.absoluteString + "/oauth/v2/oauth-userinfo"
            let result = try await runProgram(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", String(line.dropLast(api.count)) + userinfo],
                environment: ["HOME": home.path, "PATH": Repository.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"],
                directory: home
            )
            #expect(result.status == 0, "\(result.standardError)")
            let claims = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
            #expect(claims?["sub"] as? String == "demo", "\(result.standardOutput)")
        }
    }

    @Test("no sign-in: exit 1 saying to run login; DPoP-bound tokens: --header refuses, saying why and naming proxy")
    func refusals() async throws {
        let missing = try Repository.temporaryDirectory().appendingPathComponent("nothing.json")
        let none = try await Self.token([], missing)
        #expect(none.status == 1)
        #expect(none.standardError == "haapi-gateway: no sign-in in \(missing.path): run haapi-gateway login\n")
        try await SignedInHost.withDemo({ $0.issueTokenBoundAuthorizationCodes = true }) { demo in
            let tokenFile = try await SignedInHost.login(demo)
            let header = try await Self.token(["--header"], tokenFile)
            #expect(header.status == 1)
            #expect(header.standardError.contains("is DPoP-bound: every request needs a DPoP proof"), "\(header.standardError)")
            #expect(header.standardError.contains("haapi-gateway proxy --to URL adds one"), "names the command that can: \(header.standardError)")
            #expect(header.standardOutput.isEmpty)
        }
    }
}
