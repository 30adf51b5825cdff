import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIHostTools

/// Issue #39 item 3: a password written into a URL's user info (`https://user:pass@…`, `postgres://user:pass@…`) is never
/// printed: problem lines, flags, errors and summaries show `user:<redacted>@`, through one helper.
@Suite("URL passwords are redacted wherever a URL is printed")
struct URLPasswordRedactionTests {
    @Test("the password of every URL in a text becomes <redacted>; the user, the host and the rest stay")
    func passwordsAreRedacted() {
        let cases: [(String, String)] = [
            ("https://user:pass@idp.example/oauth", "https://user:<redacted>@idp.example/oauth"),
            (
                "postgres://gateway:s3cret@db.example:5432/haapi?sslmode=verify-full",
                "postgres://gateway:<redacted>@db.example:5432/haapi?sslmode=verify-full"
            ),
            (#"got "https://a:b@c.example/""#, #"got "https://a:<redacted>@c.example/""#),
            ("'https://u:p@one.example' and http://v:q@[::1]:8080/x", "'https://u:<redacted>@one.example' and http://v:<redacted>@[::1]:8080/x"),
            ("https://u:p@ss#w?rd@host/x", "https://u:<redacted>@host/x"),
            ("https://u:@host", "https://u:<redacted>@host"),
            // No password: nothing to redact.
            ("https://user@host/x", "https://user@host/x"),
            ("https://host:8443/users/a@b.example", "https://host:8443/users/a@b.example"),
            ("mail a@b.example: no URL", "mail a@b.example: no URL"),
            ("", ""),
        ]
        for (text, expected) in cases { #expect(SecretRedaction.redactingURLPasswords(in: text) == expected, "\(text)") }
    }

    @Test("check-config's problem lines quote a URL given with a password without it: the upstream, a webhook, the completion URL")
    func problemLinesShowNoPassword() throws {
        let directory = try Repository.temporaryDirectory()
        let file = directory.appendingPathComponent("gateway.yaml")
        try """
        upstream:
          baseURL: https://user:upstream-password@idp.example/oauth/v2/oauth-anonymous
          clientID: x
        callbacks:
          sinks: ["https://user:webhook-password@hooks.example/x"]
        completion:
          redirectURL: https://user:completion-password@app.example/
        """.write(to: file, atomically: true, encoding: .utf8)
        let problems: [String]
        do {
            _ = try GatewayConfiguration.load(
                file: file.path,
                environment: ["HAAPI_GATEWAY_SERVER_PUBLIC_URL": "https://user:public-password@login.example"]
            )
            problems = []
        } catch {
            problems = error.problems
        }
        let text = problems.joined(separator: "\n")
        for password in ["upstream-password", "webhook-password", "completion-password", "public-password"] {
            #expect(!text.contains(password), "a problem line shows \(password): \(text)")
        }
        #expect(
            text.contains(
                #"upstream.baseURL (\#(file.path):2): must not contain user info (name@ before the host), got "https://user:<redacted>@idp.example/oauth/v2/oauth-anonymous""#
            )
        )
        #expect(text.contains("'https://user:<redacted>@hooks.example/x' is not a valid webhook URL"))
        #expect(text.contains(#"got "https://user:<redacted>@app.example/""#))
        #expect(text.contains(#"got "https://user:<redacted>@login.example""#))
    }

    @Test("a central gateway's URL (--via) given with a password is refused without it")
    func viaShowsNoPassword() {
        do {
            _ = try AuthorizationServerMetadata.issuer("https://pi:via-password@gateway.example")
            Issue.record("user info must be refused")
        } catch {
            #expect(error.message == "the gateway URL https://pi:<redacted>@gateway.example must not have a query, a fragment or user info")
        }
    }

    @Test("a startup failure's line shows no URL's password")
    func startupFailureShowsNoPassword() {
        let failure = StartupFailure(
            ConfigurationError(problems: ["sessions.postgresURL: cannot reach postgres://gateway:db-password@db.example/haapi"]),
            listening: "127.0.0.1",
            port: 8080
        )
        #expect(failure.message == "invalid configuration: sessions.postgresURL: cannot reach postgres://gateway:<redacted>@db.example/haapi")
    }
}
