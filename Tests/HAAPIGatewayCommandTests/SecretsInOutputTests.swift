import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// Issues #39 item 3 and #55 item 3 (the host tools): every subcommand of the built `haapi-gateway`, at `--log-level trace` where it has one, with each
/// secret given every way the product takes it (a flag, a file, an environment variable, the YAML file), in the text
/// and the JSON log formats, and made to use it (a sign-in whose code exchange and refresh authenticate with the
/// client secret, a signed webhook, a device client's authorization, a reload; `token`, `git-credential get`,
/// `kube-credential`, `docker-credential get` and `proxy` (one request forwarded) each refreshing an access token made
/// expired, with the client secret; `setup-git`, which takes no secret, with them in its environment): no secret's value
/// appears anywhere in what it prints, standard output or standard error.
@Suite("No secret in any command's output, at trace level", .startsPrograms())
struct SecretsInOutputTests {
    /// How the client secret and the webhook secret are given.
    enum Way: String, CaseIterable, Sendable {
        /// `--client-secret` and `--webhook-secret-file`.
        case flag
        /// `--client-secret-file`, and the file's `callbacks.webhookSecretFile`.
        case file
        /// `HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET` and `HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET`.
        case environment
        /// `upstream.clientSecret` and `callbacks.webhookSecret` in the YAML file.
        case yaml
    }

    /// Every secret, each unique to the run; the device client's, the start links' and the refresh-token key are
    /// always in files (the only way they are taken).
    struct Secrets {
        let unique = UUID().uuidString.lowercased()
        var client: String { "client-secret-\(unique)" }
        var webhook: String { "webhook-secret-\(unique)" }
        var device: String { "device-secret-\(unique)" }
        var startLink: String { "start-link-secret-\(unique)-0123456789" }
        var databasePassword: String { "database-password-\(unique)" }
        let refreshTokenKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let sessionKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()

        var all: [String] { [client, webhook, device, startLink, databasePassword, refreshTokenKey, sessionKey] }
    }

    /// What a command printed, for the failure messages.
    struct Printed {
        let command: String
        let standardOutput: String
        let standardError: String
    }

    /// Upstream calls may be slow while the whole suite loads this machine.
    private static let patient = ["HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60"]

    /// Writes `text` to a file of mode 0600 in `directory`.
    private static func secretFile(_ name: String, _ text: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url.path
    }

