import Foundation

@testable import GatewayTestSupport

/// Gateway processes sharing one PostgreSQL session store, as replicas: a `demo-server` process (strict) as their common
/// upstream, a PostgreSQL server of the test's own, one key file, and an exec sink that keeps every delivery it gets
/// as `delivered-<delivery id>` in ``directory``.
final class SharedStoreGateways: @unchecked Sendable {
    let directory: URL
    let postgres: PostgresTestServer
    let database: String
    let demo: RunningGateway
    let demoURL: String
    private(set) var gateways: [RunningGateway] = []

    private init(directory: URL, postgres: PostgresTestServer, database: String, demo: RunningGateway, demoURL: String) {
        self.directory = directory
        self.postgres = postgres
        self.database = database
        self.demo = demo
        self.demoURL = demoURL
    }

    /// Runs `body` with the database, the demo upstream (strict unless `strict` is false, with `demoEnvironment`) and the
    /// key file ready; stops every process and deletes everything afterwards.
    static func run(
        strict: Bool = true,
        demoEnvironment: [String: String] = [:],
        _ body: (SharedStoreGateways) async throws -> Void
    ) async throws {
        let directory = try Repository.temporaryDirectory()
        let postgres = try await PostgresTestServer.start()
        var demo: RunningGateway?
        do {
            let database = try await postgres.createDatabase()
            try (Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "\n")
                .write(to: directory.appendingPathComponent("session-keys"), atomically: true, encoding: .utf8)
            try "demo-secret\n".write(to: directory.appendingPathComponent("client-secret"), atomically: true, encoding: .utf8)
            try "webhook-secret-of-the-replicas\n".write(to: directory.appendingPathComponent("webhook-secret"), atomically: true, encoding: .utf8)
            try postgres.url(database: database).write(to: directory.appendingPathComponent("postgres-url"), atomically: true, encoding: .utf8)
            let sink = directory.appendingPathComponent("sink.sh")
            try """
            #!/bin/sh
            cat > '\(directory.path)/delivered-'"$HAAPI_GATEWAY_DELIVERY"
            """.write(to: sink, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: sink.path)
            let started = try RunningGateway(["demo-server", "--port", "0"] + (strict ? ["--strict"] : []), environment: demoEnvironment)
            demo = started
            let demoURL = try await started.waitForOutput(#"Demo HAAPI server: issuer (http://127\.0\.0\.1:\d+)/oauth/v2/oauth-anonymous"#)
            let shared = SharedStoreGateways(directory: directory, postgres: postgres, database: database, demo: started, demoURL: demoURL)
            do {
                try await body(shared)
            } catch {
                await shared.stopAll()
                throw error
            }
            await shared.stopAll()
        } catch {
            demo?.signal(SIGTERM)
            _ = try? await demo?.waitForExit(timeout: .seconds(10))
            await postgres.stop()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        await postgres.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts a gateway process on `port` (0: a free one) with the shared store, waits until it is ready (its tables
    /// prepared), and returns it with its base URL.
    /// - Parameters:
    ///   - callback: Its sink (by default the exec sink that keeps every delivery in ``directory``); a webhook gets the
    ///     replicas' shared secret.
    ///   - extraEnvironment: More settings, as environment variables.
    ///   - extraArguments: More command-line options (such as `--config` with a file of settings the options do not reach).
    func start(
        port: Int = 0,
        callback: String? = nil,
        extraEnvironment: [String: String] = [:],
        extraArguments: [String] = []
    ) async throws -> (RunningGateway, String) {
        var environment = [
            "HAAPI_GATEWAY_SESSIONS_STORE": "postgres",
            "HAAPI_GATEWAY_SESSIONS_POSTGRES_URL_FILE": directory.appendingPathComponent("postgres-url").path,
            "HAAPI_GATEWAY_SESSIONS_ENCRYPTION_KEYS_FILE": directory.appendingPathComponent("session-keys").path,
            "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0",
        ]
        if callback?.hasPrefix("http") == true {
            environment["HAAPI_GATEWAY_CALLBACKS_WEBHOOK_SECRET_FILE"] = directory.appendingPathComponent("webhook-secret").path
        }
        environment.merge(extraEnvironment) { _, given in given }
        let gateway = try RunningGateway(
            [
                "serve", "--port", "\(port)", "--upstream", demoURL + "/oauth/v2/oauth-anonymous", "--client-id", "demo-gateway",
                "--client-secret-file",
                directory.appendingPathComponent("client-secret").path, "--redirect-uri", "haapi:start", "--callback",
                callback ?? "exec:\(directory.appendingPathComponent("sink.sh").path)",
            ] + extraArguments,
            environment: environment
        )
        gateways.append(gateway)
        // In JSON the line is a log line, on standard error.
        let json = environment["HAAPI_GATEWAY_LOGGING_FORMAT"] == "json"
        let url = try await gateway.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#, inStandardError: json)
        try await TestBrowser.using(url) { browser in
            for _ in 0..<120 {
                if try await browser.get("/readyz").status == 200 { return }
                try await Task.sleep(for: .milliseconds(250))
            }
            throw TestBrowser.BrowserError("\(url) never became ready:\n\(gateway.standardError)")
        }
        return (gateway, url)
    }

    /// The delivery ids the sink got, one file each.
    func deliveries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("delivered-") }.sorted()
    }

    /// The demo's outbox (codes and approval links, newest first).
    func outbox() async throws -> [[String: Any]] {
        let page = try await TestBrowser.using(demoURL) { try await $0.get("/demo/outbox") }
        let object = try JSONSerialization.jsonObject(with: Data(page.html.utf8)) as? [String: Any]
        return object?["messages"] as? [[String: Any]] ?? []
    }

    /// Approves the newest approval request in the demo's outbox, as the person's other device would.
    func approve() async throws {
        guard let link = try await outbox().first(where: { $0["link"] is String })?["link"] as? String, let url = URL(string: link) else {
            throw TestBrowser.BrowserError("no approval link in the demo's outbox")
        }
        _ = try await TestBrowser.using(demoURL) { try await $0.post(url.path, body: "decision=approve") }
    }

    private func stopAll() async {
        for gateway in gateways + [demo] {
            gateway.signal(SIGTERM)
            _ = try? await gateway.waitForExit(timeout: .seconds(15))
        }
    }
}
