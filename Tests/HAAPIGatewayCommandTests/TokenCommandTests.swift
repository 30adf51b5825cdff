import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `haapi-gateway token` after a real `login` against a demo upstream that outlives it: it prints what the token file
/// holds, refreshes first when the access token expires within `--min-valid-seconds` (with no upstream options: the
/// upstream and client `login` recorded, the secret from the environment), and twenty callers at once make one refresh
/// against a server that rotates refresh tokens and revokes the sign-in when one is used twice.
@Suite(.serialized) struct TokenCommandTests {
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
        try await SignedInHost.withDemo({ $0.issueTokenBoundAuthorizationCodes = false }) { demo in
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
        try await SignedInHost.withDemo({ _ in }) { demo in
            let tokenFile = try await SignedInHost.login(demo)
            let signedIn = try Self.document(tokenFile)
            // Written an hour ago, the access token (300 s) has expired by the file's clock, which is what `token` goes by;
            // the new one is valid for 300 s, well past the 60 s asked, however long twenty processes take to start here.
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: tokenFile.path)
            let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
                for _ in 0..<20 { group.addTask { try await Self.token([], tokenFile) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.status == 0 }, "\(results.filter { $0.status != 0 }.map(\.standardError))")
            let printed = Set(results.map(\.standardOutput))
            let now = try Self.document(tokenFile)
            #expect(printed == [now.token.accessToken + "\n"], "every caller prints the one new token: \(printed.count) different")
            #expect(now.token.accessToken != signedIn.token.accessToken)
            // Had two callers spent the same refresh token, the demo would have revoked the sign-in (RFC 9700 §4.14.2).
            let again = try await Self.token(["--min-valid-seconds", "60"], tokenFile)
            #expect(again.status == 0, "the sign-in survived: \(again.standardError)")
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
