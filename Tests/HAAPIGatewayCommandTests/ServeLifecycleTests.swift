import Foundation
import Testing

@testable import GatewayTestSupport

/// `serve` as an operator runs it: SIGTERM drains (readiness down) before the listener stops, and the process exits 0.
@Suite(.startsPrograms()) struct ServeLifecycleTests {
    /// While the gateway says it drains (between its "draining" and "drained" lines), readiness is down and it is alive;
    /// then it exits 0. A check that reached it only after its "drained" line (this test process held back that long on a
    /// loaded machine) showed nothing, and is made again with a new gateway, at most three times.
    @Test func sigtermDrainsThenStops() async throws {
        for attempt in 1...3 {
            if try await Self.drainChecked() { return }
            print("sigtermDrainsThenStops: attempt \(attempt)'s checks came after the drain ended; trying again with a new gateway")
        }
        Issue.record("three times the checks came after the drain ended: nothing was shown")
    }

    /// One gateway's drain: true when the checks landed within it, false when they came too late to show anything.
    private static func drainChecked() async throws -> Bool {
        let serve = try RunningGateway(["serve", "--port", "0"], environment: ["HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "20"])
        let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        // Ready once its first check of the upstream has answered (until then /readyz says "being checked", 503); on a
        // loaded machine that can come a while after the listener opens.
        var before = try await status(of: base + "/readyz")
        let readyBy = ContinuousClock.now + .seconds(60)
        while before != 200, ContinuousClock.now < readyBy {
            try await Task.sleep(for: .milliseconds(200))
            before = try await status(of: base + "/readyz")
        }
        #expect(before == 200)
        let signalled = ContinuousClock.now
        serve.signal(SIGTERM)
        _ = try await serve.waitForOutput(#"(draining: readiness is down)"#, inStandardError: true)
        let readiness: Int, health: Int
        do {
            readiness = try await status(of: base + "/readyz")
            health = try await status(of: base + "/healthz")
        } catch {
            let drained = serve.standardError.contains("drained: the listener stops")
            if !drained {
                Issue.record(
                    "\(base): \(error) while the gateway had not said the drain ended; the gateway: \(serve.ending); it said: \(serve.standardError)"
                )
            }
            _ = try await serve.waitForExit(timeout: .seconds(30))
            if drained { return false }
            throw error
        }
        if serve.standardError.contains("drained: the listener stops") {
            _ = try await serve.waitForExit(timeout: .seconds(30))
            return false
        }
        #expect(readiness == 503, "readiness goes down first")
        #expect(health == 200, "still alive while draining")
        #expect(try await serve.waitForExit(timeout: .seconds(40)) == 0, "\(serve.standardError)")
        #expect(serve.standardError.contains("drained: the listener stops"))
        // The drain measured: server.drainSeconds (20 s) from the signal, then the stop (server.stopSeconds, 10 s, bounds
        // it; nothing is under way here), with 10 s of room for a loaded machine to notice the exit.
        let took = ContinuousClock.now - signalled
        #expect(took >= .seconds(20), "the drain is server.drainSeconds: \(took)")
        #expect(took < .seconds(20) + .seconds(10) + .seconds(10), "drain 20 s, then a stop with nothing under way: \(took)")
        return true
    }

    @Test func jsonLogLinesParseCarryRequestAndFlowIdsAndNoSecret() async throws {
        let sink = try Repository.temporaryDirectory().appendingPathComponent("outcome.json")
        let serve = try RunningGateway(
            ["serve", "--port", "0", "--callback", "file:\(sink.path)"],
            environment: [
                "HAAPI_GATEWAY_LOGGING_FORMAT": "json", "HAAPI_GATEWAY_LOGGING_LEVEL": "debug", "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0",
                "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60",
            ]
        )
        // In JSON mode the "open … in a browser" line is a log line too: standard output carries no plain text.
        let base = try await serve.waitForOutput(#""message":"HAAPI gateway: open (http://127\.0\.0\.1:\d+)/ in a browser""#, inStandardError: true)
        let cookies = try await TestBrowser.using(base) { browser in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            return browser.setCookieHeaders
        }
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit(timeout: .seconds(30)) == 0)

        #expect(serve.standardOutput.isEmpty, "\(serve.standardOutput)")
        let log = JSONLogLines(serve.standardError)
        #expect(log.notObjects.isEmpty, "not JSON objects: \(log.notObjects)")
        let objects = log.objects
        let text = { (object: [String: Any], key: String) in object[key] as? String }
        #expect(objects.contains { text($0, "message")?.hasPrefix("HAAPI gateway: open http") == true && text($0, "url") == base + "/" })
        // Numbers are JSON numbers: a collector compares and sums them without parsing text.
        let requests = objects.filter { text($0, "message") == "request" }
        #expect(!requests.isEmpty && requests.allSatisfy { !($0["status"] is String) && JSONLogLines.number($0["milliseconds"]) != nil })
        #expect(requests.contains { text($0, "hb.request.id") != nil && JSONLogLines.number($0["status"]) == 200 && text($0, "method") == "GET" })
        #expect(objects.contains { text($0, "message") == "sign-in completed" && text($0, "flow") != nil })
        // Every request of the sign-in carries its flow id: its lines can be joined with its events.
        let flow = try #require(objects.first { text($0, "message") == "sign-in started" }.flatMap { text($0, "flow") })
        let ofTheSignIn = requests.filter { text($0, "flow") == flow }
        #expect(ofTheSignIn.count >= 6, "GET /, the selector's, the password's and Continue's posts and their pages: \(ofTheSignIn.count)")
        #expect(ofTheSignIn.contains { text($0, "method") == "POST" && JSONLogLines.number($0["status"]) == 303 })
        #expect(
            requests.filter { text($0, "flow") == nil }.allSatisfy { text($0, "path")?.hasPrefix("/step") != true },
            "no step request without its flow"
        )
        #expect(objects.allSatisfy { text($0, "time") != nil && text($0, "level") != nil })
        #expect(objects.contains { text($0, "message") == "step" && JSONLogLines.number($0["version"]) != nil }, "debug: a step's version")

        let document = try JSONSerialization.jsonObject(with: try Data(contentsOf: sink)) as? [String: Any]
        let token = try #require(document?["token"] as? [String: Any])
        var secrets = ["accessToken", "refreshToken", "idToken"].compactMap { token[$0] as? String }
        secrets += cookies.compactMap { $0.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init) }.filter {
            $0.count > 20
        }
        #expect(secrets.count >= 4)
        for secret in secrets { #expect(!serve.standardError.contains(secret), "a secret is in the logs") }
    }

    @Test func metricsHaveAListenerOfTheirOwn() async throws {
        let serve = try RunningGateway(
            ["serve", "--port", "0"],
            environment: [
                "HAAPI_GATEWAY_METRICS_ENABLED": "true", "HAAPI_GATEWAY_METRICS_PORT": "0", "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0",
                "HAAPI_GATEWAY_SERVER_HEALTH_ENDPOINTS": "false",
            ]
        )
        let metricsURL = try #require(URL(string: try await serve.waitForOutput(#"url=(http://127\.0\.0\.1:\d+/metrics)"#, inStandardError: true)))
        let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        _ = try await TestBrowser.using(base) { try await $0.get("/") }
        let (code, body) = try await TestBrowser.using("http://127.0.0.1:\(metricsURL.port!)") { browser in
            let page = try await browser.get("/metrics")
            return (page.status, page.html)
        }
        #expect(code == 200)
        #expect(body.contains("haapi_gateway_flows_started_total 1"))
        #expect(body.contains("haapi_gateway_sessions_open 1"))
        #expect(try await Self.status(of: base + "/metrics") == 404, "not on the sign-in listener")
        #expect(try await Self.status(of: base + "/readyz") == 404, "server.healthEndpoints false: health only on the metrics listener")
        #expect(try await Self.status(of: "http://127.0.0.1:\(metricsURL.port!)/readyz") == 200)
        let heads = try await TestBrowser.using("http://127.0.0.1:\(metricsURL.port!)") { browser in
            [try await browser.head("/metrics").status, try await browser.head("/healthz").status, try await browser.head("/readyz").status]
        }
        #expect(heads == [200, 200, 200], "HEAD is answered as GET on the metrics listener too")
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit(timeout: .seconds(30)) == 0)
    }

    @Test func aFreshGatewayExposesEveryDocumentedSeriesAtZero() async throws {
        let serve = try RunningGateway(
            ["serve", "--port", "0"],
            environment: ["HAAPI_GATEWAY_METRICS_ENABLED": "true", "HAAPI_GATEWAY_METRICS_PORT": "0", "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0"]
        )
        let metricsPort = try await serve.waitForOutput(#"url=http://127\.0\.0\.1:(\d+)/metrics"#, inStandardError: true)
        _ = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        // Scraped before anything happened: a dashboard's first look.
        let (code, body) = try await TestBrowser.using("http://127.0.0.1:\(metricsPort)") { browser in
            let page = try await browser.get("/metrics")
            return (page.status, page.html)
        }
        #expect(code == 200)
        let documented = try DocumentedMetric.all()
        #expect(
            documented.map(\.name) == [
                "haapi_gateway_flows_started_total", "haapi_gateway_flows_completed_total", "haapi_gateway_steps_rendered_total",
                "haapi_gateway_upstream_duration_seconds", "haapi_gateway_upstream_errors_total", "haapi_gateway_sessions_open",
                "haapi_gateway_sessions_evicted_total", "haapi_gateway_sign_ins_refused_total", "haapi_gateway_callback_deliveries_total",
                "haapi_gateway_connections_open", "haapi_gateway_connections_refused_total", "haapi_gateway_connections_timed_out_total",
                "haapi_gateway_device_grant_total", "haapi_gateway_trace_spans_dropped_total",
            ],
            "docs/operations.md § Metrics"
        )
        let problems = DocumentedMetric.problems(in: body, against: documented)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit(timeout: .seconds(30)) == 0)
    }

    @Test func sighupReloadsAndAnInvalidConfigurationKeepsTheRunningOne() async throws {
        let directory = try Repository.temporaryDirectory()
        let overrides = directory.appendingPathComponent("overrides")
        try FileManager.default.createDirectory(at: overrides.appendingPathComponent("messages"), withIntermediateDirectories: true)
        try #"{"cancelSignIn": "Abort the sign-in"}"#.write(
            to: overrides.appendingPathComponent("messages/en.json"),
            atomically: true,
            encoding: .utf8
        )
        let file = directory.appendingPathComponent("gateway.yaml")
        try "server:\n  port: 0\n  drainSeconds: 0\n".write(to: file, atomically: true, encoding: .utf8)
        let serve = try RunningGateway(["serve", "--config", file.path, "--templates", Repository.templates.path])
        let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        try await TestBrowser.using(base) { browser in
            #expect(try await browser.get("/").html.contains("Cancel sign-in"))

            try "server:\n  port: 0\n  drainSeconds: 0\nsesions: {}\n".write(to: file, atomically: true, encoding: .utf8)
            serve.signal(SIGHUP)
            _ = try await serve.waitForOutput(#"(reload refused)"#, inStandardError: true)
            #expect(serve.standardError.contains("unknown section 'sesions'"))
            #expect(try await browser.get("/").html.contains("Cancel sign-in"), "still serving, unchanged")

            try "server:\n  port: 0\n  drainSeconds: 0\ntemplates:\n  overrideDirectory: overrides\n".write(
                to: file,
                atomically: true,
                encoding: .utf8
            )
            serve.signal(SIGHUP)
            _ = try await serve.waitForOutput(#"(reload applied)"#, inStandardError: true)
            #expect(try await browser.get("/").html.contains("Abort the sign-in"), "the same sign-in, new texts")
        }
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit(timeout: .seconds(30)) == 0)
    }

    @Test func aReloadWithTheEmbeddedDemoNamesOnlyTheSettingsThatChanged() async throws {
        let file = try Repository.temporaryDirectory().appendingPathComponent("gateway.yaml")
        try "server:\n  port: 0\n  drainSeconds: 0\n".write(to: file, atomically: true, encoding: .utf8)
        let serve = try RunningGateway(["serve", "--config", file.path])
        _ = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        let needsRestart = "reload: a changed setting takes effect after a restart"

        // Nothing changed: the embedded demo's settings are those it was started from, not the demo server's address.
        serve.signal(SIGHUP)
        try await Self.waitUntil(serve, wrote: "reload applied", times: 1)
        #expect(!serve.standardError.contains(needsRestart), "\(serve.standardError)")

        // A setting that waits for a restart is named, and it alone.
        try "server:\n  port: 65000\n  drainSeconds: 0\n".write(to: file, atomically: true, encoding: .utf8)
        serve.signal(SIGHUP)
        try await Self.waitUntil(serve, wrote: "reload applied", times: 2)
        let named = serve.standardError.split(separator: "\n").filter { $0.contains(needsRestart) }
        #expect(named.count == 1 && named.first?.contains("key=server.port") == true, "\(serve.standardError)")
        serve.signal(SIGTERM)
        #expect(try await serve.waitForExit(timeout: .seconds(30)) == 0)
    }

    /// Waits until the gateway's standard error holds `text` `times` times (at most 60 s).
    private static func waitUntil(_ gateway: RunningGateway, wrote text: String, times: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while gateway.standardError.components(separatedBy: text).count - 1 < times {
            guard ContinuousClock.now < deadline else {
                Issue.record("'\(text)' not written \(times) times: \(gateway.standardError)")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test func aSigtermDuringAFailingHandOverSpoolsTheOutcomeAndTheNextStartDeliversIt() async throws {
        let directory = try Repository.temporaryDirectory()
        let down = directory.appendingPathComponent("receiver-down")
        let received = directory.appendingPathComponent("received.json")
        let script = directory.appendingPathComponent("receive.sh")
        try "#!/bin/sh\n[ -e '\(down.path)' ] && exit 1\ncat > '\(received.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        try Data().write(to: down)
        let spool = directory.appendingPathComponent("callbacks.spool")
        let environment = [
            "HAAPI_GATEWAY_CALLBACKS_SINKS": "exec:\(script.path)", "HAAPI_GATEWAY_CALLBACKS_SPOOL_FILE": spool.path,
            "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0", "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60",
        ]

        let first = try RunningGateway(["serve", "--port", "0"], environment: environment)
        let base = try await first.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        try await TestBrowser.using(base) { browser in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("taking longer than usual"), "the receiver is down; the hand-over is retried")
        }
        first.signal(SIGTERM)
        #expect(try await first.waitForExit(timeout: .seconds(30)) == 0)
        #expect(FileManager.default.fileExists(atPath: spool.path), "\(first.standardError)")
        #expect((try FileManager.default.attributesOfItem(atPath: spool.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(!FileManager.default.fileExists(atPath: received.path))

        try FileManager.default.removeItem(at: down)
        let second = try RunningGateway(["serve", "--port", "0"], environment: environment)
        _ = try await second.waitForOutput(#"(open http)"#)
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: received.path) { try await Task.sleep(for: .milliseconds(50)) }
        second.signal(SIGTERM)
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 0)
        let document = try JSONSerialization.jsonObject(with: try Data(contentsOf: received)) as? [String: Any]
        #expect(document?["outcome"] as? String == "success")
        #expect((document?["token"] as? [String: Any])?["accessToken"] is String)
        #expect(!FileManager.default.fileExists(atPath: spool.path), "taken in and delivered")
    }

    private static func status(of url: String) async throws -> Int {
        let target = try #require(URL(string: url))
        return try await TestBrowser.using("http://127.0.0.1:\(target.port ?? 80)") { try await $0.get(target.path).status }
    }
}
