import Foundation
import Testing

@testable import GatewayTestSupport

/// Many hosts, one gateway, end to end: a real gateway process with device authorization on (and its embedded demo
/// upstream), and `login`, `keep` and `logout --via` run against it as a host would, the person's part walked in the
/// tests' browser.
@Suite("login, keep and logout --via against a central gateway", .startsPrograms())
struct DeviceSignInEndToEndTests {
    private struct TokenDocument: Decodable {
        struct Token: Decodable {
            let accessToken: String
            let refreshToken: String?
            let tokenType: String
        }
        let token: Token
        let dpopPrivateKey: String?
    }

    private func document(at url: URL) throws -> TokenDocument {
        try JSONDecoder().decode(TokenDocument.self, from: try Data(contentsOf: url))
    }

    @Test(arguments: [false, true])
    func signInRefreshAndSignOutThroughTheGateway(strict: Bool) async throws {
        let directory = try Repository.temporaryDirectory()
        let (gateway, url) = try await CentralGateway.start(in: directory, secret: "e2e-device-secret-0123456789", strict: strict)
        defer { gateway.signal(SIGTERM) }
        let tokenFile = directory.appendingPathComponent("private/tokens.json")
        let device = [
            "--via", url, "--device-client", "build-host", "--device-client-secret-file", directory.appendingPathComponent("device-secret").path,
            "--token-file", tokenFile.path,
        ]

        // The host asks; the person opens the link on "their phone", compares the code, signs in.
        let login = try RunningGateway(["login", "--timeout-seconds", "120"] + device)
        let link = try await login.waitForOutput(#"(http://127\.0\.0\.1:\d+/device\?user_code=[A-Z-]+)"#)
        let code = try await login.waitForOutput(#"enter the code ([A-Z]{4}-[A-Z]{4})"#)
        #expect(link.hasPrefix(url + "/device?user_code="))
        try await TestBrowser.using(url) { person in
            let confirm = try await person.enterDeviceCode(completeURI: link)
            #expect(confirm.html.contains("Build host 3 is asking to sign in"))
            #expect(confirm.html.contains(code), "the page shows the code the terminal shows")
            let done = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
            #expect(done.html.contains("You can go back to Build host 3"))
        }
        #expect(try await login.waitForExit() == 0, "\(login.standardError)")
        #expect(login.standardOutput.contains("Signed in as demo with scopes openid profile"), "\(login.standardOutput)")
        #expect(login.standardOutput.contains("Tokens written to \(tokenFile.path) (mode 0600)"))
        let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let first = try document(at: tokenFile)
        #expect(first.token.tokenType == (strict ? "DPoP" : "Bearer"))
        #expect((first.dpopPrivateKey?.contains("PRIVATE KEY") ?? false) == strict, "bound tokens keep their key, as the local mode keeps it")
        for secret in [first.token.accessToken, first.token.refreshToken ?? "-"] {
            #expect(!login.standardOutput.contains(secret) && !login.standardError.contains(secret), "never a token in the terminal")
        }

        // keep --once refreshes through the gateway's token endpoint.
        let keep = try await runGateway(["keep", "--once"] + device, environment: TokenKeeperTests.patient, directory: Repository.root)
        #expect(keep.status == 0, "\(keep.standardError)")
        #expect(keep.standardOutput.contains("Refreshed the tokens in \(tokenFile.path)"))
        let second = try document(at: tokenFile)
        #expect(second.token.accessToken != first.token.accessToken)
        #expect(second.token.tokenType == first.token.tokenType)

        // logout revokes through the gateway; a copy of the revoked tokens can no longer be refreshed.
        let stale = directory.appendingPathComponent("private/stale.json")
        try FileManager.default.copyItem(at: tokenFile, to: stale)
        let logout = try await runGateway(["logout"] + device, environment: TokenKeeperTests.patient, directory: Repository.root)
        #expect(logout.status == 0, "\(logout.standardError)")
        #expect(logout.standardOutput.contains("Signed out"))
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
        let refused = try await runGateway(
            [
                "keep", "--once", "--via", url, "--device-client", "build-host", "--device-client-secret-file",
                directory.appendingPathComponent("device-secret").path,
                "--token-file", stale.path,
            ],
            environment: TokenKeeperTests.patient,
            directory: Repository.root
        )
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("invalid_grant"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    @Test func aRefusedDeviceExits1AndAWrongSecretIsRefusedBeforeAnyCodeIsShown() async throws {
        let directory = try Repository.temporaryDirectory()
        let (gateway, url) = try await CentralGateway.start(in: directory, secret: "e2e-device-secret-0123456789")
        defer { gateway.signal(SIGTERM) }
        let tokenFile = directory.appendingPathComponent("private/tokens.json")
        let secretFile = directory.appendingPathComponent("device-secret").path

        let login = try RunningGateway([
            "login", "--json", "--via", url, "--device-client", "build-host", "--device-client-secret-file", secretFile, "--token-file",
            tokenFile.path,
        ])
        let link = try await login.waitForOutput(#"(http://127\.0\.0\.1:\d+/device\?user_code=[A-Z-]+)"#, inStandardError: true)
        try await TestBrowser.using(url) { person in
            let confirm = try await person.enterDeviceCode(completeURI: link)
            _ = try await person.submit(try confirm.form(button: "It does not match, refuse"))
        }
        #expect(try await login.waitForExit() == 1)
        #expect(login.standardOutput.contains(#""error":"access_denied""#), "\(login.standardOutput)")
        #expect(login.standardError.contains("the sign-in failed: access_denied"))
        #expect(!FileManager.default.fileExists(atPath: tokenFile.path))

        let wrongSecret = directory.appendingPathComponent("wrong-secret")
        try "not-the-secret".write(to: wrongSecret, atomically: true, encoding: .utf8)
        let refused = try await runGateway(
            [
                "login", "--via", url, "--device-client", "build-host", "--device-client-secret-file", wrongSecret.path, "--token-file",
                tokenFile.path,
            ],
            directory: Repository.root
        )
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("invalid_client"), "\(refused.standardError)")
        #expect(!refused.standardOutput.contains("/device?user_code="))
    }
}
