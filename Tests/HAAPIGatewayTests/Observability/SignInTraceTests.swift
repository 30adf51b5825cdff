import Foundation
import InMemoryTracing
import Testing
import Tracing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// One sign-in, one trace, in one process: a gateway and the demo upstream whose spans an in-memory tracer records (bound
/// to the test's task with `withTracer`, so that tests running at once keep their spans apart). The tracer propagates
/// under its own header names (`in-memory-trace-id`, `in-memory-span-id`): the gateway's cookie marks and its
/// propagation work with whatever the tracer's propagator writes, not only W3C's.
@Suite("A sign-in's trace")
struct SignInTraceTests {
    /// The gateway's own server spans (the demo's carry no client address).
    private static func gatewayRequests(_ tracer: InMemoryTracer) -> [FinishedInMemorySpan] {
        tracer.finishedSpans.filter { $0.kind == .server && $0.attributes["client.address"] != nil }
    }

    private static func tracing(_ configuration: inout GatewayConfiguration) {
        configuration.tracing.endpoint = URL(string: "http://127.0.0.1:9/v1/traces")
    }

    @Test(
        "every request of a browser's sign-in is a span of the trace its first page started, the upstream's spans under the gateway's calls; a browser's own trace headers are ignored"
    )
    func oneTrace() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            try await GatewayHarness.withGateway(configure: Self.tracing) { browser, _, _ in
                let forged = [(InMemoryTracer.traceIDKey, "forged-trace"), (InMemoryTracer.spanIDKey, "forged-span")]
                _ = try await browser.get("/", headers: forged)
                let form = try await browser.openPasswordForm()
                let notice = try await browser.submit(form, ["userName": "demo", "password": "demo"], headers: forged)
                let done = try await browser.submit(try notice.form(button: "Continue"))
                #expect(done.html.contains("You are signed in"))
            }
        }
        let requests = Self.gatewayRequests(tracer)
        #expect(requests.count >= 4, "\(requests.map(\.operationName))")
        #expect(Set(requests.map(\.traceID)).count == 1, "one trace: \(requests.map { "\($0.operationName) \($0.traceID)" })")
        #expect(!tracer.finishedSpans.contains { $0.traceID == "forged-trace" }, "a browser's trace headers are not a parent")
        let trace = try #require(requests.first?.traceID)
        let root = try #require(requests.first { $0.parentSpanID == nil }, "the first page's span is the root")
        #expect(root.operationName == "GET /")
        // The calls of the sign-in's requests (those made at startup, the metadata and a first HAAPI token, are traces of
        // their own), each with the upstream's server span under it.
        let calls = tracer.finishedSpans.filter { $0.kind == .client && $0.operationName.hasPrefix("HAAPI ") && $0.parentSpanID != nil }
        #expect(calls.contains { $0.operationName == "HAAPI authorize" } && calls.contains { $0.operationName == "HAAPI token" })
        #expect(calls.allSatisfy { $0.traceID == trace }, "\(calls.map(\.operationName))")
        let upstream = tracer.finishedSpans.filter { $0.kind == .server && $0.attributes["client.address"] == nil }
        for call in calls {
            #expect(upstream.contains { $0.traceID == trace && $0.parentSpanID == call.spanID }, "\(call.operationName) reached the upstream's span")
        }
        #expect(tracer.finishedSpans.contains { $0.operationName == "HAAPI metadata" && $0.parentSpanID == nil }, "discovery, at startup")
        for span in tracer.finishedSpans where span.kind == .client {
            #expect(span.attributes["url.path"].map { "\($0)".contains("?") } != true, "\(span.operationName): no query")
        }
    }

    @Test("a kiosk's next person, whose browser still carries the last sign-in's cookie, signs in under a trace of their own (injected clock)")
    func nextPersonStartsATrace() async throws {
        let tracer = InMemoryTracer()
        let clock = TestClock()
        try await withTracer(tracer) {
            try await GatewayHarness.withGateway(
                now: { clock.instant },
                configure: {
                    Self.tracing(&$0)
                    $0.kiosk = KioskSettings(enabled: true, resetAfterSeconds: 7, idleResetSeconds: 90)
                }
            ) { browser, _, _ in
                _ = try await browser.openPasswordForm()
                clock.advance(.seconds(91))
                let next = try await browser.get("/")
                #expect(next.html.contains("Username and password"), "the next person's sign-in")
            }
        }
        let authorizations = tracer.finishedSpans.filter { $0.operationName == "HAAPI authorize" }
        #expect(Set(authorizations.map(\.traceID)).count == 2, "two sign-ins, two traces")
        let start = try #require(tracer.finishedSpans.first { $0.operationName == "sign-in" })
        #expect(start.parentSpanID == nil && start.links.count == 1, "a root, linked to the request that began it")
        #expect(authorizations.last?.traceID == start.traceID, "the next person's sign-in is in the new trace")
        #expect(authorizations.first?.traceID != start.traceID)
    }
}
