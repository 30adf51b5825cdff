import Foundation
import Testing

@testable import GatewayTestSupport

/// A flood of cookieless `GET /` neither locks people out nor hammers the upstream (whole gateway processes in front of
/// the embedded strict demo upstream; attackers on other loopback addresses, the person on 127.0.0.1).
@Suite("Sign-in floods", .startsPrograms())
struct FloodTests {
    /// Cookieless `GET /` requests sent `count` times from `source`, `parallel` at a time; the statuses received.
    static func flood(port: Int, from source: String, count: Int, parallel: Int = 4) async -> [Int] {
        await withTaskGroup(of: [Int].self) { group in
            for lane in 0..<parallel {
                group.addTask {
                    var statuses: [Int] = []
                    for _ in stride(from: lane, to: count, by: parallel) {
                        let answer = try? await RawHTTPExchange.send(
                            "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n",
                            port: port,
                            from: source
                        )
                        statuses.append(answer?.status ?? 0)
                    }
                    return statuses
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// The gateway's `haapi_gateway_flows_started_total`, read from its metrics listener.
    static func flowsStarted(metricsPort: Int) async throws -> Int {
        let page = try await TestBrowser.using("http://127.0.0.1:\(metricsPort)") { try await $0.get("/metrics") }
        let line = page.html.split(separator: "\n").first { $0.hasPrefix("haapi_gateway_flows_started_total ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    static func startGateway(maximumSessions: Int, newSessionsPerAddress: Int) async throws -> (RunningGateway, port: Int, metricsPort: Int) {
        let serve = try RunningGateway(
            ["serve", "--port", "0", "--demo-strict"],
            environment: [
                "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0", "HAAPI_GATEWAY_METRICS_ENABLED": "true", "HAAPI_GATEWAY_METRICS_PORT": "0",
                "HAAPI_GATEWAY_SESSIONS_MAXIMUM_SESSIONS": "\(maximumSessions)",
                "HAAPI_GATEWAY_SESSIONS_MAXIMUM_NEW_SESSIONS_PER_ADDRESS": "\(newSessionsPerAddress)",
                "HAAPI_GATEWAY_SESSIONS_NEW_SESSION_WINDOW_SECONDS": "300",
            ]
        )
        let metrics = try await serve.waitForOutput(#"url=http://127\.0\.0\.1:(\d+)/metrics"#, inStandardError: true)
        let base = try await serve.waitForOutput(#"open http://127\.0\.0\.1:(\d+)/ in a browser"#)
        return (serve, Int(base)!, Int(metrics)!)
    }

    /// The person signs in as demo/demo from 127.0.0.1, every response kept; the seconds it took.
    static func personSignsIn(port: Int) async throws -> (seconds: Double, statuses: [Int], signedIn: Bool) {
        let started = ContinuousClock.now
        return try await TestBrowser.using("http://127.0.0.1:\(port)") { browser in
            let done = try await browser.signInAsDemo()
            let elapsed = ContinuousClock.now - started
            let statuses = browser.transcript.compactMap { Int($0.prefix { $0.isNumber }) }
            return (
                Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, statuses, done.html.contains("You are signed in")
            )
        }
    }

    @Test(
        "one address floods while a person signs in from another: the flood gets 429 past its budget and starts at most that many flows upstream; the person never sees a 503"
    )
    func floodFromOneAddress() async throws {
        let (serve, port, metricsPort) = try await Self.startGateway(maximumSessions: 50, newSessionsPerAddress: 10)
        async let flood = Self.flood(port: port, from: "127.0.0.2", count: 2000, parallel: 8)
        try await Task.sleep(for: .milliseconds(300))
        let person = try await Self.personSignsIn(port: port)
        let statuses = await flood
        let flows = try await Self.flowsStarted(metricsPort: metricsPort)
        let started = statuses.filter { $0 == 200 }.count
        print(
            "flood from one address: \(statuses.count) requests, \(started) answered with a sign-in page, \(statuses.filter { $0 == 429 }.count) × 429; "
                + "\(flows) flows started upstream in all (the person's included); the person signed in in \(String(format: "%.2f", person.seconds)) s"
        )
        #expect(person.signedIn)
        #expect(!person.statuses.contains(503), "\(person.statuses)")
        #expect(started == 10, "the budget of one address")
        #expect(statuses.filter { $0 == 429 }.count == 1990)
        #expect(flows == started + 1, "only admitted sign-ins (and the person's) reached the upstream")
        serve.signal(SIGTERM)
        _ = try await serve.waitForExit(timeout: .seconds(30))
    }

    @Test(
        "many addresses fill the session cap with sessions nobody comes back to: a person arriving at the full cap still signs in start to finish, and the flows started upstream stay within the addresses' budgets"
    )
    func floodFromManyAddressesAtTheCap() async throws {
        let (serve, port, metricsPort) = try await Self.startGateway(maximumSessions: 30, newSessionsPerAddress: 5)
        let attackers = (2...21).map { "127.0.0.\($0)" }
        // First wave: 20 addresses × 5 admitted = 100 sign-ins for 30 places; the cap is full of sessions nobody uses.
        let firstWave = await withTaskGroup(of: [Int].self) { group in
            for address in attackers { group.addTask { await Self.flood(port: port, from: address, count: 5, parallel: 1) } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(firstWave.allSatisfy { $0 == 200 }, "\(firstWave)")
        // The person arrives at the full cap while the second wave goes on.
        async let secondWave = withTaskGroup(of: [Int].self) { group in
            for address in attackers { group.addTask { await Self.flood(port: port, from: address, count: 10, parallel: 1) } }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let person = try await Self.personSignsIn(port: port)
        let second = await secondWave
        let flows = try await Self.flowsStarted(metricsPort: metricsPort)
        print(
            "flood from \(attackers.count) addresses at a cap of 30: \(firstWave.count + second.count) requests, \(flows) flows started upstream "
                + "(bound \(attackers.count * 5) + the person's); the person signed in in \(String(format: "%.2f", person.seconds)) s"
        )
        #expect(person.signedIn)
        #expect(!person.statuses.contains(503), "\(person.statuses)")
        #expect(second.allSatisfy { $0 == 429 }, "every address spent its budget in the first wave")
        #expect(flows == attackers.count * 5 + 1)
        serve.signal(SIGTERM)
        _ = try await serve.waitForExit(timeout: .seconds(30))
    }

    @Test(
        "two replicas on PostgreSQL: 20 addresses flood both in turn; each address's budget holds for the two together, the cap fills with sessions nobody comes back to, and a person arriving at the full cap, balanced over both, still signs in",
        .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)")
    )
    func floodAtPostgresReplicas() async throws {
        try await SharedStoreGateways.run { shared in
            let environment = [
                "HAAPI_GATEWAY_METRICS_ENABLED": "true", "HAAPI_GATEWAY_METRICS_PORT": "0", "HAAPI_GATEWAY_SESSIONS_MAXIMUM_SESSIONS": "40",
                "HAAPI_GATEWAY_SESSIONS_MAXIMUM_NEW_SESSIONS_PER_ADDRESS": "5", "HAAPI_GATEWAY_SESSIONS_NEW_SESSION_WINDOW_SECONDS": "300",
            ]
            var replicas: [(url: String, port: Int, metricsPort: Int)] = []
            for _ in 0..<2 {
                let (gateway, url) = try await shared.start(extraEnvironment: environment)
                let metrics = try await gateway.waitForOutput(#"url=http://127\.0\.0\.1:(\d+)/metrics"#, inStandardError: true)
                replicas.append((url, try #require(URL(string: url)?.port), try #require(Int(metrics))))
            }
            let ports = replicas.map(\.port)
            let attackers = (2...21).map { "127.0.0.\($0)" }
            // Each address sends 10 cookieless requests, to the replicas in turn: 5 admitted for the two together.
            let statuses = await withTaskGroup(of: [Int].self) { group in
                for (index, address) in attackers.enumerated() {
                    group.addTask {
                        var statuses: [Int] = []
                        for request in 0..<10 {
                            statuses += await Self.flood(port: ports[(index + request) % 2], from: address, count: 1, parallel: 1)
                        }
                        return statuses
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            let person = try await TestBrowser(roundRobin: replicas.map(\.url)).closing { browser in
                let done = try await browser.signInAsDemo()
                return (browser.transcript.compactMap { Int($0.prefix { $0.isNumber }) }, done.html.contains("You are signed in"))
            }
            var flows = 0
            for replica in replicas { flows += try await Self.flowsStarted(metricsPort: replica.metricsPort) }
            let sessions = try await shared.postgres.psql("SELECT count(*) FROM haapi_gateway_sessions", database: shared.database)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            print(
                "flood at two PostgreSQL replicas: \(statuses.count) requests from \(attackers.count) addresses, \(statuses.filter { $0 == 200 }.count) admitted, "
                    + "\(flows) flows started upstream in all (the person's included), \(sessions) sessions stored at a cap of 40"
            )
            #expect(statuses.filter { $0 == 200 }.count == attackers.count * 5, "each address's budget is one for both replicas")
            #expect(statuses.filter { $0 == 429 }.count == attackers.count * 5)
            #expect(person.1, "the person signed in")
            #expect(!person.0.contains(503), "\(person.0)")
            #expect(flows == attackers.count * 5 + 1)
            // Sign-ins of the other replica counted up to a second late may pass the cap; each one past it (the person's
            // first page here) pushes out up to three untouched sessions, so the table is back at the cap.
            #expect(Int(sessions) == 40, "the cap held for the two replicas together: \(sessions)")
        }
    }
}
