import Foundation
import HAAPI
import HAAPIDemoServer
import HAAPIGateway
import HAAPIHostTools
import Testing

@testable import GatewayTestSupport

/// `haapi-gateway proxy` after a real `login` against a demo upstream, used by the real curl: the setup lines of
/// docs/headless-and-devices.md as written (their origin and port the test's own), DPoP-bound tokens with the demo's
/// nonces, Bearer tokens, bodies both ways, what is never forwarded, a refresh under the lock, and the log.
@Suite(
    "haapi-gateway proxy",
    .enabled(if: TestTools.requireAll || FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl (.ci/run installs it)"),
    .startsPrograms()
)
struct ProxyCommandTests {
    /// The tokens of a token file, as `login` wrote them.
    private struct Tokens: Decodable {
        struct Token: Decodable {
            let accessToken: String
            let refreshToken: String?
            let idToken: String?
            let tokenType: String
        }
        let token: Token

        static func read(_ file: URL) throws -> Token {
            try JSONDecoder().decode(Tokens.self, from: try Data(contentsOf: file)).token
        }
    }

    /// A setup of the proxy's part of docs/headless-and-devices.md: the proxy's line and the curl line after it.
    private struct DocumentedSetup {
        let proxyLine: String
        let curlLine: String

        /// The proxy's arguments after `proxy`: as written, `--to`'s origin replaced by `origin` (its path kept), and
        /// `extra` after them (a free port, the test's token file).
        func proxyArguments(origin: String, extra: [String]) throws -> [String] {
            var arguments = proxyLine.dropFirst("haapi-gateway proxy ".count).dropLast(" &".count).split(separator: " ").map(String.init)
            let to = try #require(arguments.firstIndex(of: "--to")) + 1
            let documented = try #require(URLComponents(string: arguments[to]))
            arguments[to] = origin + documented.percentEncodedPath
            return arguments + extra
        }

        /// curl's arguments: as written, the proxy's documented address replaced by the running one's.
        func curlArguments(proxy: String) -> [String] {
            curlLine.dropFirst("curl ".count).split(separator: " ").map {
                $0.replacingOccurrences(of: ProxyCommandTests.documentedAddress, with: proxy)
            }
        }
    }

    /// Where the documented proxy listens (the default of --listen).
    static let documentedAddress = "http://127.0.0.1:8787"

    /// The `sh` blocks of the proxy's section of docs/headless-and-devices.md, as setups.
    private static func documentedSetups() throws -> [DocumentedSetup] {
        let document = try String(contentsOf: Repository.root.appendingPathComponent("docs/headless-and-devices.md"), encoding: .utf8)
        var cursor = try #require(document.range(of: "### Any HTTP API, DPoP-bound tokens too: proxy")).upperBound
        let end = document.range(of: "\n## ", range: cursor..<document.endIndex)?.lowerBound ?? document.endIndex
        var setups: [DocumentedSetup] = []
        while let open = document.range(of: "```sh\n", range: cursor..<end), let close = document.range(of: "```", range: open.upperBound..<end) {
            let lines = document[open.upperBound..<close.lowerBound].split(separator: "\n").map(String.init)
            try #require(lines.count == 2, "a setup is the proxy's line and a curl line: \(lines)")
            try #require(lines[0].hasPrefix("haapi-gateway proxy --to ") && lines[0].hasSuffix(" &"), "\(lines[0])")
            try #require(lines[1].hasPrefix("curl ") && lines[1].contains(documentedAddress + "/"), "\(lines[1])")
            setups.append(DocumentedSetup(proxyLine: lines[0], curlLine: lines[1]))
            cursor = close.upperBound
        }
        return setups
    }

    /// Starts `haapi-gateway proxy` and returns it with its address, as it prints it.
    private static func proxy(_ arguments: [String]) async throws -> (RunningGateway, String) {
        let proxy = try RunningGateway(["proxy"] + arguments, environment: SignedInHost.environment)
        let address = try await proxy.waitForOutput(#"haapi-gateway proxy: (http://127\.0\.0\.1:\d+) forwards to "#)
        return (proxy, address)
    }

    /// Runs curl with `arguments` and returns the status and body it got (`-w`), and its own result.
    private static func curl(_ arguments: [String]) async throws -> (status: Int, body: String, result: ProcessResult) {
        let result = try await runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-sS", "-w", "\n%{http_code}"] + arguments, seconds: 120)
        let output = result.standardOutput
        let cut = output.lastIndex(of: "\n") ?? output.startIndex
        return (Int(output[output.index(after: cut)...]) ?? 0, String(output[..<cut]), result)
    }

    /// The lines of the proxy's request log (each with ` ms`), once there are `count` of them (what the proxy wrote
    /// reaches the test through a pipe, maybe after curl's answer): more would be a line too many.
    private static func requestLines(_ proxy: RunningGateway, count: Int) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(30)
        var lines: [String] = []
        repeat {
            lines = proxy.standardError.split(separator: "\n").map(String.init).filter { $0.contains(" ms") && $0.contains("haapi-gateway") }
            if lines.count >= count { break }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return lines
    }

    /// Stops the proxy with `signal` and returns its exit status.
    private static func stop(_ proxy: RunningGateway, _ signal: Int32 = SIGTERM) async throws -> Int32 {
        proxy.signal(signal)
        return try await proxy.waitForExit(timeout: .seconds(60))
    }

    /// Expects that none of `secrets` appears in the proxy's output.
    private static func expectNoSecret(in proxy: RunningGateway, _ secrets: [String?]) {
        for secret in secrets.compactMap({ $0 }) where !secret.isEmpty {
            #expect(!proxy.standardOutput.contains(secret), "a token or proof on standard output")
            #expect(!proxy.standardError.contains(secret), "a token or proof on standard error")
        }
    }

    @Test(
        "DPoP-bound tokens, the strict demo: curl reads userinfo through the documented proxy (a use_dpop_nonce answered once, the nonce kept), while the token alone is refused; a line per request, no token in it; SIGINT stops it"
    )
    func dpopBoundTokensThroughTheDocumentedProxy() async throws {
        try await SignedInHost.withDemo({ $0.issueTokenBoundAuthorizationCodes = true }) { demo in
            #expect(DemoServerConfiguration.strict.requireDPoPNonce, "the strict demo's userinfo demands DPoP nonces")
            let tokenFile = try await SignedInHost.login(demo)
            let signedIn = try Tokens.read(tokenFile)
            #expect(signedIn.tokenType == "DPoP")
            let setups = try Self.documentedSetups()
            let setup = try #require(setups.first { $0.curlLine.contains("/oauth/v2/oauth-userinfo") }, "the documented userinfo check")
            let origin = demo.baseURL.absoluteString.hasSuffix("/") ? String(demo.baseURL.absoluteString.dropLast()) : demo.baseURL.absoluteString
            let (proxy, address) = try await Self.proxy(
                try setup.proxyArguments(origin: origin, extra: ["--listen", "127.0.0.1:0", "--token-file", tokenFile.path])
            )

            let first = try await Self.curl(setup.curlArguments(proxy: address))
            #expect(first.status == 200, "\(first.body) \(first.result.standardError) \(proxy.standardError)")
            let claims = try #require(try JSONSerialization.jsonObject(with: Data(first.body.utf8)) as? [String: Any], "\(first.body)")
            #expect(claims["sub"] as? String == "demo")
            let second = try await Self.curl(setup.curlArguments(proxy: address))
            #expect(second.status == 200, "\(second.body)")

            let lines = try await Self.requestLines(proxy, count: 2)
            #expect(lines.count == 2, "one line per request: \(lines)")
            #expect(lines.first?.contains("GET /oauth/v2/oauth-userinfo 200") == true, "\(lines)")
            #expect(lines.first?.contains("use_dpop_nonce: sent again with the server's nonce") == true, "the demo demanded a nonce: \(lines)")
            #expect(lines.last?.contains("use_dpop_nonce") == false, "the nonce was kept for the next request: \(lines)")

            // The same token without a proof, as DPoP or as Bearer, is refused by the demo: only the proxy can use it.
            let userinfo = origin + "/oauth/v2/oauth-userinfo"
            let withoutProof = try await Self.curl(["-H", "Authorization: DPoP \(signedIn.accessToken)", userinfo])
            #expect(withoutProof.status == 401)
            let asBearer = try await Self.curl(["-H", "Authorization: Bearer \(signedIn.accessToken)", userinfo])
            #expect(asBearer.status == 401)

            #expect(try await Self.stop(proxy, SIGINT) == 0, "SIGINT stops it: \(proxy.standardError)")
            Self.expectNoSecret(in: proxy, [signedIn.accessToken, signedIn.refreshToken, signedIn.idToken])
        }
    }

    @Test(
        "Bearer tokens: curl reads userinfo through the proxy, with Authorization: Bearer and no proof; SIGTERM stops it; a target where nothing listens is 502"
    )
    func bearerTokens() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let tokenFile = try await SignedInHost.login(demo)
            let signedIn = try Tokens.read(tokenFile)
            #expect(signedIn.tokenType == "Bearer")
            let (proxy, address) = try await Self.proxy([
                "--to", demo.baseURL.absoluteString, "--listen", "127.0.0.1:0", "--token-file", tokenFile.path,
            ])
            let answer = try await Self.curl([address + "/oauth/v2/oauth-userinfo"])
            #expect(answer.status == 200, "\(answer.body) \(proxy.standardError)")
            #expect(answer.body.contains(#""sub":"demo""#), "\(answer.body)")
            #expect(try await Self.requestLines(proxy, count: 1).count == 1)
            #expect(try await Self.stop(proxy) == 0, "\(proxy.standardError)")
            Self.expectNoSecret(in: proxy, [signedIn.accessToken, signedIn.refreshToken, signedIn.idToken])

            // A target where nothing listens (port 1): 502 at once, saying so.
            let (nowhere, nowhereAddress) = try await Self.proxy([
                "--to", "http://127.0.0.1:1", "--listen", "127.0.0.1:0", "--token-file", tokenFile.path,
            ])
            let unreachable = try await Self.curl([nowhereAddress + "/me"])
            #expect(unreachable.status == 502)
            #expect(
                unreachable.body
                    == "haapi-gateway proxy: http://127.0.0.1:1 could not be reached: the connection was refused (nothing listens there)\n",
                "\(unreachable.body)"
            )
            #expect(try await Self.stop(nowhere) == 0)
        }
    }

    /// A target that never answers holds a request under way: SIGTERM still ends the proxy within `--stop-seconds`, not
    /// at the HTTP client's read limit (120 s) or never (a target that streams for ever). Before, it waited for them.
    @Test("a request under way to a target that never answers: SIGTERM ends the proxy within --stop-seconds, exit 70, saying so")
    func aSilentTargetDoesNotHoldTheStop() async throws {
        let target = try SilentPeer(.silent)
        defer { target.stop() }
        try await SignedInHost.withDemo({ _ in }) { demo in
            let tokenFile = try await SignedInHost.login(demo)
            let (proxy, address) = try await Self.proxy([
                "--to", "http://127.0.0.1:\(target.port)", "--listen", "127.0.0.1:0", "--token-file", tokenFile.path, "--stop-seconds", "2",
            ])
            let waiting = Task { try? await Self.curl(["--max-time", "300", address + "/slow"]) }
            defer { waiting.cancel() }
            // The request is under way once the target has its connection (the marker's own connection counts after it).
            let deadline = ContinuousClock.now + .seconds(60)
            while try await target.connectionsMadeSoFar() < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            let (status, took) = try await proxy.stopped(killingAfter: .seconds(100))
            #expect(status == StopDeadline.cutShortStatus, "\(proxy.standardError)")
            // 2 s, with room for a loaded machine; the client's read limit is 120 s.
            #expect(took < .seconds(30), "\(took)")
            #expect(proxy.standardError.contains("the stop took longer than --stop-seconds after the signal"), "\(proxy.standardError)")
        }
    }

    @Test(
        "through the documented proxy to an API that records what it gets: bodies intact both ways (buffered, streamed, chunked), hop-by-hop fields and the client's Authorization and DPoP dropped, a proof per request, a nonce retry with the body sent again; CONNECT, another host, a path out of the base path and a web page's request reach nothing; no query or token in the log"
    )
    func whatReachesTheTarget() async throws {
        try await SignedInHost.withDemo({ $0.issueTokenBoundAuthorizationCodes = true }) { demo in
            let tokenFile = try await SignedInHost.login(demo)
            let signedIn = try Tokens.read(tokenFile)
            let api = RecordingTarget(), elsewhere = RecordingTarget()
            try await api.serving { origin in
                try await elsewhere.serving { otherOrigin in
                    // The documented setup, as written: its origin is the recording API's.
                    let setups = try Self.documentedSetups()
                    let setup = try #require(setups.first { !$0.curlLine.contains("/oauth/v2/oauth-userinfo") }, "the documented setup")
                    let (documented, documentedAddress) = try await Self.proxy(
                        try setup.proxyArguments(origin: origin, extra: ["--listen", "127.0.0.1:0", "--token-file", tokenFile.path])
                    )
                    let plain = try await Self.curl(setup.curlArguments(proxy: documentedAddress))
                    #expect(plain.status == 200, "\(plain.body) \(documented.standardError)")
                    let arrived = try #require(api.requests.last)
                    let path = try #require(URL(string: setup.curlLine.split(separator: " ").last.map(String.init) ?? "")).path
                    #expect(arrived.target == path)
                    #expect(arrived.values("Authorization") == ["DPoP " + signedIn.accessToken])
                    #expect(arrived.proofClaims?["htu"] as? String == origin + path)
                    #expect(try await Self.stop(documented) == 0)

                    try await Self.checkForwarding(
                        api: api,
                        elsewhere: elsewhere,
                        origin: origin,
                        otherOrigin: otherOrigin,
                        tokenFile: tokenFile,
                        signedIn: signedIn
                    )
                }
            }
        }
    }

    /// The checks of ``whatReachesTheTarget()`` through a proxy to `origin` + `/api`.
    private static func checkForwarding(
        api: RecordingTarget,
        elsewhere: RecordingTarget,
        origin: String,
        otherOrigin: String,
        tokenFile: URL,
        signedIn: Tokens.Token
    ) async throws {
        let (proxy, address) = try await Self.proxy(["--to", origin + "/api", "--listen", "127.0.0.1:0", "--token-file", tokenFile.path])
        let directory = try Repository.temporaryDirectory()
        func file(_ name: String, _ count: Int) throws -> (URL, Data) {
            let data = RecordingTarget.pattern(count: count)
            let url = directory.appendingPathComponent(name)
            try data.write(to: url)
            return (url, data)
        }
        var proofs: [String] = []
        let before = api.requests.count

        // A body small enough to be held for a nonce retry, with every field the proxy must not pass on.
        let (small, smallData) = try file("small", 200_000)
        let posted = try await Self.curl([
            "--data-binary", "@" + small.path, "-H", "Content-Type: application/octet-stream", "-H", "Authorization: Bearer the-clients-own",
            "-H", "DPoP: the.clients.proof", "-H", "Connection: X-Hop", "-H", "X-Hop: 1", "-H", "Keep-Alive: timeout=5", "-H",
            "Proxy-Authorization: Basic eDp5", "-H", "X-End-To-End: kept", address + "/upload?x=1&api_key=QUERY-SECRET",
        ])
        #expect(posted.status == 200, "\(posted.body) \(proxy.standardError)")
        let upload = try #require(api.requests.last)
        #expect(upload.method == "POST")
        #expect(upload.target == "/api/upload?x=1&api_key=QUERY-SECRET")
        #expect(upload.body == smallData, "the body arrives intact (\(upload.body.count) of \(smallData.count) bytes)")
        #expect(upload.values("Authorization") == ["DPoP " + signedIn.accessToken], "the client's Authorization is replaced by the proxy's")
        #expect(upload.values("DPoP").count == 1 && upload.values("DPoP") != ["the.clients.proof"])
        for name in ["X-Hop", "Keep-Alive", "Proxy-Authorization", "Connection"] {
            #expect(upload.values(name).filter { $0 != "keep-alive" && $0 != "close" }.isEmpty, "\(name) is not passed on: \(upload.values(name))")
        }
        #expect(upload.values("X-End-To-End") == ["kept"])
        #expect(upload.values("Host") == [String(origin.dropFirst("http://".count))], "Host is the target's")
        let claims = try #require(upload.proofClaims)
        #expect(claims["htm"] as? String == "POST")
        #expect(claims["htu"] as? String == origin + "/api/upload", "htu: the target URL without its query")
        #expect(claims["ath"] as? String == DPoPProof.accessTokenHash(signedIn.accessToken))
        #expect(claims["jti"] as? String != nil && claims["iat"] as? Int != nil)

        // Larger than the bound (streamed with its length), and of unknown length (chunked): intact too.
        let (large, largeData) = try file("large", 3 << 20)
        let streamed = try await Self.curl(["-X", "PUT", "--data-binary", "@" + large.path, address + "/large"])
        #expect(streamed.status == 200)
        #expect(api.requests.last?.body == largeData, "a 3 MiB body streams through intact")
        let chunked = try await Self.curl(["-H", "Transfer-Encoding: chunked", "--data-binary", "@" + small.path, address + "/chunked"])
        #expect(chunked.status == 200)
        #expect(api.requests.last?.body == smallData, "a chunked body streams through intact")

        // An answer streams back intact.
        let downloaded = directory.appendingPathComponent("downloaded")
        let download = try await Self.curl(["-o", downloaded.path, address + "/download/\(5 << 20)"])
        #expect(download.status == 200)
        #expect(try Data(contentsOf: downloaded) == RecordingTarget.pattern(count: 5 << 20), "a 5 MiB answer arrives intact")

        // A nonce demanded: the request is sent again with it, the body too; the next request carries it at once.
        let nonced = try await Self.curl(["--data-binary", "@" + small.path, address + "/nonce/first"])
        #expect(nonced.status == 200, "\(nonced.body)")
        let attempts = api.requests.suffix(2)
        #expect(attempts.map { $0.proofClaims?["nonce"] as? String } == [nil, "first-nonce"], "sent again with the demanded nonce")
        #expect(attempts.allSatisfy { $0.body == smallData }, "the body is sent again, whole")
        #expect(Set(attempts.compactMap { $0.proofClaims?["jti"] as? String }).count == 2, "a new proof for the retry")
        let count = api.requests.count
        let again = try await Self.curl([address + "/nonce/first"])
        #expect(again.status == 200)
        #expect(api.requests.count == count + 1, "the kept nonce: no challenge")
        // Beyond the bound, the body streams: the challenge goes to the client, the nonce is kept, and its retry passes.
        let challenged = try await Self.curl(["--data-binary", "@" + large.path, address + "/nonce/second"])
        #expect(challenged.status == 401)
        let retried = try await Self.curl(["--data-binary", "@" + large.path, address + "/nonce/second"])
        #expect(retried.status == 200)
        #expect(api.requests.last?.body == largeData)
        proofs += api.requests.dropFirst(before).flatMap { $0.values("DPoP") }

        // Never forwarded, to the target or anywhere else.
        let forwarded = api.requests.count
        let absolute = try await Self.curl(["-x", address, otherOrigin + "/secret"])
        #expect(absolute.status == 421, "a request for another host (absolute form): \(absolute.body)")
        let tunnel = try await Self.curl(["-p", "-x", address, otherOrigin + "/secret"])
        #expect(tunnel.result.standardError.contains("405"), "CONNECT: \(tunnel.result.standardError)")
        for escape in ["/../secret", "/%2e%2e/secret", "/x/..%2f..%2fsecret"] {
            let refused = try await Self.curl(["--path-as-is", address + escape])
            #expect(refused.status == 400, "\(escape): \(refused.status)")
        }
        let page = try await Self.curl(["-H", "Origin: https://attacker.example", "-X", "POST", "-d", "x=1", address + "/transfer"])
        #expect(page.status == 403)
        let rebound = try await Self.curl(["-H", "Host: rebound.attacker.example:\(URL(string: address)?.port ?? 0)", address + "/me"])
        #expect(rebound.status == 421)
        #expect(api.requests.count == forwarded, "none reached the target")
        #expect(elsewhere.requests.isEmpty, "none reached the other server")

        let lines = try await Self.requestLines(proxy, count: 15)
        #expect(lines.count == 15, "one line per request: \(lines.joined(separator: "\n"))")
        #expect(lines.first?.contains("POST /api/upload?… 200") == true, "the path sent under the base path: \(lines)")
        #expect(!proxy.standardError.contains("QUERY-SECRET"), "no query in the log")
        #expect(lines.contains { $0.contains("use_dpop_nonce: the body was streamed") })
        #expect(try await Self.stop(proxy) == 0)
        Self.expectNoSecret(in: proxy, [signedIn.accessToken, signedIn.refreshToken, signedIn.idToken] + proofs)
    }

    @Test("--help says what the code does: the default address, the body bound, the exit statuses")
    func help() async throws {
        let help = try await runGateway(["proxy", "--help"])
        #expect(help.status == 0)
        let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("(default: 127.0.0.1:\(ProxyListenAddress.defaultPort))"), "\(text)")
        #expect(HostProxy.replayableBodyLimit == 1 << 20 && text.contains("a request body of at most 1 MiB"))
        #expect(text.contains("--min-valid-seconds <seconds> Refresh first when the access token expires within this many seconds. (default: 60)"))
        #expect(text.contains("--stop-seconds <seconds> After SIGTERM or SIGINT, how long requests under way may take to end"), "\(text)")
        #expect(text.contains("(default: 10)"), "\(text)")
        for status in [
            "Exit status: 0 stopped; 70 a stop cut short at --stop-seconds; 78 --to, --listen, --host or --port refused",
            "69 the address is in use",
        ] {
            #expect(text.contains(status), "\(status)")
        }
    }

    @Test(
        "refused at once with one line and exit 78: a listening address that is not loopback, plain http to another host, --port; without a sign-in every request is answered 503 saying to run login"
    )
    func refusals() async throws {
        let missing = try Repository.temporaryDirectory().appendingPathComponent("nothing.json")
        let wide = try await runGateway(["proxy", "--to", "https://api.example.com", "--listen", "0.0.0.0:0", "--token-file", missing.path])
        #expect(wide.status == 78)
        #expect(
            wide.standardError
                == "haapi-gateway: --listen 0.0.0.0:0 is not a loopback address: the proxy adds this host's token to every request it forwards, so it listens on 127.0.0.1, ::1 or localhost only\n"
        )
        let plain = try await runGateway(["proxy", "--to", "http://example.com", "--listen", "127.0.0.1:0", "--token-file", missing.path])
        #expect(plain.status == 78)
        #expect(plain.standardError.hasPrefix("haapi-gateway: --to http://example.com must use https (plain http only to a loopback address)"))
        #expect(plain.standardError.split(separator: "\n").count == 1)
        let port = try await runGateway(["proxy", "--to", "https://api.example.com", "--port", "0", "--token-file", missing.path])
        #expect(port.status == 78)
        #expect(port.standardError.contains("the proxy listens where --listen says"), "\(port.standardError)")

        let (proxy, address) = try await Self.proxy(["--to", "https://api.example.com", "--listen", "127.0.0.1:0", "--token-file", missing.path])
        _ = try await proxy.waitForOutput("(no sign-in in .* yet)", inStandardError: true)
        let answer = try await Self.curl([address + "/me"])
        #expect(answer.status == 503)
        #expect(answer.body == "haapi-gateway proxy: no token to add: no sign-in in \(missing.path): run haapi-gateway login\n")
        let line = try await Self.requestLines(proxy, count: 1).first
        #expect(line?.contains("GET /me 503") == true, "the line says why: \(proxy.standardError)")
        #expect(line?.contains("run haapi-gateway login") == true)
        #expect(try await Self.stop(proxy) == 0)
    }

    @Test(
        "an access token that expired by the file's clock is refreshed once, under the lock, for five requests at once; all pass and the sign-in survives; with no upstream to refresh at, or a configuration that cannot be read, 503 and the proxy goes on"
    )
    func refreshesUnderTheLock() async throws {
        try await SignedInHost.withDemo({ _ in }) { demo in
            let tokenFile = try await SignedInHost.login(demo)
            let signedIn = try Tokens.read(tokenFile)
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: tokenFile.path)

            // With an upstream where nothing listens, the refresh cannot be made: each request is answered 503 saying why,
            // and the proxy goes on.
            let (stranded, strandedAddress) = try await Self.proxy([
                "--to", demo.baseURL.absoluteString, "--listen", "127.0.0.1:0", "--token-file", tokenFile.path, "--upstream",
                "http://127.0.0.1:1/oauth/v2/oauth-anonymous", "--client-id", DemoServer.clientID,
            ])
            for _ in 0..<2 {
                let refused = try await Self.curl([strandedAddress + "/oauth/v2/oauth-userinfo"])
                #expect(refused.status == 503)
                #expect(refused.body.hasPrefix("haapi-gateway proxy: no token to add: the upstream could not be reached"), "\(refused.body)")
            }
            #expect(stranded.isRunning, "the proxy goes on: \(stranded.ending) \(stranded.standardError)")
            #expect(try await Self.stop(stranded) == 0)
            // A configuration file that cannot be read is found by the refresh that needs it: 503 with its line.
            let missingConfiguration = tokenFile.deletingLastPathComponent().appendingPathComponent("missing.yaml").path
            let (misconfigured, misconfiguredAddress) = try await Self.proxy([
                "--to", demo.baseURL.absoluteString, "--listen", "127.0.0.1:0", "--token-file", tokenFile.path, "--config", missingConfiguration,
            ])
            let unconfigured = try await Self.curl([misconfiguredAddress + "/oauth/v2/oauth-userinfo"])
            #expect(unconfigured.status == 503)
            #expect(unconfigured.body.contains("configuration file \(missingConfiguration) cannot be read"), "\(unconfigured.body)")
            #expect(try await Self.stop(misconfigured) == 0)
            #expect(try Tokens.read(tokenFile).accessToken == signedIn.accessToken, "nothing was refreshed")

            // At trace level: whatever the refresh logs, no token is in it.
            let (proxy, address) = try await Self.proxy([
                "--to", demo.baseURL.absoluteString, "--listen", "127.0.0.1:0", "--token-file", tokenFile.path, "--log-level", "trace",
            ])
            let refreshesBefore = demo.tokensIssued(grantType: "refresh_token")
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<5 { group.addTask { try await Self.curl([address + "/oauth/v2/oauth-userinfo"]).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers == [200, 200, 200, 200, 200], "\(proxy.standardError)")
            #expect(demo.tokensIssued(grantType: "refresh_token") - refreshesBefore == 1, "the demo's count of refresh grants")
            let refreshed = try Tokens.read(tokenFile)
            #expect(refreshed.accessToken != signedIn.accessToken, "refreshed")
            #expect(refreshed.refreshToken != signedIn.refreshToken, "the demo rotated the refresh token")
            #expect(FileManager.default.fileExists(atPath: tokenFile.path + ".lock"), "through the token file's lock")
            // Had two requests spent the same refresh token, the demo would have revoked the sign-in (RFC 9700 §4.14.2).
            let token = try await runGateway(
                ["token", "--token-file", tokenFile.path, "--min-valid-seconds", "400"],
                environment: SignedInHost.environment
            )
            #expect(token.status == 0, "the sign-in survived: \(token.standardError)")
            #expect(try await Self.stop(proxy) == 0)
            Self.expectNoSecret(in: proxy, [signedIn.accessToken, signedIn.refreshToken, refreshed.accessToken, refreshed.refreshToken])
        }
    }
}
