import Foundation
import HAAPI
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// What an adversarial probe of the host tools found (issue #55), met as a person or an upstream meets it: a real
/// `login --via` against a scripted authorization server that issues the tokens a test chooses, then the real `proxy`
/// (with curl, to an API on loopback that records the request line it gets), `token`, `git-credential` and `keep`.
@Suite(
    "What an adversarial probe of the host tools found",
    .enabled(if: TestTools.requireAll || FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl (.ci/run installs it)"),
    .startsPrograms()
)
struct HostToolProbeTests {
    /// A host signed in through `gateway` with `login --via`: its token file and the options every command needs.
    private struct SignedIn {
        let tokenFile: URL
        /// `--via`, the device client and its secret, `--token-file`.
        let options: [String]
    }

    /// Signs in with `login --via` through `gateway` (which approves at once) and returns the host.
    private static func signIn(through gateway: URL) async throws -> SignedIn {
        let directory = try Repository.temporaryDirectory()
        let secretFile = directory.appendingPathComponent("device-secret")
        try "s3cret\n".write(to: secretFile, atomically: true, encoding: .utf8)
        let tokenFile = directory.appendingPathComponent("private/tokens.json")
        let options = [
            "--via", gateway.absoluteString, "--device-client", "pi", "--device-client-secret-file", secretFile.path, "--token-file", tokenFile.path,
        ]
        let login = try await runGateway(["login", "--timeout-seconds", "60"] + options, directory: Repository.root)
        try #require(login.status == 0, "\(login.standardError)")
        return SignedIn(tokenFile: tokenFile, options: options)
    }

    /// Starts `haapi-gateway proxy` with `arguments` and returns it with its address, as it prints it.
    private static func proxy(_ arguments: [String]) async throws -> (RunningGateway, String) {
        let proxy = try RunningGateway(["proxy"] + arguments)
        let address = try await proxy.waitForOutput(#"haapi-gateway proxy: (http://127\.0\.0\.1:\d+) forwards to "#)
        return (proxy, address)
    }

    /// Runs curl with `arguments` (paths as they are: `--path-as-is`) and returns the status and body it got.
    private static func curl(_ arguments: [String]) async throws -> (status: Int, body: String) {
        let result = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-sS", "--path-as-is", "-w", "\n%{http_code}"] + arguments,
            seconds: 120
        )
        let output = result.standardOutput
        let cut = output.lastIndex(of: "\n") ?? output.startIndex
        return (Int(output[output.index(after: cut)...]) ?? 0, String(output[..<cut]))
    }

    /// The proxy's request lines (each with ` ms`), once there are `count` of them: its output reaches the test through
    /// a pipe, maybe after curl's answer.
    private static func requestLines(_ proxy: RunningGateway, count: Int) async throws -> [String] {
        _ = try await proxy.waitForOutput("((?:.* ms.*\\n){\(count)})", inStandardError: true)
        return proxy.standardError.split(separator: "\n").map(String.init).filter { $0.contains(" ms") }
    }

    @Test(
        "proxy --to …/v1: a path whose percent-escapes are not UTF-8 (%ff, %80, %c3%28, %c0%ae%c0%ae) is refused with 400 and reaches nothing, not the origin's root; a UTF-8 one arrives byte for byte, and the log names the path sent"
    )
    func pathsThatAreNotUTF8AreRefused() async throws {
        try await ScriptedDeviceGateway(deviceCodeAnswers: [nil]).serving { gateway in
            let host = try await Self.signIn(through: gateway)
            let api = RecordingTarget()
            try await api.serving { origin in
                let (proxy, address) = try await Self.proxy([
                    "--to", origin + "/v1", "--listen", "127.0.0.1:0", "--token-file", host.tokenFile.path,
                ])
                let refused = ["/anything/%ff?q=1", "/anything/%80", "/%c3%28", "/%c0%ae%c0%ae/secret"]
                for path in refused {
                    let answer = try await Self.curl([address + path])
                    #expect(answer.status == 400, "\(path): \(answer.status) \(answer.body)")
                    #expect(answer.body.contains("percent-escape that is not UTF-8 text"), "\(path): \(answer.body)")
                }
                #expect(api.requests.map(\.target).isEmpty, "nothing reached the target: \(api.requests.map(\.target))")

                let text = "/anything/%c3%a9t%C3%A9%2Fx%20y?q=%ff&k=SECRET"
                let forwarded = try await Self.curl([address + text])
                #expect(forwarded.status == 200, "\(forwarded.body) \(proxy.standardError)")
                let arrived = try #require(api.requests.last)
                #expect(arrived.target == "/v1" + text, "the path arrives byte for byte")
                #expect(arrived.values("Authorization") == ["Bearer device-access"])

                let lines = try await Self.requestLines(proxy, count: refused.count + 1)
                #expect(lines.count == refused.count + 1, "\(lines)")
                #expect(lines.first?.contains("GET /anything/%ff?… 400") == true, "a refusal names the client's path: \(lines)")
                #expect(lines.last?.contains("GET /v1/anything/%c3%a9t%C3%A9%2Fx%20y?… 200") == true, "the path sent: \(lines)")
                #expect(!proxy.standardError.contains("SECRET") && !proxy.standardError.contains("device-access"))
                proxy.signal(SIGTERM)
                #expect(try await proxy.waitForExit() == 0, "\(proxy.standardError)")
            }
        }
    }

    /// The tokens an upstream issues: `accessToken` and `expiresIn` as JSON text, a refresh token.
    private static func issued(accessToken: String = #""device-access""#, expiresIn: String = "300") -> String {
        #"{"access_token":\#(accessToken),"token_type":"Bearer","expires_in":\#(expiresIn),"refresh_token":"device-refresh","scope":"openid"}"#
    }

    /// Runs `git-credential get` as git does, the request on standard input; git's configuration of this machine left out
    /// (a credential helper there would be named, and nothing answered).
    private static func gitCredential(_ options: [String]) async throws -> ProcessResult {
        try await runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"printf 'protocol=https\nhost=git.example.com\n\n' | "$0" git-credential get "$@""#, Repository.executable.path] + options,
            environment: ["GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"],
            seconds: 120
        )
    }

    @Test(
        "an access token holding a control character (the upstream issued it): token exits 78 and proxy answers 503, each with one line naming the token file and never the token, and nothing reaches the target; git-credential refuses it the same way",
        arguments: [#""ctl\u0001SECRETTOKEN""#, #""line\r\nX-Injected: SECRETTOKEN""#, #""del\u007fSECRETTOKEN""#]
    )
    func tokensWithControlCharactersAreRefused(accessToken: String) async throws {
        try await ScriptedDeviceGateway(deviceCodeAnswers: [nil], issuedTokens: Self.issued(accessToken: accessToken)).serving { gateway in
            let host = try await Self.signIn(through: gateway)
            let refusal = "the access token in \(host.tokenFile.path) is empty or holds characters a token cannot have"
            for flags in [[], ["--header"]] {
                let token = try await runGateway(["token"] + flags + host.options)
                #expect(token.status == 78, "token \(flags): \(token)")
                #expect(token.standardError == "haapi-gateway: \(refusal)\n", "token \(flags)")
                #expect(!(token.standardOutput + token.standardError).contains("SECRETTOKEN"), "token \(flags): no token")
            }
            let git = try await Self.gitCredential(host.options)
            #expect(git.status == 78 && git.standardError == "haapi-gateway: \(refusal)\n", "\(git)")
            #expect(!(git.standardOutput + git.standardError).contains("SECRETTOKEN"))

            let api = RecordingTarget()
            try await api.serving { origin in
                let (proxy, address) = try await Self.proxy(["--to", origin, "--listen", "127.0.0.1:0", "--token-file", host.tokenFile.path])
                let answer = try await Self.curl([address + "/me"])
                #expect(answer.status == 503, "\(answer.body)")
                #expect(answer.body == "haapi-gateway proxy: no token to add: \(refusal)\n", "\(answer.body)")
                #expect(api.requests.isEmpty, "nothing reached the target")
                let line = try await Self.requestLines(proxy, count: 1).first
                #expect(line?.contains("GET /me 503") == true && line?.contains(refusal) == true, "\(proxy.standardError)")
                proxy.signal(SIGTERM)
                #expect(try await proxy.waitForExit() == 0, "\(proxy.standardError)")
                #expect(!(proxy.standardOutput + proxy.standardError).contains("SECRETTOKEN"), "no token in the proxy's output")
            }
        }
    }

    @Test(
        "expires_in of any size or kind (a string of Int.max, twenty digits, 1e300, -5, \"soon\"): login, token --json, git-credential get and keep read it without crashing; a huge one is ten years, one that is not a lifetime unknown",
        arguments: [
            (#""9223372036854775807""#, TokenLifetime.maximumSeconds), (#""99999999999999999999""#, TokenLifetime.maximumSeconds),
            ("1e300", TokenLifetime.maximumSeconds), ("-5", nil), (#""soon""#, nil),
        ] as [(String, Int?)]
    )
    func lifetimesOfAnySizeAreBounded(expiresIn: String, kept: Int?) async throws {
        try await ScriptedDeviceGateway(deviceCodeAnswers: [nil], issuedTokens: Self.issued(expiresIn: expiresIn)).serving { gateway in
            let host = try await Self.signIn(through: gateway)
            struct Written: Decodable {
                struct Token: Decodable { let expiresIn: Int? }
                let token: Token
            }
            let written = try JSONDecoder().decode(Written.self, from: Data(contentsOf: host.tokenFile))
            #expect(written.token.expiresIn == kept, "the lifetime written")

            let summary = try await runGateway(["token", "--json"] + host.options)
            #expect(summary.status == 0, "token --json: \(summary)")
            let object = (try? JSONSerialization.jsonObject(with: Data(summary.standardOutput.utf8))) as? [String: Any]
            #expect(object != nil, "one JSON object: \(summary.standardOutput)")
            if let kept {
                let left = object?["expiresIn"] as? Int
                #expect(left.map { $0 <= kept && $0 > kept - 120 } == true, "\(String(describing: object))")
            } else {
                #expect(object?["expiresIn"] == nil && object?["expiresAt"] == nil, "\(String(describing: object))")
            }

            let git = try await Self.gitCredential(host.options)
            #expect(git.status == 0, "git-credential get: \(git)")
            #expect(git.standardOutput.contains("password=device-access\n"), "\(git.standardOutput)")
            let expiry = git.standardOutput.split(separator: "\n").first { $0.hasPrefix("password_expiry_utc=") }
            if let kept {
                let utc = expiry.flatMap { Int($0.dropFirst("password_expiry_utc=".count)) }
                #expect(utc.map { $0 <= Int(Date().timeIntervalSince1970) + kept } == true, "\(git.standardOutput)")
            } else {
                #expect(expiry == nil, "\(git.standardOutput)")
            }

            let keep = try RunningGateway(["keep", "--log-level", "debug"] + host.options)
            let due = try await keep.waitForOutput(#"dueInSeconds=(\d+) .*waiting for the next refresh"#, inStandardError: true)
            #expect(Int(due).map { $0 <= (kept ?? 300) } == true, "\(keep.standardError)")
            #expect(keep.isRunning, "keep waits for the refresh: \(keep.ending) \(keep.standardError)")
            keep.signal(SIGTERM)
            _ = try await keep.waitForExit()
            #expect(keep.ending == "ended by signal \(SIGTERM)", "ended by the test's SIGTERM, nothing else: \(keep.ending)")
        }
    }
}
