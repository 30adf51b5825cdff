import Foundation
import Testing

@testable import GatewayTestSupport

/// One sign-in, one trace (issue #57), with real processes: two `serve` replicas on one PostgreSQL database behind a
/// balancer (the browser's requests go to them in turn), a `demo-server` process as their upstream, every one exporting
/// its spans over OTLP/HTTP to a collector this project did not write the decoding of (`Tests/Interop/otlp_collector.py`,
/// the OpenTelemetry project's protobuf classes).
@Suite(
    "One sign-in, one trace, across replicas and the upstream",
    .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)"),
    .enabled(if: TestTools.otlpCollectorAvailable, "needs Python's opentelemetry-proto (.ci/run installs it)"),
    .startsPrograms()
)
struct TracingAcrossProcessesTests {
    /// A span as the collector wrote it.
    struct ReceivedSpan {
        let service: String
        let instance: String?
        let traceID: String
        let spanID: String
        let parentSpanID: String
        let name: String
        /// OTLP's span kind: 2 server, 3 client.
        let kind: Int
        let attributes: [String: Any]

        init?(line: Substring) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            service = object["service"] as? String ?? ""
            instance = (object["resource"] as? [String: Any])?["service.instance.id"] as? String
            traceID = object["trace_id"] as? String ?? ""
            spanID = object["span_id"] as? String ?? ""
            parentSpanID = object["parent_span_id"] as? String ?? ""
            name = object["name"] as? String ?? ""
            kind = object["kind"] as? Int ?? 0
            attributes = object["attributes"] as? [String: Any] ?? [:]
        }
    }

    @Test(
        "a browser sign-in through two PostgreSQL replicas behind a balancer is one trace: spans of both replicas, of their PostgreSQL operations, of the demo upstream and of the webhook delivery, each under its parent, traceparent sent to the webhook, no secret in any attribute, and the JSON log lines name the trace"
    )
    func oneSignInOneTrace() async throws {
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = directory.appendingPathComponent("spans.jsonl")
        let collector = try RunningGateway(
            program: URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Repository.root.appendingPathComponent("Tests/Interop/otlp_collector.py").path, received.path],
            environment: ProcessInfo.processInfo.environment
        )
        defer { collector.signal(SIGTERM) }
        let port = try await collector.waitForOutput(#"listening (\d+)"#)
        let export = ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:\(port)/v1/traces", "OTEL_BSP_SCHEDULE_DELAY": "200"]
        let receiver = WebhookReceiver()
        try await receiver.serving { hook in
            try await signInThroughReplicas(export: export, hook: hook, receiver: receiver, received: received)
        }
    }

    /// The sign-in of ``oneSignInOneTrace()`` and what the collector and the webhook received of it.
    private func signInThroughReplicas(export: [String: String], hook: URL, receiver: WebhookReceiver, received: URL) async throws {
        try await SharedStoreGateways.run(demoEnvironment: export) { shared in
            let replica = { (name: String) in
                export.merging(["HAAPI_GATEWAY_LOGGING_FORMAT": "json", "OTEL_RESOURCE_ATTRIBUTES": "service.instance.id=\(name)"]) { $1 }
            }
            let (replicaA, first) = try await shared.start(callback: hook.absoluteString, extraEnvironment: replica("a"))
            let (replicaB, second) = try await shared.start(callback: hook.absoluteString, extraEnvironment: replica("b"))
            var cookies: [String] = []
            var requests = 0
            try await TestBrowser(roundRobin: [first, second]).closing { browser in
                let page = try await browser.signInAsDemo()
                #expect(page.html.contains("You are signed in"), "\(page.html)")
                #expect(Set(browser.served) == [first, second], "the balancer sent the person to both replicas")
                cookies = Array(browser.cookies.values)
                requests = browser.served.count
            }
            // The sign-in's trace: the one whose root is a replica's server span for the first page.
            var spans: [ReceivedSpan] = []
            var trace: [ReceivedSpan] = []
            for _ in 0..<100 {
                spans = (try? String(contentsOf: received, encoding: .utf8))?.split(separator: "\n").compactMap(ReceivedSpan.init) ?? []
                let root = spans.first { $0.service == "haapi-gateway" && $0.kind == 2 && $0.parentSpanID.isEmpty && $0.name == "GET /" }
                trace = spans.filter { $0.traceID == root?.traceID }
                if trace.filter({ $0.service == "haapi-gateway" && $0.kind == 2 }).count >= requests,
                    trace.contains(where: { $0.service == "haapi-demo-server" && $0.attributes["url.path"] as? String == "/oauth/v2/oauth-token" }),
                    trace.contains(where: { $0.name == "callback delivery webhook" })
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            let servers = trace.filter { $0.service == "haapi-gateway" && $0.kind == 2 }
            #expect(servers.count == requests, "every request of the sign-in is a server span of its trace: \(servers.map(\.name))")
            #expect(Set(servers.compactMap(\.instance)) == ["a", "b"], "from both replicas")
            let demo = trace.filter { $0.service == "haapi-demo-server" }
            #expect(demo.contains { $0.attributes["url.path"] as? String == "/oauth/v2/oauth-authorize" }, "\(demo.map(\.name))")
            #expect(demo.contains { $0.attributes["url.path"] as? String == "/oauth/v2/oauth-token" }, "the code exchange too")

            // Parents: one root; every other span's parent is a span of the trace; a replica's request is a child of a
            // replica's request; the demo's spans are children of the gateway's client spans, which are children of
            // the replicas' server spans.
            let byID = Dictionary(trace.map { ($0.spanID, $0) }) { first, _ in first }
            #expect(trace.filter { $0.parentSpanID.isEmpty }.count == 1)
            for span in trace where !span.parentSpanID.isEmpty {
                let parent = byID[span.parentSpanID]
                #expect(parent != nil, "\(span.service) \(span.name) has its parent in the trace")
                let under = "\(span.name) under \(parent?.name ?? "-")"
                switch (span.service, span.kind) {
                case ("haapi-gateway", 2), ("haapi-gateway", 3): #expect(parent?.service == "haapi-gateway" && parent?.kind == 2, "\(under)")
                case ("haapi-demo-server", 2): #expect(parent?.service == "haapi-gateway" && parent?.kind == 3, "\(under)")
                default: break
                }
            }
            #expect(trace.contains { $0.service == "haapi-gateway" && $0.kind == 3 && $0.name == "HAAPI token" }, "\(trace.map(\.name))")
            #expect(trace.contains { $0.kind == 3 && $0.name == "PostgreSQL load a sign-in" }, "\(trace.map(\.name))")
            #expect(
                trace.contains {
                    $0.kind == 3 && $0.name == "PostgreSQL save a sign-in" && $0.attributes["db.system.name"] as? String == "postgresql"
                }
            )
            // The webhook delivery: a client span of the trace, whose context the webhook got as traceparent.
            let delivery = try #require(trace.first { $0.name == "callback delivery webhook" }, "\(trace.map(\.name))")
            #expect(delivery.kind == 3 && delivery.attributes["haapi_gateway.callback.attempt"] as? Int == 1)
            #expect(receiver.traceparents.contains("00-\(delivery.traceID)-\(delivery.spanID)-01"), "\(receiver.traceparents)")

            // No secret in any attribute of any span received: no query string, no cookie, no client secret, token or code.
            let secrets = cookies + cookies.flatMap { $0.split(separator: ".").map(String.init) } + ["demo-secret"]
            for span in spans {
                for (key, value) in span.attributes {
                    let text = "\(value)"
                    #expect(!key.contains("query") && !key.contains("header") && !key.contains("cookie"), "\(span.service) \(span.name): \(key)")
                    #expect(!text.contains("?") && !text.contains("eyJ") && !text.contains("code="), "\(span.service) \(span.name): \(key)=\(text)")
                    for secret in secrets where secret.count >= 8 {
                        #expect(!text.contains(secret), "\(span.name): \(key) holds a secret")
                    }
                }
            }

            // The request log lines of the sign-in carry its trace id.
            let traceID = try #require(servers.first?.traceID)
            let logged = replicaA.standardError + replicaB.standardError
            let lines = logged.split(separator: "\n").filter { $0.contains(#""message":"request""#) && $0.contains(traceID) }
            #expect(lines.count == requests, "\(lines.count) of \(requests) request lines name trace \(traceID)")
            #expect(lines.allSatisfy { $0.contains(#""span_id":""#) })
        }
    }

    @Test("with the collector down, sign-ins go on, and the spans that could not be sent are counted in /metrics")
    func collectorDown() async throws {
        let closed = try ReservedPort()
        let gateway = try RunningGateway(
            ["serve", "--port", "0"],
            environment: [
                // As docs/operations.md § Tracing starts it: the collector's base URL, /v1/traces added.
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(closed.port)", "OTEL_BSP_SCHEDULE_DELAY": "100",
                "OTEL_BSP_EXPORT_TIMEOUT": "2000", "HAAPI_GATEWAY_METRICS_ENABLED": "true", "HAAPI_GATEWAY_METRICS_PORT": "0",
                "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0",
            ]
        )
        defer { gateway.signal(SIGTERM) }
        let url = try await gateway.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        let metricsPort = try await gateway.waitForOutput(#"url=http://127\.0\.0\.1:(\d+)/metrics"#, inStandardError: true)
        for _ in 0..<2 {
            let page = try await TestBrowser.using(url) { try await $0.signInAsDemo() }
            #expect(page.html.contains("You are signed in"), "\(page.html)")
        }
        var dropped = 0.0
        for _ in 0..<100 {
            let metrics = try await TestBrowser.using("http://127.0.0.1:\(metricsPort)") { try await $0.get("/metrics") }.html
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("haapi_gateway_trace_spans_dropped_total ") }
            dropped = line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            if dropped > 0 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(dropped > 0, "spans that could not be sent are counted")
    }
}
