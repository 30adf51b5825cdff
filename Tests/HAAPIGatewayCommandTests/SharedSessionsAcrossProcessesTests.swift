import Foundation
import Testing

@testable import GatewayTestSupport

/// `sessions.store: postgres` with real processes: `haapi-gateway serve` twice on one PostgreSQL database (a server of the
/// test's own), a `demo-server` process as their upstream, a browser whose requests go to the gateways in turn.
@Suite(
    "Sign-ins shared by gateway processes through PostgreSQL",
    .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)"),
    .startsPrograms()
)
struct SharedSessionsAcrossProcessesTests {
    @Test(
        "two gateway processes, one database: demo, otp, poll (waiting page) and consent alternate between them page by page and complete; each outcome is delivered once"
    )
    func alternatingProcesses() async throws {
        try await SharedStoreGateways.run { shared in
            let (_, first) = try await shared.start()
            let (_, second) = try await shared.start()
            for user in TestBrowser.secondStepUsers {
                try await TestBrowser(roundRobin: [first, second]).closing { browser in
                    let page = try await browser.signIn(
                        asDemoUser: user,
                        code: { try #require(try await shared.outbox().first { $0["code"] is String }?["code"] as? String) },
                        approve: { try await shared.approve() }
                    )
                    #expect(page.html.contains("You are signed in"), "\(user): \(page.html)")
                    let served = browser.served
                    #expect(Set(served) == [first, second], "\(user): both processes served it")
                }
            }
            var delivered = try shared.deliveries()
            for _ in 0..<40 where delivered.count < 4 {
                try await Task.sleep(for: .milliseconds(250))
                delivered = try shared.deliveries()
            }
            #expect(delivered.count == 4, "one delivery per sign-in: \(delivered)")
            try await Task.sleep(for: .seconds(1))
            #expect(try shared.deliveries() == delivered, "and never a second one")
        }
    }

    @Test(
        "a gateway killed with SIGKILL in the middle of a sign-in: restarted, the person goes on from the page they had; with a second process they never notice"
    )
    func killedMidSignIn() async throws {
        try await SharedStoreGateways.run { shared in
            let (gateway, url) = try await shared.start()
            let port = try #require(URL(string: url)?.port)
            try await TestBrowser.using(url) { browser in
                let form = try await browser.openPasswordForm()
                kill(gateway.processIdentifier, SIGKILL)
                _ = try await gateway.waitForExit(timeout: .seconds(10))
                // The same address again, as a supervisor restarts it.
                let (_, restarted) = try await shared.start(port: port)
                #expect(restarted == url)
                let again = try await browser.get("/")
                #expect(again.html.contains(#"type="password""#), "the password form again, not a new sign-in: \(again.html)")
                let notice = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                #expect(try await browser.submit(try notice.form(button: "Continue")).html.contains("You are signed in"))
            }

            // Two processes: one is killed between two pages; the next request goes to the other and the sign-in goes on.
            let (doomed, doomedURL) = try await shared.start()
            try await TestBrowser.using(doomedURL) { other in
                try await TestBrowser.using(url) { survivor in
                    let otherForm = try await other.openPasswordForm()
                    kill(doomed.processIdentifier, SIGKILL)
                    for (name, value) in other.cookies { survivor.setCookie(name, value) }
                    let continued = try await survivor.submit(otherForm, ["userName": "demo", "password": "demo"])
                    #expect(try await survivor.submit(try continued.form(button: "Continue")).html.contains("You are signed in"))
                }
            }
            #expect(try shared.deliveries().count == 2)
        }
    }
    @Test(
        "requests-oauth2client asks replica A for a device code, the person signs in through a balancer alternating A and B, the library polls B and gets the tokens once, then refreshes and revokes on A",
        .enabled(if: TestTools.deviceClientAvailable, "needs Python's requests-oauth2client (.ci/run installs it)")
    )
    func aStandardDeviceClientAcrossReplicas() async throws {
        try await SharedStoreGateways.run(strict: false) { shared in
            try (DeviceClientInteropTests.secret + "\n").write(
                to: shared.directory.appendingPathComponent("device-secret"),
                atomically: true,
                encoding: .utf8
            )
            let configuration = shared.directory.appendingPathComponent("devices.yaml")
            try """
            devices:
              enabled: true
              pollIntervalSeconds: 1
              clients:
                - id: build-host
                  name: Build host 3
                  secretFile: device-secret
            """.write(to: configuration, atomically: true, encoding: .utf8)
            let (_, first) = try await shared.start(extraArguments: ["--config", configuration.path])
            let (_, second) = try await shared.start(extraArguments: ["--config", configuration.path])
            let client = try DeviceClientInteropTests.PythonClient(baseURL: first, pollAndRefresh: (poll: second, refresh: first))
            let authorized = try await client.step("authorized")
            try await TestBrowser(roundRobin: [first, second]).closing { person in
                let confirm = try await person.enterDeviceCode(completeURI: try #require(authorized["verification_uri_complete"] as? String))
                #expect(confirm.html.contains("Build host 3 is asking to sign in"), "\(confirm.html)")
                let done = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
                #expect(done.html.contains("You can go back to Build host 3"), "\(done.html)")
                #expect(Set(person.served) == [first, second], "the balancer sent the person to both")
            }
            let tokens = try await client.step("tokens")
            #expect(tokens["token_type"] as? String == "Bearer")
            #expect(tokens["has_refresh_token"] as? Bool == true)
            #expect(try await client.step("refreshed")["changed"] as? Bool == true, "A opened the refresh token B sealed")
            #expect(try await client.step("revoked")["refused"] as? Bool == true)
            // The row goes once B has written its answer, which the device may read before B has deleted it.
            var rows = ""
            for _ in 0..<100 {
                rows = try await shared.postgres.psql("SELECT count(*) FROM haapi_gateway_device_authorizations", database: shared.database)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if rows == "0" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(rows == "0", "the tokens were collected once, and the row with them")
        }
    }

    @Test("a webhook delivery under way when the gateway that made it is killed is delivered once, with its id, by the other")
    func deliveryOutlivesItsGateway() async throws {
        let receiver = WebhookReceiver()
        try await receiver.serving { hook in
            try await SharedStoreGateways.run { shared in
                let environment = ["HAAPI_GATEWAY_CALLBACKS_HAND_OVER_SECONDS": "1"]
                let (doomed, doomedURL) = try await shared.start(callback: hook.absoluteString, extraEnvironment: environment)
                _ = try await shared.start(callback: hook.absoluteString, extraEnvironment: environment)
                let outbox = {
                    try await shared.postgres.psql("SELECT count(*) FROM haapi_gateway_outbox", database: shared.database).trimmingCharacters(
                        in: .whitespacesAndNewlines
                    )
                }
                // The receiver holds the first attempt: it is under way, claimed by the gateway that made it, when that one dies.
                receiver.hold(true)
                try await TestBrowser.using(doomedURL) { browser in
                    let done = try await browser.signInAsDemo()
                    #expect(done.html.contains("You are signed in") && done.html.contains("taking longer than usual"), "\(done.html)")
                }
                for _ in 0..<100 where receiver.arrivals.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
                let first = try #require(receiver.arrivals.first, "the attempt reached the receiver")
                #expect(try await outbox() == "1", "in the outbox while its attempt is under way")
                kill(doomed.processIdentifier, SIGKILL)
                _ = try await doomed.waitForExit(timeout: .seconds(10))
                receiver.hold(false)
                for _ in 0..<180 where receiver.accepted.isEmpty { try await Task.sleep(for: .milliseconds(500)) }
                #expect(receiver.accepted == [first], "delivered by the other gateway, with the same delivery id")
                try await Task.sleep(for: .seconds(3))
                #expect(receiver.accepted.count == 1, "and once")
                #expect(try await outbox() == "0", "nothing left to deliver")
            }
        }
    }
}
