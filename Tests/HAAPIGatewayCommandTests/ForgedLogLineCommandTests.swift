import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// Issue #39 item 4, through real HTTP requests to the built gateway: a query parameter or a path with a line feed, a
/// carriage return, ESC or NUL in it, and an upstream whose token endpoint answers `"error": "e\nFORGED"`, forge no log
/// line. In the text format no line starts with a forged level and the forged text appears only escaped; in the JSON
/// format every line parses as a JSON object, and the values from outside are escaped and bounded in it too.
@Suite("Log lines of a running gateway cannot be forged", .startsPrograms())
struct ForgedLogLineCommandTests {
    /// The forged event a query parameter's name carries (the probe of issue #39).
    private static let forgedQuery = "/start?%0acritical%20haapi-gateway:%20admin%20signed%20in=1"
    /// The same with a carriage return, ESC and NUL.
    private static let otherControls = ["/start?%0dcritical%20forged=1", "/start?%1b%5b31mred%00nul=1", "/x%0acritical%20forged%1b%00"]
    /// A path longer than the 200 scalars an untrusted value is bounded to.
    private static let longPath = "/" + String(repeating: "a", count: 1000)

    /// Runs a gateway in front of a demo upstream whose token endpoint refuses every code with a line feed in its
    /// error, sends the forged requests and a sign-in, stops it and returns its standard error.
    private func forgedLog(format: String) async throws -> String {
        var demoConfiguration = DemoServerConfiguration()
        demoConfiguration.codeExchangeRefusal = DemoCodeExchangeRefusal(
            error: "e\nFORGED",
            errorDescription: "d\ncritical haapi-gateway: FORGED\u{1B}[2J"
        )
        let demo = try await DemoServer.start(configuration: demoConfiguration)
        do {
            let directory = try Repository.temporaryDirectory()
            let secret = directory.appendingPathComponent("start-link-secret")
            try "start-links-are-on-so-that-the-query-is-read-\(UUID().uuidString)\n".write(to: secret, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
            let serve = try RunningGateway(
                [
                    "serve", "--port", "0", "--upstream", demo.issuer, "--client-id", DemoServer.clientID, "--client-secret", DemoServer.clientSecret,
                    "--log-level", "debug",
                ],
                environment: [
                    "HAAPI_GATEWAY_LOGGING_FORMAT": format, "HAAPI_GATEWAY_START_LINKS_SECRET_FILE": secret.path,
                    "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0", "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60",
                ]
            )
            let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#, inStandardError: format == "json")
            try await TestBrowser.using(base) { browser in
                for path in [Self.forgedQuery] + Self.otherControls + [Self.longPath] { _ = try await browser.get(path) }
                let last = try await browser.signInAsDemo()
                #expect(!last.html.contains("You are signed in"), "the code exchange is refused: \(last.summary)")
            }
            // The refusal is logged once the last page has answered; the stop waits for nothing else.
            _ = try await serve.waitForOutput(#"(sign-in failed)"#, inStandardError: true)
            serve.signal(SIGTERM)
            _ = try await serve.waitForExit(timeout: .seconds(30))
            await demo.shutdown()
            return serve.standardError
        } catch {
            await demo.shutdown()
            throw error
        }
    }

    @Test("text format: every line is a log line of its own; the forged query, path and upstream error appear only escaped")
    func textLinesCannotBeForged() async throws {
        let log = try await forgedLog(format: "text")
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for line in lines {
            #expect(
                line.firstMatch(of: #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} (trace|debug|info|notice|warning|error|critical) /#) != nil,
                "not a log line: \(line)"
            )
            #expect(line.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }, "a control character: \(line)")
        }
        #expect(!lines.contains { $0.hasPrefix("critical") || $0.hasPrefix("FORGED") })
        #expect(log.contains(#"reason=parameter \ncritical haapi-gateway: admin signed in not allowed"#), "the query's forged event, escaped")
        #expect(log.contains(#"reason=parameter \rcritical forged not allowed"#))
        #expect(log.contains(#"reason=parameter \u{1B}[31mred\u{0}nul not allowed"#))
        #expect(log.contains(#"path=/x%0acritical%20forged%1b%00 "#), "a path is logged as sent, percent-encoded")
        #expect(log.contains("path=/" + String(repeating: "a", count: 199) + "… "), "a path is bounded to 200 scalars")
        #expect(log.contains(#"error=e\nFORGED"#), "the upstream's error, escaped: \(log.suffix(3000))")
    }

    @Test("JSON format: every line parses as a JSON object; the values from outside are escaped and bounded in it")
    func jsonLinesStayJSON() async throws {
        let log = try await forgedLog(format: "json")
        let lines = JSONLogLines(log)
        #expect(lines.notObjects.isEmpty, "not JSON objects: \(lines.notObjects)")
        #expect(log.split(separator: "\n").count == lines.objects.count)
        let text = { (object: [String: Any], key: String) in object[key] as? String }
        let refusals = lines.objects.filter { text($0, "message") == "start link refused" }.compactMap { text($0, "reason") }
        #expect(refusals.contains(#"parameter \ncritical haapi-gateway: admin signed in not allowed"#), "\(refusals)")
        #expect(refusals.contains(#"parameter \u{1B}[31mred\u{0}nul not allowed"#), "\(refusals)")
        let paths = lines.objects.filter { text($0, "message") == "request" }.compactMap { text($0, "path") }
        #expect(paths.contains("/" + String(repeating: "a", count: 199) + "…"), "a path is bounded to 200 scalars")
        let errors = lines.objects.filter { ["token endpoint refused the code", "sign-in failed"].contains(text($0, "message")) }.compactMap {
            text($0, "error")
        }
        #expect(errors == [#"e\nFORGED"#, #"e\nFORGED"#], "the upstream's error, escaped in the value: \(errors)")
        for object in lines.objects {
            for case let value as String in object.values {
                #expect(!value.unicodeScalars.contains { $0.value < 0x20 }, "a control character in \(object)")
            }
        }
    }

    @Test("a terminal command logs through the same escaping lines: keep's hook named with a line feed stays in its warning's line")
    func terminalCommandLinesCannotBeForged() async throws {
        let directory = try Repository.temporaryDirectory()
        let secretFile = directory.appendingPathComponent("device-secret")
        try "s3cret-of-the-device\n".write(to: secretFile, atomically: true, encoding: .utf8)
        let device = [
            "--via", "", "--device-client", "pi", "--device-client-secret-file", secretFile.path, "--token-file",
            directory.appendingPathComponent("private/tokens.json").path,
        ]
        let keep = try await ScriptedDeviceGateway(deviceCodeAnswers: [nil]).serving { url in
            var arguments = device
            arguments[1] = url.absoluteString
            let login = try await runGateway(["login", "--timeout-seconds", "60"] + arguments, directory: Repository.root)
            #expect(login.status == 0, "\(login.standardError)")
            return try await runGateway(
                ["keep", "--once", "--exec", "/nonexistent/hook\ncritical haapi-gateway: FORGED\u{1B}[2J"] + arguments,
                directory: Repository.root
            )
        }
        #expect(keep.status == 0, "\(keep.standardError)")
        let lines = keep.standardError.split(separator: "\n")
        #expect(lines.count == 1, "one warning, one line: \(keep.standardError)")
        #expect(!lines.contains { $0.hasPrefix("critical") })
        #expect(keep.standardError.contains(#"warning haapi-gateway: program=/nonexistent/hook\ncritical haapi-gateway: FORGED\u{1B}[2J"#))
    }
}