    /// Expects no secret in anything `printed` holds.
    private static func expectNoSecret(_ printed: [Printed], _ secrets: Secrets, _ context: String) {
        #expect(!printed.isEmpty)
        for output in printed {
            for secret in secrets.all {
                for (stream, text) in [("standard output", output.standardOutput), ("standard error", output.standardError)] {
                    guard let range = text.range(of: secret) else { continue }
                    let start = text[..<range.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
                    let line = text[start..<range.upperBound]
                    Issue.record("\(context): \(output.command) printed \(secret.prefix(16))… on its \(stream): \(line.suffix(300))")
                }
            }
        }
    }

    @Test(
        "serve, doctor, check-config, login, keep, token, git-credential, kube-credential, docker-credential, proxy, setup-git, logout and render print no secret given as a flag, a file, an environment variable or in the YAML file",
        arguments: Way.allCases,
        ["text", "json"]
    )
    func everyCommandPrintsNoSecret(way: Way, format: String) async throws {
        let secrets = Secrets()
        var demoConfiguration = DemoServerConfiguration()
        demoConfiguration.clientSecret = secrets.client
        let demo = try await DemoServer.start(configuration: demoConfiguration)
        do {
            let printed = try await WebhookReceiver().serving { hook in
                try await runEveryCommand(way: way, format: format, secrets: secrets, upstream: demo.issuer, hook: hook.absoluteString)
            }
            Self.expectNoSecret(printed, secrets, "\(way), \(format)")
        } catch {
            await demo.shutdown()
            throw error
        }
        await demo.shutdown()
    }

    /// Runs every command that takes the gateway's configuration with the secrets given `way` (and `setup-git`, which
    /// takes none), and returns what each printed.
    private func runEveryCommand(way: Way, format: String, secrets: Secrets, upstream: String, hook: String) async throws -> [Printed] {
        let directory = try Repository.temporaryDirectory()
        let tokenFile = directory.appendingPathComponent("private/tokens.json").path
        let clientSecretFile = try Self.secretFile("client-secret", secrets.client, in: directory)
        let webhookSecretFile = try Self.secretFile("webhook-secret", secrets.webhook, in: directory)
        _ = try Self.secretFile("device-secret", secrets.device, in: directory)
        _ = try Self.secretFile("start-link-secret", secrets.startLink, in: directory)
        _ = try Self.secretFile("refresh-token-keys", secrets.refreshTokenKey, in: directory)
        var environment = Self.patient.merging(["HAAPI_GATEWAY_LOGGING_FORMAT": format]) { _, new in new }
        var secretArguments: [String] = []
        var upstreamSecret = ""
        var webhookSecret = ""
        switch way {
        case .flag:
            secretArguments = ["--client-secret", secrets.client, "--webhook-secret-file", webhookSecretFile]
        case .file:
            secretArguments = ["--client-secret-file", clientSecretFile]
            webhookSecret = "  webhookSecretFile: webhook-secret"
        case .environment:
            environment["HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET"] = secrets.client
            environment["HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET"] = secrets.webhook
        case .yaml:
            upstreamSecret = "  clientSecret: \(secrets.client)"
            webhookSecret = "  webhookSecret: \(secrets.webhook)"
        }
        let configuration = try Self.secretFile(
            "gateway.yaml",
            """
            server:
              port: 0
              drainSeconds: 0
            upstream:
              baseURL: \(upstream)
              clientID: \(DemoServer.clientID)
            \(upstreamSecret)
            callbacks:
              sinks: ["\(hook)"]
            \(webhookSecret)
            devices:
              enabled: true
              refreshTokenKeyFile: refresh-token-keys
              clients:
                - id: build-host
                  name: Build host
                  secretFile: device-secret
            startLinks:
              secretFile: start-link-secret
            """,
            in: directory
        )
        let options = ["--config", configuration, "--log-level", "trace"] + secretArguments
        var printed: [Printed] = []

        // serve: a sign-in (the code exchange authenticates with the client secret, the outcome is signed with the
        // webhook secret), a device client's authorization with its secret, a start link refused, and a reload.
        let serve = try RunningGateway(["serve"] + options, environment: environment)
        let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#, inStandardError: format == "json")
        try await TestBrowser.using(base) { browser in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"), "\(done.summary)")
            let basic = Data("build-host:\(secrets.device)".utf8).base64EncodedString()
            let device = try await browser.post(
                "/oauth/device_authorization",
                body: "scope=openid",
                headers: [("Authorization", "Basic \(basic)")]
            )
            #expect(device.status == 200, "\(device.html)")
            _ = try await browser.get("/start?ref=r&exp=1&sig=forged")
        }
        serve.signal(SIGHUP)
        _ = try await serve.waitForOutput("(configuration reloaded)", inStandardError: true)
        #expect(try await serve.stopped(killingAfter: .seconds(30)).status == 0, "\(serve.standardError.suffix(2000))")
        printed.append(Printed(command: "serve", standardOutput: serve.standardOutput, standardError: serve.standardError))

        // doctor: the client's authentication checked at the upstream.
        let doctor = try await runGateway(
            ["doctor"] + options + (format == "json" ? ["--json"] : []),
            environment: environment,
            directory: directory
        )
        #expect(doctor.status == 0, "\(doctor.standardOutput)\(doctor.standardError)")
        printed.append(Printed(command: "doctor", standardOutput: doctor.standardOutput, standardError: doctor.standardError))

        // check-config: the file with the environment (it takes no flags: given only as flags, the secrets are missing,
        // and the problems are listed).
        let complete = way == .environment || way == .yaml
        let check = try await runGateway(["check-config", configuration], environment: environment, directory: directory)
        #expect(check.status == (complete ? 0 : 78), "\(check.standardError)")
        printed.append(Printed(command: "check-config", standardOutput: check.standardOutput, standardError: check.standardError))

        // login, then keep and logout with its tokens: the code exchange, the refresh and the revocation authenticate
        // with the client secret.
        let tokenArguments = ["--token-file", tokenFile]
        let login = try RunningGateway(["login", "--timeout-seconds", "120"] + options + tokenArguments, environment: environment)
        _ = try await login.pairAndSignIn()
        #expect(try await login.waitForExit() == 0, "\(login.standardError)")
        printed.append(Printed(command: "login", standardOutput: login.standardOutput, standardError: login.standardError))
        let keep = try await runGateway(["keep", "--once"] + options + tokenArguments, environment: environment, directory: directory)
        #expect(keep.status == 0, "\(keep.standardError)")
        printed.append(Printed(command: "keep", standardOutput: keep.standardOutput, standardError: keep.standardError))
        printed += try await runHostTools(
            options: options + tokenArguments,
            environment: environment,
            tokenFile: URL(fileURLWithPath: tokenFile),
            configuration: configuration,
            directory: directory
        )
        let logout = try await runGateway(["logout"] + options + tokenArguments, environment: environment, directory: directory)
        #expect(logout.status == 0, "\(logout.standardError)")
        printed.append(Printed(command: "logout", standardOutput: logout.standardOutput, standardError: logout.standardError))

        // render: it reads the file and the environment too.
        let step = Repository.root.appendingPathComponent("Tests/HAAPITests/Fixtures/samples/authenticator-selector.json").path
        let render = try await runGateway(["render", step, "--config", configuration], environment: environment, directory: Repository.root)
        #expect(render.status == (complete ? 0 : 78), "\(render.standardError)")
        printed.append(Printed(command: "render", standardOutput: render.standardOutput, standardError: render.standardError))
        return printed
    }

    /// The token file's access token now.
    private static func accessToken(in tokenFile: URL) throws -> String {
        struct Document: Decodable {
            struct Token: Decodable { let accessToken: String }
            let token: Token
        }
        return try JSONDecoder().decode(Document.self, from: Data(contentsOf: tokenFile)).token.accessToken
    }

    /// Makes the token file's access token (300 s) expired by the file's clock, which is what the host tools go by: the
    /// next one to read it refreshes first, authenticating with the client secret.
    private static func expire(_ tokenFile: URL) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: tokenFile.path)
    }

    /// Runs `haapi-gateway` with `arguments` and `input` on its standard input, as git and Docker run their helpers.
    private static func runGatewayReading(
        _ input: String,
        _ arguments: [String],
        environment: [String: String],
        directory: URL
    ) async throws -> ProcessResult {
        try await runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"input="$1"; shift; printf '%s' "$input" | "$@""#, "sh", input, Repository.executable.path] + arguments,
            environment: environment,
            directory: directory
        )
    }

    /// Runs the tools that use `login`'s tokens on the host (`token`, the git, Kubernetes and Docker credential helpers,
    /// `proxy`), with `options` (the secrets as flags or files, the configuration file, trace level, the token file) and
    /// `environment`, each after the token file's access token was made expired, so that each refreshes it with the
    /// client secret; and `setup-git`, which takes no configuration, no secret and no log level (only `--host`), with the
    /// secrets in its environment when they are given there and the configuration file named by `HAAPI_GATEWAY_CONFIG`.
    /// Returns what each printed.
    private func runHostTools(
        options: [String],
        environment: [String: String],
        tokenFile: URL,
        configuration: String,
        directory: URL
    ) async throws -> [Printed] {
        var printed: [Printed] = []
        /// Runs `run` with the access token expired first, and expects it refreshed (by the upstream, which takes only
        /// the client secret of this run).
        func refreshing(_ command: String, _ run: () async throws -> (status: Int32, standardOutput: String, standardError: String)) async throws {
            try Self.expire(tokenFile)
            let before = try Self.accessToken(in: tokenFile)
            let result = try await run()
            #expect(result.status == 0, "\(command): \(result.standardOutput)\(result.standardError)")
            #expect(try Self.accessToken(in: tokenFile) != before, "\(command) refreshed the access token with the client secret")
            printed.append(Printed(command: command, standardOutput: result.standardOutput, standardError: result.standardError))
        }
        func finished(_ result: ProcessResult) -> (status: Int32, standardOutput: String, standardError: String) {
            (result.status, result.standardOutput, result.standardError)
        }

        // token: prints the access token, refreshed first.
        try await refreshing("token") {
            finished(try await runGateway(["token"] + options, environment: environment, directory: directory))
        }
        // git-credential get: git's request on standard input, for an https host.
        try await refreshing("git-credential") {
            let result = try await Self.runGatewayReading(
                "protocol=https\nhost=git.example.com\n\n",
                ["git-credential"] + options + ["get"],
                // git's configuration of this machine left out: a credential helper there would be named, and nothing answered.
                environment: environment.merging(["GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"]) { _, new in new },
                directory: directory
            )
            #expect(result.standardOutput.contains("password="), "git-credential answered: \(result.standardOutput)")
            return finished(result)
        }
        // kube-credential: the ExecCredential kubectl asks for, with the ID token.
        try await refreshing("kube-credential") {
            let info = #"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","spec":{"interactive":false}}"#
            let result = try await runGateway(
                ["kube-credential"] + options,
                environment: environment.merging(["KUBERNETES_EXEC_INFO": info]) { _, new in new },
                directory: directory
            )
            #expect(result.standardOutput.contains(#""token""#), "kube-credential answered: \(result.standardOutput)")
            return finished(result)
        }
        // docker-credential get: the registry on standard input, one that Docker's configuration hands to the helper.
        let docker = directory.appendingPathComponent("docker")
        try FileManager.default.createDirectory(at: docker, withIntermediateDirectories: true)
        try #"{"credHelpers":{"registry.example.com":"haapi-gateway"}}"#.write(
            to: docker.appendingPathComponent("config.json"),
            atomically: true,
            encoding: .utf8
        )
        try await refreshing("docker-credential") {
            let result = try await Self.runGatewayReading(
                "registry.example.com",
                ["docker-credential"] + options + ["get"],
                environment: environment.merging(["DOCKER_CONFIG": docker.path]) { _, new in new },
                directory: directory
            )
            #expect(result.standardOutput.contains(#""Secret""#), "docker-credential answered: \(result.standardOutput)")
            return finished(result)
        }
        // proxy: one request through it to a local target, which gets the refreshed token; stopped with SIGTERM.
        let target = RecordingTarget()
        try await refreshing("proxy") {
            try await target.serving { origin in
                let proxy = try RunningGateway(["proxy", "--to", origin, "--listen", "127.0.0.1:0"] + options, environment: environment)
                let address = try await proxy.waitForOutput(#"haapi-gateway proxy: (http://127\.0\.0\.1:\d+) forwards to "#)
                let port = try #require(URL(string: address)?.port)
                let answer = try await RawHTTPExchange.send(
                    "GET /api/things HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n",
                    port: port
                )
                #expect(answer.status == 200, "\(answer.text) \(proxy.standardError)")
                #expect(
                    target.requests.last?.values("Authorization") == ["Bearer \(try Self.accessToken(in: tokenFile))"],
                    "the target got the refreshed token"
                )
                proxy.signal(SIGTERM)
                return (try await proxy.waitForExit(), proxy.standardOutput, proxy.standardError)
            }
        }
        // setup-git: it takes only --host (no configuration, no secret, no log level); run with the secrets in its
        // environment when they are given there, and the configuration file named by HAAPI_GATEWAY_CONFIG, its git
        // configuration in a home of its own (HOME, GIT_CONFIG_GLOBAL).
        let home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let gitConfiguration = home.appendingPathComponent(".gitconfig")
        let gitEnvironment = environment.merging([
            "HOME": home.path, "GIT_CONFIG_GLOBAL": gitConfiguration.path, "GIT_CONFIG_NOSYSTEM": "1", "HAAPI_GATEWAY_CONFIG": configuration,
        ]) { _, new in new }
        let setup = try await runGateway(["setup-git", "--host", "git.example.com"], environment: gitEnvironment, directory: directory)
        #expect(setup.status == 0, "\(setup.standardError)")
        #expect(
            (try? String(contentsOf: gitConfiguration, encoding: .utf8))?.contains("git-credential") == true,
            "setup-git wrote the temporary git configuration"
        )
        printed.append(Printed(command: "setup-git", standardOutput: setup.standardOutput, standardError: setup.standardError))
        return printed
    }

    @Test("login, keep and logout through a central gateway (--via) print no device client secret")
    func deviceClientCommandsPrintNoSecret() async throws {
        let secrets = Secrets()
        let directory = try Repository.temporaryDirectory()
        let secretFile = try Self.secretFile("device-secret", secrets.device, in: directory)
        let tokenFile = directory.appendingPathComponent("private/tokens.json").path
        let gateway = ScriptedDeviceGateway(deviceCodeAnswers: ["authorization_pending", nil])
        let printed = try await gateway.serving { url in
            let device = [
                "--via", url.absoluteString, "--device-client", "pi", "--device-client-secret-file", secretFile, "--token-file", tokenFile,
                "--log-level", "trace",
            ]
            var printed: [Printed] = []
            for command in [["login", "--timeout-seconds", "60"], ["keep", "--once"], ["logout"]] {
                let result = try await runGateway(command + device, directory: Repository.root)
                #expect(result.status == 0, "\(command): \(result.standardError)")
                printed.append(Printed(command: command[0], standardOutput: result.standardOutput, standardError: result.standardError))
            }
            return printed
        }
        #expect(gateway.requests(to: "/oauth/token").allSatisfy { $0.basicCredentials == "pi:\(secrets.device)" }, "the secret was used")
        Self.expectNoSecret(printed, secrets, "--via")
    }

    @Test(
        "serve and check-config print no database password or session key, given in the YAML file, the environment or a file",
        arguments: [Way.yaml, .environment, .file]
    )
    func databaseSecretsArePrintedNowhere(way: Way) async throws {
        let secrets = Secrets()
        let directory = try Repository.temporaryDirectory()
        // Nothing listens on port 1: the gateway tries the database again and again, and says so.
        let url = "postgres://gateway:\(secrets.databasePassword)@127.0.0.1:1/haapi?sslmode=disable"
        _ = try Self.secretFile("session-keys", secrets.sessionKey, in: directory)
        _ = try Self.secretFile("database-url", url, in: directory)
        var environment: [String: String] = [:]
        let urlLine: String
        switch way {
        case .yaml: urlLine = "  postgresURL: \(url)"
        case .environment:
            urlLine = ""
            environment["HAAPI_GATEWAY_SESSIONS_POSTGRES_URL"] = url
        case .file, .flag: urlLine = "  postgresURLFile: database-url"
        }
        let configuration = try Self.secretFile(
            "gateway.yaml",
            """
            server:
              port: 0
              drainSeconds: 0
            sessions:
              store: postgres
              encryptionKeysFile: session-keys
            \(urlLine)
            """,
            in: directory
        )
        var printed: [Printed] = []
        for format in ["text", "json"] {
            environment["HAAPI_GATEWAY_LOGGING_FORMAT"] = format
            let serve = try RunningGateway(["serve", "--config", configuration, "--log-level", "trace"], environment: environment)
            _ = try await serve.waitForOutput("(database unreachable)", inStandardError: true)
            _ = try await serve.stopped(killingAfter: .seconds(30))
            printed.append(Printed(command: "serve (\(format))", standardOutput: serve.standardOutput, standardError: serve.standardError))
        }
        let check = try await runGateway(["check-config", configuration], environment: environment, directory: directory)
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("PostgreSQL at postgres://gateway:<redacted>@127.0.0.1:1/haapi"), "\(check.standardOutput)")
        printed.append(Printed(command: "check-config", standardOutput: check.standardOutput, standardError: check.standardError))
        Self.expectNoSecret(printed, secrets, "\(way)")
    }

    @Test("demo-server at trace, with the gateway's secrets in its environment, prints none of them")
    func demoServerPrintsNoSecret() async throws {
        let secrets = Secrets()
        let demo = try RunningGateway(
            ["demo-server", "--port", "0", "--log-level", "trace"],
            environment: [
                "HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET": secrets.client, "HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET": secrets.webhook,
            ]
        )
        let base = try await demo.waitForOutput(#"issuer (http://127\.0\.0\.1:\d+)/oauth/v2/oauth-anonymous"#)
        try await TestBrowser.using(base) { browser in _ = try await browser.get("/oauth/v2/oauth-anonymous/.well-known/openid-configuration") }
        _ = try await demo.stopped(killingAfter: .seconds(30))
        Self.expectNoSecret(
            [Printed(command: "demo-server", standardOutput: demo.standardOutput, standardError: demo.standardError)],
            secrets,
            "demo-server"
        )
    }
}
