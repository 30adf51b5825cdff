import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// B21: a script sending cookieless `GET /` can start only so many flows upstream per client address; the client
    /// address is the peer's, or what a trusted proxy forwarded.
    @Suite("New sign-ins per client address")
    struct NewSignInBudgetTests {
        /// Opens `/` as a new browser (no cookie), optionally with an `X-Forwarded-For` header.
        static func newBrowserOpens(_ baseURL: String, forwardedFor: String? = nil) async throws -> TestBrowser.Page {
            try await TestBrowser.using(baseURL) { browser in
                try await browser.get("/", headers: forwardedFor.map { [("X-Forwarded-For", $0)] } ?? [])
            }
        }

        static func flowsStarted(_ metrics: GatewayMetrics) -> String? {
            metrics.exposition().split(separator: "\n").first { $0.hasPrefix("haapi_gateway_flows_started_total ") }.map(String.init)
        }

        @Test(
            "past sessions.maximumNewSessionsPerAddress a new browser gets 429 with Retry-After and no flow is started upstream; after the window it starts"
        )
        func newSignInsPerAddressAreBounded() async throws {
            let clock = TestClock()
            let metrics = GatewayMetrics()
            try await GatewayHarness.withGateway(
                now: { clock.instant },
                metrics: metrics,
                configure: {
                    $0.sessions.maximumNewSessionsPerAddress = 3
                    $0.sessions.newSessionWindowSeconds = 60
                }
            ) { browser, _, _ in
                for _ in 1...3 {
                    let status = try await Self.newBrowserOpens(browser.baseURL).status
                    #expect(status == 200)
                }
                clock.advance(.seconds(20))
                let refused = try await Self.newBrowserOpens(browser.baseURL)
                #expect(refused.status == 429)
                #expect(refused.header("Retry-After") == "40", "the oldest start leaves the window in 40 s")
                #expect(refused.html.contains("Too many sign-ins were started from your network"))
                #expect(Self.flowsStarted(metrics) == "haapi_gateway_flows_started_total 3", "the refused one asked nothing upstream")
                #expect(metrics.exposition().contains(#"haapi_gateway_sign_ins_refused_total{reason="address_budget"} 1"#))
                clock.advance(.seconds(41))
                let done = try await browser.signInAsDemo()
                #expect(done.html.contains("You are signed in"), "a person from the address signs in once the window moved on")
            }
        }

        @Test(
            "behind a trusted proxy each forwarded client has its own budget; the right-most untrusted hop counts, and X-Forwarded-For from anyone else is ignored"
        )
        func trustedProxiesForwardTheClientAddress() async throws {
            try await GatewayHarness.withGateway(configure: {
                $0.sessions.maximumNewSessionsPerAddress = 1
                $0.server.trustedProxies = [IPAddressRange("127.0.0.0/8")!]
            }) { browser, _, _ in
                var statuses: [Int] = []
                for forwarded in [
                    "198.51.100.1", "198.51.100.1", "198.51.100.2",
                    // A client cannot choose its address by writing one further left: the proxy appended the real one.
                    "203.0.113.50, 198.51.100.1",
                    // Hops that are trusted proxies themselves are skipped.
                    "198.51.100.2, 127.0.0.9",
                ] {
                    statuses.append(try await Self.newBrowserOpens(browser.baseURL, forwardedFor: forwarded).status)
                }
                #expect(statuses == [200, 429, 200, 429, 429])
            }
            try await GatewayHarness.withGateway(configure: { $0.sessions.maximumNewSessionsPerAddress = 1 }) { browser, _, _ in
                let first = try await Self.newBrowserOpens(browser.baseURL, forwardedFor: "198.51.100.1").status
                let second = try await Self.newBrowserOpens(browser.baseURL, forwardedFor: "198.51.100.2").status
                #expect(first == 200 && second == 429, "without trusted proxies the peer (127.0.0.1) is the client, whatever the header says")
            }
        }

        @Test(
            "IP ranges: addresses and CIDR blocks of IPv4 and IPv6, IPv4-mapped addresses; anything else is no range",
            arguments: [
                ("127.0.0.1", "127.0.0.1", true), ("127.0.0.1", "127.0.0.2", false), ("10.0.0.0/8", "10.200.3.4", true),
                ("10.0.0.0/8", "11.0.0.1", false), ("192.168.4.0/22", "192.168.7.255", true), ("192.168.4.0/22", "192.168.8.0", false),
                ("0.0.0.0/0", "203.0.113.1", true), ("::1", "::1", true), ("fd00::/8", "fd12:3456::1", true), ("fd00::/8", "fe80::1", false),
                ("127.0.0.0/8", "::ffff:127.0.0.5", true), ("127.0.0.0/8", "::1", false), ("10.0.0.0/8", "not-an-address", false),
            ]
        )
        func ranges(range: String, address: String, contained: Bool) throws {
            #expect(try #require(IPAddressRange(range)).contains(address) == contained)
        }

        @Test(
            "a bad server.trustedProxies entry stops startup naming it",
            arguments: ["10.0.0.0/33", "::1/129", "proxy.example", "10.0.0/8", "1.2.3.4/x"]
        )
        func badTrustedProxy(_ entry: String) {
            #expect(IPAddressRange(entry) == nil)
            do {
                _ = try GatewayConfiguration.load(file: nil, environment: ["HAAPI_GATEWAY_SERVER_TRUSTED_PROXIES": "127.0.0.1, \(entry)"])
                Issue.record("\(entry) was accepted")
            } catch {
                #expect(error.problems.contains { $0.contains("server.trustedProxies") && $0.contains("'\(entry)'") }, "\(error.problems)")
            }
        }
    }
}
