import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

@Suite("Cancelling a sign-in")
struct CancelTests {
    @Test("Cancel sign-in asks for confirmation, then hands outcome 'cancelled' to the sinks")
    func cancelWithConfirmation() async throws {
        try await GatewayHarness.withGateway { browser, _, sinkPath in
            let selector = try await browser.get("/")
            let confirm = try await browser.submit(try selector.form(button: "Cancel sign-in"))
            #expect(confirm.html.contains("Do you want to cancel signing in?"))
            #expect(!FileManager.default.fileExists(atPath: sinkPath), "nothing before confirming")
            let cancelled = try await browser.submit(try confirm.form(button: "Yes, cancel sign-in"))
            #expect(cancelled.html.contains("Sign-in cancelled"))
            let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any]
            #expect(object?["outcome"] as? String == "cancelled")
            #expect(object?["token"] == nil)
        }
    }

    @Test("with completion.confirmCancel false, Cancel sign-in cancels at once")
    func cancelWithoutConfirmation() async throws {
        try await GatewayHarness.withGateway(configure: { $0.completion.confirmCancel = false }) { browser, _, sinkPath in
            let selector = try await browser.get("/")
            let cancelled = try await browser.submit(try selector.form(button: "Cancel sign-in"))
            #expect(cancelled.html.contains("Sign-in cancelled"))
            #expect(FileManager.default.fileExists(atPath: sinkPath))
        }
    }

    @Test("a cancel without the CSRF token is refused")
    func cancelNeedsCSRF() async throws {
        try await GatewayHarness.withGateway { browser, _, sinkPath in
            _ = try await browser.get("/")
            let page = try await browser.post("/cancel/confirm", body: "_csrf=nope")
            #expect(page.status == 403)
            #expect(!FileManager.default.fileExists(atPath: sinkPath))
        }
    }
}
