import Foundation
import HAAPIDemoServer
import HAAPIGateway
import NIOCore
import NIOPosix
import Testing

@testable import GatewayTestSupport

/// The gateway starts without its upstream and becomes ready when the upstream comes, without a restart; an upstream
/// that answers but is wrong for the client stops startup at once (whole processes, as a supervisor runs them).
@Suite("Upstream at start", .startsPrograms())
struct UpstreamAtStartTests {
    static func upstreamArguments(port: Int, secret: String = DemoServer.clientSecret) -> [String] {
        ["--upstream", "http://127.0.0.1:\(port)/oauth/v2/oauth-anonymous", "--client-id", DemoServer.clientID, "--client-secret", secret]
    }

    @Test("upstream down at start: 503 pages with Retry-After and /readyz naming the upstream; ready once it comes, and a sign-in works")
    func upstreamDownAtStart() async throws {
        // Held until the upstream is to come: until then a connection to it is refused, and no other test gets it.
        let reservation = try ReservedPort()
        let upstreamPort = reservation.port
        let serve = try RunningGateway(
            ["serve", "--port", "0"] + Self.upstreamArguments(port: upstreamPort),
            environment: ["HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0", "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "2"]
        )
        let gateway = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        try await TestBrowser.using(gateway) { browser in
            let notReady = try await browser.get("/readyz")
            #expect(notReady.status == 503)
            #expect(notReady.html.contains(#""upstreamURL":"http://127.0.0.1:\#(upstreamPort)/oauth/v2/oauth-anonymous""#))
            #expect(notReady.html.contains("connectionRefused"), "\(notReady.html)")
            let page = try await browser.get("/")
            #expect(page.status == 503)
            #expect(page.header("Retry-After") == "5")
            #expect(page.html.contains("Sign-in is unavailable at the moment"))
            #expect(browser.cookies.isEmpty, "no session is held for a sign-in that cannot start")

            // The upstream comes: the gateway becomes ready by itself. Between the reservation's release and the demo's
            // bind the port is free for a moment: a connection the gateway's retry opens to it then may take the same
            // port as its own (a TCP self-connect), and another process may take it for as long. The demo tries again
            // while its address is in use, as a supervisor would restart it.
            reservation.release()
            var started: RunningGateway?
            for _ in 0..<20 where started == nil {
                let attempt = try RunningGateway(["demo-server", "--port", "\(upstreamPort)", "--log-level", "error"])
                if (try? await attempt.waitForOutput(#"(Demo HAAPI server)"#)) != nil {
                    started = attempt
                } else {
                    #expect(attempt.standardError.contains("already in use"), "\(attempt.standardError)")
                    try await Task.sleep(for: .milliseconds(250))
                }
            }
            let demo = try #require(started, "the demo upstream could not listen on \(upstreamPort)")
            let deadline = ContinuousClock.now + .seconds(60)
            var ready = false
            while !ready, ContinuousClock.now < deadline {
                ready = try await browser.get("/readyz").status == 200
                if !ready { try await Task.sleep(for: .milliseconds(250)) }
            }
            #expect(ready, "the gateway became ready without a restart")
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            demo.signal(SIGTERM)
            _ = try await demo.waitForExit(timeout: .seconds(30))
        }
        serve.signal(SIGTERM)
        _ = try await serve.waitForExit(timeout: .seconds(30))
        #expect(serve.standardError.contains("upstream not reachable; retrying"))
        #expect(serve.standardError.contains("connectionRefused"))
        #expect(serve.standardError.contains("upstream connected"))
    }

    @Test("an upstream that answers but refuses the client secret stops startup at once: one line, exit 78")
    func wrongClientSecret() async throws {
        let demo = try RunningGateway(["demo-server", "--port", "0", "--log-level", "error"])
        let discovery = try await demo.waitForOutput(#"Demo HAAPI server: issuer (http://127\.0\.0\.1:\d+)/oauth/v2/oauth-anonymous"#)
        let port = try #require(URL(string: discovery)?.port)
        let result = try await runGateway(
            ["serve", "--port", "0"] + Self.upstreamArguments(port: port, secret: "not-the-secret"),
            directory: Repository.root
        )
        #expect(result.status == StartupFailure.configurationStatus)
        #expect(
            result.standardError.split(separator: "\n").last
                == "haapi-gateway: invalid configuration: upstream: the upstream http://127.0.0.1:\(port)/oauth/v2/oauth-anonymous answered, but not as a HAAPI server for this client: the token endpoint refused the HAAPI token request (invalid_client) (haapi-gateway doctor checks the upstream step by step and names what to change)"
        )
        demo.signal(SIGTERM)
        _ = try await demo.waitForExit(timeout: .seconds(30))
    }

    @Test("the host's root as --upstream stops startup with one line saying where the metadata is and which issuer to set, exit 78")
    func hostRootIsNotTheIssuer() async throws {
        let demo = try RunningGateway(["demo-server", "--port", "0", "--log-level", "error"])
        let origin = try await demo.waitForOutput(#"Demo HAAPI server: issuer (http://127\.0\.0\.1:\d+)/oauth/v2/oauth-anonymous"#)
        let result = try await runGateway(
            ["serve", "--port", "0", "--upstream", origin, "--client-id", DemoServer.clientID, "--client-secret", DemoServer.clientSecret],
            directory: Repository.root
        )
        #expect(result.status == StartupFailure.configurationStatus)
        #expect(
            result.standardError.split(separator: "\n").last
                == "haapi-gateway: invalid configuration: upstream: upstream.baseURL must be the issuer, under which the server publishes its metadata (OpenID Connect Discovery 1.0 §4): no discovery document at \(origin)/.well-known/openid-configuration (HTTP 404), nor RFC 8414 metadata at \(origin)/.well-known/oauth-authorization-server (HTTP 404); there is one at \(origin)/oauth/v2/oauth-anonymous/.well-known/openid-configuration, naming the issuer \(origin)/oauth/v2/oauth-anonymous (haapi-gateway doctor checks the upstream step by step and names what to change)"
        )
        demo.signal(SIGTERM)
        _ = try await demo.waitForExit(timeout: .seconds(30))
    }
}
