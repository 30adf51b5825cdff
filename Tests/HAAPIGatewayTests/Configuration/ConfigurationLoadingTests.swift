import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// Loading the configuration: YAML file, `HAAPI_GATEWAY_…` environment and flags; every problem reported at once.
@Suite("Configuration loading")
struct ConfigurationLoadingTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("config-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func write(_ text: String, named name: String = "gateway.yaml", in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func problems(file: String? = nil, environment: [String: String] = [:]) -> [String] {
        do {
            _ = try GatewayConfiguration.load(file: file, environment: environment)
            return []
        } catch {
            return error.problems
        }
    }

    @Test("no file, no environment: the built-in defaults (loopback 8080, the demo upstream)")
    func defaults() throws {
        let configuration = try GatewayConfiguration.load(file: nil, environment: [:])
        #expect(configuration.server.host == "127.0.0.1")
        #expect(configuration.server.port == 8080)
        #expect(configuration.sessions.idleTimeoutSeconds == 600)
        #expect(configuration.callbacks.isEmpty)
        guard case .demo = configuration.upstream else {
            Issue.record("expected the demo upstream")
            return
        }
    }

    @Test("config/haapi-gateway.yaml documents every key, in its section, and nothing else")
    func shippedFileDocumentsEveryKey() throws {
        let file = Repository.config.appendingPathComponent("haapi-gateway.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        var section = ""
        var group = ""
        var documented: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let match = line.firstMatch(of: /^([a-zA-Z]+):\s*$/) { section = String(match.1) }
            // A key line, set or commented out with its default: `  name: value` or `  # name: value` (one word of value);
            // a group's keys one level further in (`  #   token:` under `  # endpoints:`).
            if let match = line.firstMatch(of: /^  ([a-z][a-zA-Z]*):(?: .*)?$/) ?? line.firstMatch(of: /^  # ([a-z][a-zA-Z]*):(?: \S*)?$/) {
                group = String(match.1)
                if !ConfigurationKey.groups.contains("\(section).\(group)") { documented.append("\(section).\(match.1)") }
            } else if let match = line.firstMatch(of: /^  (?:#)?   ([a-z][a-zA-Z]*):(?: \S*)?$/) {
                documented.append("\(section).\(group).\(match.1)")
            }
        }
        #expect(Set(documented) == Set(ConfigurationKey.all.map(\.path)), "\(Set(documented).symmetricDifference(ConfigurationKey.all.map(\.path)))")
        let configuration = try GatewayConfiguration.load(file: file.path, environment: [:])
        #expect(configuration.summary == GatewayConfiguration().summary, "as shipped, the file equals the built-in defaults")
    }

    @Test("environment names: the path in upper snake case behind HAAPI_GATEWAY_")
    func environmentNames() {
        let names = Dictionary(uniqueKeysWithValues: ConfigurationKey.all.map { ($0.path, $0.environmentName) })
        #expect(names["server.publicURL"] == "HAAPI_GATEWAY_SERVER_PUBLIC_URL")
        #expect(names["upstream.clientID"] == "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID")
        #expect(names["upstream.baseURL"] == "HAAPI_GATEWAY_UPSTREAM_BASE_URL")
        #expect(names["upstream.bindTokensToDPoP"] == "HAAPI_GATEWAY_UPSTREAM_BIND_TOKENS_TO_DPOP")
        #expect(names["sessions.maximumSessions"] == "HAAPI_GATEWAY_SESSIONS_MAXIMUM_SESSIONS")
        #expect(names["demo.requireDPoPNonce"] == "HAAPI_GATEWAY_DEMO_REQUIRE_DPOP_NONCE")
        #expect(Set(names.values).count == names.count, "every key has its own variable")
    }

    @Test("a full real-upstream file resolves, with relative paths against the file's directory and the secret from a file")
    func fullFile() throws {
        let directory = try temporaryDirectory()
        _ = try write("the-client-secret\n", named: "client-secret", in: directory)
        let file = try write(
            """
            server:
              host: 0.0.0.0
              port: 9090
              publicURL: https://login.example.com
            upstream:
              baseURL: https://idsvr.example.com/
              clientID: gateway
              clientAuthentication: secret-post
              clientSecretFile: client-secret
              scopes: [openid, profile]
              timeoutSeconds: 7
              acrValues: urn:a, urn:b
              maxAgeSeconds: 60
              claims: '{"id_token":{"email":null}}'
            sessions: {idleTimeoutSeconds: 120, absoluteTimeoutSeconds: 900, maximumSessions: 5}
            templates:
              overrideDirectory: custom
            callbacks:
              sinks: ["file:/tmp/out.json", "https://hooks.example.com/t"]
              webhookSecret: sixteen-characters-long
              retryForSeconds: 60
            completion: {redirectURL: https://app.example.com/done, confirmCancel: no}
            polling: {defaultIntervalSeconds: 3, maximumWaitSeconds: 120}
            logging: {level: debug}
            """,
            in: directory
        )
        let configuration = try GatewayConfiguration.load(file: file, environment: [:])
        #expect(configuration.server.port == 9090)
        #expect(configuration.server.servesTLS)
        #expect(configuration.templates.overrideDirectory?.path == directory.appendingPathComponent("custom").path)
        #expect(configuration.sessions.maximumSessions == 5)
        #expect(configuration.callbacks.count == 2)
        #expect(configuration.callbacks.last == .webhook(url: URL(string: "https://hooks.example.com/t")!, secret: "sixteen-characters-long"))
        #expect(configuration.callbackDelivery.retryForSeconds == 60)
        #expect(configuration.completion.confirmCancel == false)
        #expect(configuration.polling.defaultIntervalSeconds == 3)
        #expect(configuration.logging.level == .debug)
        guard case .haapi(let client) = configuration.upstream else {
            Issue.record("expected a HAAPI upstream")
            return
        }
        #expect(client.scopes == ["openid", "profile"])
        #expect(client.requestTimeout == .seconds(7))
        #expect(client.authorizationParameters.acrValues == ["urn:a", "urn:b"])
        #expect(client.authorizationParameters.maxAgeSeconds == 60)
        guard case .secretPost(let secret) = client.clientAuthentication else {
            Issue.record("expected client_secret_post")
            return
        }
        #expect(secret == "the-client-secret", "the file's trailing newline is not part of the secret")
    }

    @Test("the environment wins over the file; lists in the environment are comma-separated")
    func environmentOverFile() throws {
        let directory = try temporaryDirectory()
        let file = try write("server:\n  port: 9000\nupstream:\n  scopes: [openid]\n", in: directory)
        let configuration = try GatewayConfiguration.load(
            file: file,
            environment: ["HAAPI_GATEWAY_SERVER_PORT": "9001", "HAAPI_GATEWAY_UPSTREAM_SCOPES": "openid, email", "UNRELATED": "x"]
        )
        #expect(configuration.server.port == 9001)
        guard case .demo(let demo) = configuration.upstream else {
            Issue.record("expected the demo upstream")
            return
        }
        #expect(demo.scopes == ["openid", "email"])
    }

    @Test("scopes written the OAuth way, space-separated, are as many scopes in the environment and in the file")
    func spaceSeparatedScopes() throws {
        let directory = try temporaryDirectory()
        let file = try write("upstream:\n  scopes: openid profile email\n", in: directory)
        for (file, environment) in [(nil, ["HAAPI_GATEWAY_UPSTREAM_SCOPES": "openid profile, email"]), (file, [:])] {
            let configuration = try GatewayConfiguration.load(file: file, environment: environment)
            #expect(configuration.upstream.scopes == ["openid", "profile", "email"])
        }
    }

    @Test("every problem is reported at once, each with the key and where it was set")
    func everyProblemAtOnce() throws {
        let directory = try temporaryDirectory()
        let file = try write(
            """
            server:
              port: 99999
              publicURL: https://login.example.com/path
            upstream:
              baseURL: http://idsvr.example.com
              clientAuthentication: magic
              claims: not json
            sessions:
              idleTimeoutSeconds: 600
              absoluteTimeoutSeconds: 60
            completion:
              confirmCancel: perhaps
            polling:
              maximumWaitSeconds: -1
            logging:
              level: loud
            """,
            in: directory
        )
        let found = problems(file: file, environment: ["HAAPI_GATEWAY_SERVER_HOSTNAME": "x"])
        let expected = [
            "environment variable HAAPI_GATEWAY_SERVER_HOSTNAME is not a configuration key",
            "server.port (\(file):2): must be between 0 and 65535, got 99999",
            "server.publicURL (\(file):3): must be an origin",
            "upstream.baseURL (\(file):5): must use https",
            "upstream.clientID: is required",
            "upstream.clientAuthentication (\(file):6): must be secret-basic, secret-post, secret-jwt, private-key-jwt, mtls or none; got 'magic'",
            "upstream.claims (\(file):7): must be a JSON object",
            "sessions.absoluteTimeoutSeconds (\(file):10): must not be shorter than sessions.idleTimeoutSeconds",
            "completion.confirmCancel (\(file):12): must be true or false, got 'perhaps'",
            "polling.maximumWaitSeconds (\(file):14): must be between 10 and 3600, got -1",
            "logging.level (\(file):16): must be one of",
        ]
        for message in expected {
            #expect(found.contains { $0.hasPrefix(message) }, "missing: \(message)\nfound:\n\(found.joined(separator: "\n"))")
        }
        #expect(found.count == expected.count, "\(found.joined(separator: "\n"))")
    }

    @Test(
        "slow and crowded clients: server.requestTimeoutSeconds, maximumConnections and maximumConnectionsPerAddress, from file or environment, checked"
    )
    func connectionBounds() throws {
        let defaults = try GatewayConfiguration.load(file: nil, environment: [:]).server
        #expect(defaults.requestTimeoutSeconds == 10 && defaults.maximumConnections == 4096 && defaults.maximumConnectionsPerAddress == 64)
        let set = try GatewayConfiguration.load(
            file: nil,
            environment: [
                "HAAPI_GATEWAY_SERVER_REQUEST_TIMEOUT_SECONDS": "2", "HAAPI_GATEWAY_SERVER_MAXIMUM_CONNECTIONS": "100",
                "HAAPI_GATEWAY_SERVER_MAXIMUM_CONNECTIONS_PER_ADDRESS": "0",
            ]
        ).server
        #expect(set.requestTimeoutSeconds == 2 && set.maximumConnections == 100 && set.maximumConnectionsPerAddress == 0)
        let directory = try temporaryDirectory()
        let file = try write("server:\n  requestTimeoutSeconds: 0\n  maximumConnections: 0\n  maximumConnectionsPerAddress: -1\n", in: directory)
        #expect(
            problems(file: file) == [
                "server.requestTimeoutSeconds (\(file):2): must be between 1 and 300, got 0",
                "server.maximumConnections (\(file):3): must be between 1 and 1000000, got 0",
                "server.maximumConnectionsPerAddress (\(file):4): must be between 0 and 1000000, got -1",
            ]
        )
        #expect(
            problems(environment: ["HAAPI_GATEWAY_SERVER_MAXIMUM_CONNECTIONS": "10"]) == [
                "server.maximumConnectionsPerAddress: must not be larger than server.maximumConnections (10)"
            ]
        )
    }

    @Test("unknown sections and keys are errors with their line and a suggestion")
    func unknownKeys() throws {
        let directory = try temporaryDirectory()
        let file = try write("server:\n  hots: x\nsesion:\n  a: 1\nlogging:\n  level: [info]\n", in: directory)
        let found = problems(file: file)
        #expect(found.contains("\(file):2: unknown key 'server.hots' (did you mean 'host'?)"))
        #expect(found.contains("\(file):3: unknown section 'sesion' (did you mean 'sessions'?)"))
        #expect(found.contains("\(file):6: 'logging.level' must be a single value, not a list"))
    }

    @Test("unparsable YAML, a duplicated key and a non-mapping document are reported, not thrown past the loader")
    func brokenYAML() throws {
        let directory = try temporaryDirectory()
        #expect(problems(file: try write("server: [unclosed\n", in: directory)).first?.contains("is not valid YAML: line") == true)
        #expect(problems(file: try write("server:\n  port: 1\n  port: 2\n", in: directory)).first?.contains("appears twice") == true)
        #expect(problems(file: try write("- a\n- b\n", in: directory)).first?.contains("must be a mapping of sections") == true)
        #expect(
            problems(file: directory.appendingPathComponent("missing.yaml").path) == [
                "configuration file \(directory.path)/missing.yaml cannot be read: it does not exist"
            ]
        )
    }

    @Test("secrets: not both inline and file, never empty, never echoed in a problem")
    func secrets() throws {
        let directory = try temporaryDirectory()
        let empty = try write("\n", named: "empty", in: directory)
        let both = problems(environment: [
            "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c",
            "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": "canary-secret-3141", "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET_FILE": empty,
        ])
        #expect(both.count == 1)
        #expect(both.first?.contains("set either upstream.clientSecret or upstream.clientSecretFile, not both") == true)
        let emptyFile = problems(environment: [
            "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c",
            "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET_FILE": empty,
        ])
        #expect(emptyFile.first?.contains("the file is empty") == true)
        let missing = problems(environment: ["HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c"])
        #expect(missing.first?.contains("secret-basic needs upstream.clientSecret or upstream.clientSecretFile") == true)
        let shortWebhook = problems(environment: [
            "HAAPI_GATEWAY_CALLBACKS_SINKS": "https://hooks.example/x", "HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET": "canary-short",
        ])
        #expect(shortWebhook.first?.contains("at least 16 characters") == true)
        for problem in both + emptyFile + missing + shortWebhook {
            #expect(!problem.contains("canary"), "a secret leaked into: \(problem)")
        }
    }

    /// A HAAPI client without authentication must attest, which a gateway cannot ([CLIENTAUTH]): refused with the reason
    /// unless the person says their server allows it.
    @Test func clientAuthenticationNoneIsRefusedUnlessExplicitlyAllowed() throws {
        let base = [
            "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c",
            "HAAPI_GATEWAY_UPSTREAM_CLIENT_AUTHENTICATION": "none",
        ]
        let refused = problems(environment: base)
        #expect(refused.count == 1)
        #expect(refused.first?.contains("a gateway cannot") == true)
        #expect(refused.first?.contains("upstream.allowUnauthenticatedClient") == true)
        #expect(problems(environment: base.merging(["HAAPI_GATEWAY_UPSTREAM_ALLOW_UNAUTHENTICATED_CLIENT": "true"]) { $1 }).isEmpty)
        let misplaced = problems(environment: [
            "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c",
            "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": "s",
            "HAAPI_GATEWAY_UPSTREAM_ALLOW_UNAUTHENTICATED_CLIENT": "true", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ASSERTION_ALGORITHM": "RS256",
        ])
        #expect(misplaced.count == 2)
    }

    @Test func signedJWTMethodsNameTheirKeyAndAlgorithm() throws {
        let base = ["HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c"]
        let badAlgorithm = problems(
            environment: base.merging([
                "HAAPI_GATEWAY_UPSTREAM_CLIENT_AUTHENTICATION": "private-key-jwt", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ASSERTION_ALGORITHM": "none",
            ]) { $1 }
        )
        #expect(badAlgorithm.contains { $0.hasPrefix("upstream.clientAssertionAlgorithm") && $0.contains("ES256, RS256 or PS256") })
        let shortSecret = problems(
            environment: base.merging([
                "HAAPI_GATEWAY_UPSTREAM_CLIENT_AUTHENTICATION": "secret-jwt", "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": "canary-too-short",
            ]) { $1 }
        )
        #expect(shortSecret.contains { $0.contains("at least 32 bytes") })
        #expect(!shortSecret.contains { $0.contains("canary") })
        let secretJWT = try GatewayConfiguration.load(
            file: nil,
            environment: base.merging([
                "HAAPI_GATEWAY_UPSTREAM_CLIENT_AUTHENTICATION": "secret-jwt",
                "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": String(repeating: "k", count: 32),
            ]) { $1 }
        )
        guard case .haapi(let client) = secretJWT.upstream, case .secretJWT = client.clientAuthentication else {
            Issue.record("secret-jwt was not loaded as client_secret_jwt")
            return
        }
    }

    @Test("upstream keys without upstream.baseURL, and demo keys with it, are mistakes")
    func modeMistakes() throws {
        let demo = problems(environment: ["HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c"])
        #expect(
            demo == [
                "upstream.clientID (environment variable HAAPI_GATEWAY_UPSTREAM_CLIENT_ID): is set, but upstream.baseURL is not (without it the embedded demo upstream is used)"
            ]
        )
        let real = problems(environment: [
            "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c",
            "HAAPI_GATEWAY_UPSTREAM_CLIENT_AUTHENTICATION": "none", "HAAPI_GATEWAY_UPSTREAM_ALLOW_UNAUTHENTICATED_CLIENT": "true",
            "HAAPI_GATEWAY_DEMO_REQUIRE_DPOP_NONCE": "true",
        ])
        #expect(real.count == 1)
        #expect(real.first?.hasPrefix("demo.requireDPoPNonce") == true)
        let loopback = try GatewayConfiguration.load(
            file: nil,
            environment: [
                "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "http://127.0.0.1:8443", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "c",
                "HAAPI_GATEWAY_UPSTREAM_CLIENT_AUTHENTICATION": "none", "HAAPI_GATEWAY_UPSTREAM_ALLOW_UNAUTHENTICATED_CLIENT": "true",
            ]
        )
        guard case .haapi = loopback.upstream else {
            Issue.record("plain http is fine on loopback")
            return
        }
    }

    @Test("callbacks: only file:PATH, exec:/abs (executable) and http(s) webhooks with a secret")
    func callbacks() throws {
        let found = problems(environment: [
            "HAAPI_GATEWAY_CALLBACKS_SINKS":
                "exec:relative/program,exec:/nonexistent/program,ftp://x,http://hooks.example/x,file:/nonexistent-dir/x.json",
            "HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET": "sixteen-characters-long",
        ])
        #expect(found.contains { $0.contains("exec:PATH needs an absolute path") })
        #expect(found.contains { $0.contains("exec:/nonexistent/program is not an executable file") })
        #expect(found.contains { $0.contains("'ftp://x' is not a callback") })
        #expect(found.contains { $0.contains("webhook hooks.example must use https") })
        #expect(found.contains { $0.contains("the directory of file:/nonexistent-dir/x.json does not exist") })
        #expect(found.count == 5, "\(found)")
        #expect(
            problems(environment: ["HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET": "sixteen-characters-long"]).first?.contains("has no webhook") == true
        )
    }

    @Test(
        "a relative file: sink is relative to the configuration file's directory when written there, to the working directory from the environment or a flag"
    )
    func relativeFileSinks() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("out"), withIntermediateDirectories: true)
        let file = try write("callbacks:\n  sinks: [file:tokens.json, file:out/../out/tokens.json]\n", in: directory)
        #expect(
            try GatewayConfiguration.load(file: file, environment: [:]).callbacks == [
                .file(path: directory.appendingPathComponent("tokens.json").path),
                .file(path: directory.appendingPathComponent("out/tokens.json").path),
            ]
        )
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let fromTheWorkingDirectory: [CallbackSinkConfiguration] = [.file(path: workingDirectory.appendingPathComponent("tokens.json").path)]
        let environment = ["HAAPI_GATEWAY_CALLBACKS_SINKS": "file:tokens.json"]
        #expect(try GatewayConfiguration.load(file: file, environment: environment).callbacks == fromTheWorkingDirectory)
        let flag: [(key: ConfigurationKey, flag: String, value: ConfigurationValue.Content?)] = [
            (.callbacksSinks, "--callback", .list(["file:tokens.json"]))
        ]
        #expect(try GatewayConfiguration.load(file: file, environment: [:], flags: flag).callbacks == fromTheWorkingDirectory)
        // A directory that is not there is named as it was written, with where.
        let missing = try write("callbacks:\n  sinks: [file:nowhere/tokens.json]\n", named: "missing.yaml", in: directory)
        #expect(problems(file: missing) == ["callbacks.sinks (\(missing):2): the directory of file:nowhere/tokens.json does not exist"])
        #expect(problems(environment: ["HAAPI_GATEWAY_CALLBACKS_SINKS": "file:"]).first?.contains("file:PATH needs a file name") == true)
    }

    @Test("the summary names what matters and redacts secrets")
    func summaryRedacts() throws {
        let configuration = try GatewayConfiguration.load(
            file: nil,
            environment: [
                "HAAPI_GATEWAY_UPSTREAM_BASE_URL": "https://idsvr.example", "HAAPI_GATEWAY_UPSTREAM_CLIENT_ID": "client-one",
                "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": "canary-client-secret",
                "HAAPI_GATEWAY_CALLBACKS_SINKS": "https://hooks.example/x?token=canary-query",
                "HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET": "canary-webhook-secret",
            ]
        )
        let summary = configuration.summary.joined(separator: "\n")
        #expect(summary.contains("client client-one"))
        #expect(summary.contains("webhook:https://hooks.example/x"))
        #expect(!summary.contains("canary"), "\(summary)")
    }

    @Test("outcome.idTokenClaims and outcome.userinfoClaims: lists of claim names, from the file or the environment")
    func outcomeClaims() throws {
        let directory = try temporaryDirectory()
        let file = try write("outcome:\n  idTokenClaims: [email, name]\n  userinfoClaims: [preferred_username]\n", in: directory)
        let configuration = try GatewayConfiguration.load(file: file, environment: [:])
        #expect(configuration.outcome == OutcomeSettings(idTokenClaims: ["email", "name"], userinfoClaims: ["preferred_username"]))
        #expect(
            configuration.summary.contains(
                "outcome: signInId, subject (the validated ID token's sub); ID token claims email, name; userinfo claims preferred_username"
            )
        )
        let fromEnvironment = try GatewayConfiguration.load(file: nil, environment: ["HAAPI_GATEWAY_OUTCOME_USERINFO_CLAIMS": "email, address"])
        #expect(fromEnvironment.outcome == OutcomeSettings(userinfoClaims: ["email", "address"]))
        #expect(try GatewayConfiguration.load(file: nil, environment: [:]).outcome == OutcomeSettings())
    }

    @Test("bad outcome claims stop startup with every problem listed: an empty name, a name twice or in both lists, claims without the openid scope")
    func outcomeClaimProblems() throws {
        let directory = try temporaryDirectory()
        let file = try write(
            """
            upstream:
              scopes: [profile]
            outcome:
              idTokenClaims: [email, "", email, "a\\u0007b"]
              userinfoClaims: [email, phone_number]
            """,
            in: directory
        )
        let found = problems(file: file)
        #expect(found.contains { $0.hasPrefix("outcome.idTokenClaims") && $0.contains("must not be empty") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("outcome.idTokenClaims") && $0.contains("'email' is listed twice") })
        #expect(found.contains { $0.hasPrefix("outcome.idTokenClaims") && $0.contains("control characters") })
        #expect(found.contains { $0.hasPrefix("outcome.userinfoClaims") && $0.contains("'email' is also in outcome.idTokenClaims") })
        #expect(found.contains { $0.hasPrefix("outcome.idTokenClaims") && $0.contains("needs the openid scope") })
        #expect(found.contains { $0.hasPrefix("outcome.userinfoClaims") && $0.contains("needs the openid scope") })
        #expect(found.allSatisfy { !$0.hasPrefix("outcome") || $0.contains(file) }, "each problem names where it was set")
        // With the openid scope and distinct names, the same lists are accepted.
        let fine = try write("outcome:\n  idTokenClaims: [email]\n  userinfoClaims: [phone_number]\n", named: "fine.yaml", in: directory)
        #expect(problems(file: fine).isEmpty)
    }
}
