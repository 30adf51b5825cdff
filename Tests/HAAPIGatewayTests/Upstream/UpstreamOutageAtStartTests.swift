import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport
@testable import HAAPI
@testable import HAAPIGateway

/// At startup, an upstream that is down, overloaded or behind a proxy that is not routing yet is an outage: the gateway
/// starts, `/readyz` says what it found, and it becomes ready by itself. Only the server's own refusal stops startup.
@Suite("The upstream at start: outages and refusals")
struct UpstreamOutageAtStartTests {
    @Test(
        "a proxy's 404 or 403 page, a 429 and a 503 for discovery at start: the gateway starts unready, /readyz names it, and it is ready once the route answers",
        arguments: [
            (404, "text/html", "noDiscoveryDocument"), (403, "text/html", "upstreamStatus"), (429, "application/json", "upstreamStatus"),
            (503, "text/html", "upstreamStatus"),
        ]
    )
    func outageAtStart(status: Int, contentType: String, code: String) async throws {
        try await GatewayHarness.withProxiedGateway(
            discoveryFaultAtStart: .answer(
                status: status,
                contentType: contentType,
                body: contentType == "text/html" ? "<html>not here</html>" : "{}"
            )
        ) { browser, _, _, proxy in
            let notReady = try await browser.get("/readyz")
            #expect(notReady.status == 503)
            #expect(notReady.html.contains(code), "\(notReady.html)")
            proxy.discoveryFault = nil
            let deadline = ContinuousClock.now + .seconds(30)
            var ready = false
            while !ready, ContinuousClock.now < deadline {
                ready = try await browser.get("/readyz").status == 200
                if !ready { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(ready, "the gateway became ready without a restart; \(MachineLoad.waited(.seconds(30), for: "/readyz 200"))")
            #expect(try await browser.signInAsDemo().html.contains("You are signed in"))
        }
    }

    @Test("the background connector never gives up: a wrong answer after startup leaves it unready, and it is ready once the answer is right")
    func connectorNeverGivesUp() async throws {
        try await GatewayHarness.withProxiedGateway(
            discoveryFaultAtStart: .answer(status: 503, contentType: "text/html", body: "<html>starting</html>")
        ) { browser, _, _, proxy in
            // After startup the discovery names another issuer: the server's own answer that the configuration is wrong.
            proxy.discoveryFault = .answer(
                status: 200,
                contentType: "application/json",
                body:
                    #"{"issuer":"https://other.example/oauth/v2/oauth-anonymous","authorization_endpoint":"https://other.example/a","token_endpoint":"https://other.example/t"}"#
            )
            var misconfigured = false
            let deadline = ContinuousClock.now + .seconds(20)
            while !misconfigured, ContinuousClock.now < deadline {
                misconfigured = try await browser.get("/readyz").html.contains("misconfigured")
                if !misconfigured { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(misconfigured, "the wrong answer is said in /readyz")
            proxy.discoveryFault = nil
            var ready = false
            let again = ContinuousClock.now + .seconds(40)
            while !ready, ContinuousClock.now < again {
                ready = try await browser.get("/readyz").status == 200
                if !ready { try await Task.sleep(for: .milliseconds(250)) }
            }
            #expect(ready, "the connector kept trying after the wrong answer")
        }
    }

    @Test("what is an outage and what is the configuration")
    func classification() {
        func error(_ code: HAAPIError.Code, status: Int? = nil, contentType: String? = nil) -> HAAPIError {
            HAAPIError(code, "x", status: status, contentType: contentType)
        }
        #expect(UpstreamConnection.isTemporary(error(.connectionRefused)))
        #expect(UpstreamConnection.isTemporary(error(.upstreamStatus, status: 502, contentType: "application/json")))
        #expect(UpstreamConnection.isTemporary(error(.upstreamStatus, status: 429, contentType: "application/json")))
        #expect(UpstreamConnection.isTemporary(error(.upstreamStatus, status: 404, contentType: "text/html; charset=utf-8")))
        #expect(!UpstreamConnection.isTemporary(error(.upstreamStatus, status: 400, contentType: "application/json")))
        #expect(UpstreamConnection.isTemporary(error(.malformedResponse, status: 200, contentType: "text/html")))
        #expect(!UpstreamConnection.isTemporary(error(.malformedResponse, status: 200, contentType: "application/json")))
        #expect(UpstreamConnection.isTemporary(error(.noDiscoveryDocument, status: 404, contentType: "text/html")))
        var found = error(.noDiscoveryDocument, status: 404)
        found.foundIssuer = "https://idsvr.example/oauth/v2/oauth-anonymous"
        #expect(!UpstreamConnection.isTemporary(found), "a document at Curity's place: upstream.baseURL is wrong")
        #expect(!UpstreamConnection.isTemporary(error(.issuerMismatch)))
        #expect(!UpstreamConnection.isTemporary(error(.dpopRejected)))
        #expect(MediaType.isJSON("application/problem+json"))
        #expect(!MediaType.isJSON(nil))
    }
}
