import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// A token hand-over under way when the gateway is stopped (SIGTERM) or killed (SIGKILL) is delivered exactly once after
/// the next start: the spool holds it from before its first attempt until it is done.
@Suite("Token hand-over across a stop or a kill", .startsPrograms())
struct DeliveryAcrossKillTests {
    @Test("a delivery stuck at the sink when the gateway stops or is killed is delivered once after a restart", arguments: [SIGTERM, SIGKILL])
    func stuckDeliverySurvives(signal: Int32) async throws {
        let directory = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The receiver hangs until the file "ok" exists, then keeps what it got under the delivery's id. It writes its
        // PID (its process group's) first.
        let sink = directory.appendingPathComponent("sink.sh")
        try """
        #!/bin/sh
        echo $$ > '\(directory.path)/pid-'$$
        while [ ! -f '\(directory.path)/ok' ]; do sleep 0.1; done
        cat > '\(directory.path)/delivered-'"$HAAPI_GATEWAY_DELIVERY"
        """.write(to: sink, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: sink.path)
        let spool = directory.appendingPathComponent("callbacks.spool").path
        let environment = [
            "HAAPI_GATEWAY_CALLBACKS_SPOOL_FILE": spool, "HAAPI_GATEWAY_CALLBACKS_HAND_OVER_SECONDS": "1", "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0",
        ]
        let arguments = ["serve", "--port", "0", "--callback", "exec:\(sink.path)"]

        let first = try RunningGateway(arguments, environment: environment)
        let url = try await first.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        try await TestBrowser.using(url) { browser in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            #expect(done.html.contains("Handing your sign-in over is taking longer than usual"), "the page says the hand-over goes on: \(done.html)")
        }
        let spooled = try SpooledDeliveries.ids(in: spool)
        #expect(spooled.count == 1, "in the spool while the sink is stuck")
        first.signal(signal)
        _ = try await first.waitForExit(timeout: .seconds(30))
        let groups = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("pid-") }.compactMap {
            pid_t($0.dropFirst(4))
        }
        #expect(groups.count == 1, "one attempt was under way")
        if signal == SIGKILL {
            // A killed gateway cannot end anything: its service manager ends what is left of it (systemd's default
            // KillMode=control-group), here the receiver's process group, by its PID.
            for group in groups { kill(-group, SIGKILL) }
        }
        // A stopped gateway ended the receiver's whole process group itself, before it exited.
        for group in groups {
            #expect(
                await ProcessGroups.waitUntilGone([group], within: .seconds(5)),
                "the stuck receiver is gone after the \(signal == SIGKILL ? "kill" : "stop")"
            )
        }
        #expect(try SpooledDeliveries.ids(in: spool) == spooled, "still spooled after the \(signal == SIGKILL ? "kill" : "stop")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("delivered-") }.isEmpty)

        try Data().write(to: directory.appendingPathComponent("ok"))
        let second = try RunningGateway(arguments, environment: environment)
        _ = try await second.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        let deadline = ContinuousClock.now + .seconds(60)
        var delivered: [String] = []
        while delivered.isEmpty, ContinuousClock.now < deadline {
            delivered = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("delivered-") }
            if delivered.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(delivered == spooled.map { "delivered-" + $0 }, "delivered once, with the spooled id")
        second.signal(SIGTERM)
        _ = try await second.waitForExit(timeout: .seconds(30))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("delivered-") }.count == 1, "never twice")
        #expect(!FileManager.default.fileExists(atPath: spool), "nothing left to deliver")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(delivered[0]))) as? [String: Any]
        #expect(document?["outcome"] as? String == "success")
    }
}
