import Foundation
import Testing

@testable import GatewayTestSupport

/// `login`, `keep` and `logout` with `--via`: the options refused together with the local gateway's, the help, and the
/// built binary signing in, refreshing and signing out through a scripted central gateway as a user would.
@Suite(.startsPrograms()) struct DeviceClientCommandTests {
    private static let via = ["--via", "https://gateway.example", "--device-client", "pi"]

    @Test func viaIsRefusedWithTheLocalGatewaysOptions() async throws {
        let cases: [([String], String)] = [
            (["login"] + Self.via + ["--upstream", "https://idsvr.example"], "the local gateway's --upstream cannot be used with it"),
            (["login"] + Self.via + ["--host", "0.0.0.0", "--client-id", "cli"], "--host, --client-id cannot be used with it; drop them or --via"),
            (["login"] + Self.via + ["--config", "config/haapi-gateway.yaml"], "--config cannot be used with it"),
            (["keep", "--once"] + Self.via + ["--client-secret-file", "/nonexistent"], "--client-secret-file cannot be used with it"),
            (["logout"] + Self.via + ["--demo-strict"], "--demo-strict cannot be used with it"),
        ]
        for (arguments, message) in cases {
            let result = try await runGateway(arguments, directory: Repository.root)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
    }

    @Test func badGatewayURLsAndMissingOrStrayDeviceOptionsAreRefused() async throws {
        let cases: [([String], String)] = [
            (["login", "--via", "http://gateway.example", "--device-client", "pi"], "must use https (plain http only on a loopback address)"),
            (["login", "--via", "not a url", "--device-client", "pi"], "is not an absolute http(s) URL"),
            (["keep", "--via", "https://gateway.example/?x=1", "--device-client", "pi"], "must not have a query"),
            (["login", "--via", "https://gateway.example"], "--via needs --device-client"),
            (["logout", "--device-client", "pi"], "--device-client and --device-client-secret-file belong to --via"),
            (["login", "--device-client-secret-file", "/tmp/secret"], "belong to --via"),
        ]
        for (arguments, message) in cases {
            let result = try await runGateway(arguments, directory: Repository.root)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
    }

    @Test func helpNamesTheDeviceOptions() async throws {
        for command in ["login", "keep", "logout"] {
            let help = try await runGateway([command, "--help"], directory: Repository.root)
            #expect(help.status == 0)
            let text = help.standardOutput.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
            for option in [
                "--via <url>", "--device-client <id>", "--device-client-secret-file <file>",
                "A central haapi-gateway to sign in through as a device client",
            ] {
                #expect(text.contains(option), "\(command) --help lacks \(option)")
            }
        }
        let login = try await runGateway(["login", "--help"], directory: Repository.root)
        #expect(
            login.standardOutput.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ").contains(
                "2 timed out or the code expired"
            )
        )
    }

    @Test func anUnreachableGatewayOrAnUnreadableSecretStopsLoginBeforeAnythingIsShown() async throws {
        let tokenFile = try Repository.temporaryDirectory().appendingPathComponent("private/tokens.json")
        // Port 1 on loopback: nothing listens.
        let unreachable = try await runGateway(
            ["login", "--via", "http://127.0.0.1:1", "--device-client", "pi", "--token-file", tokenFile.path],
            directory: Repository.root
        )
        #expect(unreachable.status == 1)
        #expect(unreachable.standardError.contains("the gateway at http://127.0.0.1:1 could not be reached"), "\(unreachable.standardError)")
        #expect(unreachable.standardOutput.isEmpty)
        let unreadable = try await runGateway(
            [
                "login", "--via", "http://127.0.0.1:1", "--device-client", "pi", "--device-client-secret-file", "/nonexistent/secret", "--token-file",
                tokenFile.path,
            ],
            directory: Repository.root
        )
        #expect(unreadable.status == 78)
        #expect(unreadable.standardError.contains("cannot read the device client secret file /nonexistent/secret"))
    }

    @Test func loginKeepAndLogoutThroughACentralGateway() async throws {
        let directory = try Repository.temporaryDirectory()
        let secretFile = directory.appendingPathComponent("device-secret")
        try "s3cret\n".write(to: secretFile, atomically: true, encoding: .utf8)
        let tokenFile = directory.appendingPathComponent("private/tokens.json")
        let gateway = ScriptedDeviceGateway(deviceCodeAnswers: ["authorization_pending", nil])
        try await gateway.serving { url in
            let device = [
                "--via", url.absoluteString, "--device-client", "pi", "--device-client-secret-file", secretFile.path, "--token-file", tokenFile.path,
            ]

            let login = try await runGateway(["login", "--qr", "--timeout-seconds", "60"] + device, directory: Repository.root)
            #expect(login.status == 0, "\(login.standardError)")
            #expect(login.standardOutput.contains("    \(url.absoluteString)/device?user_code=WDJB-MJHT\n"))
            #expect(login.standardOutput.contains("go to \(url.absoluteString)/device and enter the code WDJB-MJHT"))
            #expect(login.standardOutput.contains("█"), "--qr draws the link")
            #expect(
                login.standardOutput.contains(
                    "Signed in as alice with scopes openid profile; the access token expires in 300 s. Tokens written to \(tokenFile.path) (mode 0600)."
                )
            )
            for secret in ["device-access", "device-refresh", "scripted-device-code", "s3cret"] {
                #expect(!login.standardOutput.contains(secret) && !login.standardError.contains(secret), "\(secret) shown")
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: tokenFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(gateway.requests(to: "/oauth/device_authorization").first?.basicCredentials == "pi:s3cret")
            let polls = gateway.requests(to: "/oauth/token")
            #expect(polls.count == 2)
            #expect(
                polls.allSatisfy { $0.form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code" && $0.basicCredentials == "pi:s3cret" }
            )

            let keep = try await runGateway(["keep", "--once"] + device, directory: Repository.root)
            #expect(keep.status == 0, "\(keep.standardError)")
            #expect(keep.standardOutput.contains("Refreshed the tokens in \(tokenFile.path)"))
            let refresh = try #require(gateway.requests(to: "/oauth/token").last)
            #expect(refresh.form == ["grant_type": "refresh_token", "refresh_token": "device-refresh"])
            #expect(refresh.basicCredentials == "pi:s3cret")

            let logout = try await runGateway(["logout"] + device, directory: Repository.root)
            #expect(logout.status == 0, "\(logout.standardError)")
            #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
            #expect(
                gateway.requests(to: "/oauth/revoke").map(\.form) == [
                    ["token": "refreshed-refresh", "token_type_hint": "refresh_token"],
                    ["token": "refreshed-access", "token_type_hint": "access_token"],
                ]
            )
        }
    }

    @Test func aDeniedSignInExits1WithJSON() async throws {
        let tokenFile = try Repository.temporaryDirectory().appendingPathComponent("private/tokens.json")
        let gateway = ScriptedDeviceGateway(deviceCodeAnswers: ["access_denied"])
        try await gateway.serving { url in
            let login = try await runGateway(
                ["login", "--json", "--via", url.absoluteString, "--device-client", "pi", "--token-file", tokenFile.path],
                directory: Repository.root
            )
            #expect(login.status == 1)
            #expect(
                login.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
                    == #"{"error":"access_denied","errorDescription":"","outcome":"error"}"#
            )
            #expect(login.standardError.contains("WDJB-MJHT"), "with --json the banner goes to standard error")
            #expect(login.standardError.contains("the sign-in failed: access_denied"))
            #expect(gateway.requests(to: "/oauth/device_authorization").first?.form == ["client_id": "pi"], "a public client names itself")
            #expect(!FileManager.default.fileExists(atPath: tokenFile.path))
        }
    }
}
