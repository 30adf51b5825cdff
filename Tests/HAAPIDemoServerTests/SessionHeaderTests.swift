import Foundation
import Testing

/// The flow's session id goes out as `Set-Session-Id` and comes back as `Session-Id`, as with Curity ([DRIVER], [SRVCLIENT]).
@Suite struct SessionHeaderTests {
    @Test func responsesCarrySetSessionIdAndNeverSessionId() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let authorize = try await flow.start()
        #expect(authorize.status == 200)
        let issued = try #require(authorize.header("Set-Session-Id"))
        #expect(!issued.isEmpty)
        #expect(authorize.header("Session-Id") == nil, "the response header is Set-Session-Id only")
        let selector = try await flow.follow(authorize)
        #expect(selector.status == 200)
        #expect(selector.header("Set-Session-Id") == issued)
        #expect(selector.header("Session-Id") == nil)
        let problem = try await flow.request("POST", "/authn/authenticate/email/enter-otp", fields: [("otp", "1")])
        #expect(problem.json["code"] as? String == "unexpected_step")
        #expect(problem.header("Session-Id") == nil)
        try await harness.finish()
    }

    @Test func theSessionIdSentBackUnderTheResponseHeaderNameIsMissing() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        _ = try await flow.start()
        let session = try #require(flow.sessionID)
        flow.sessionID = nil
        let response = try await flow.request("GET", "/authn/authenticate", headers: [("Set-Session-Id", session)])
        #expect(response.status == 400)
        #expect(response.json["type"] as? String == "https://curity.se/problems/unexpected")
        #expect(response.json["code"] as? String == "missing_session")
        flow.sessionID = session + "x"
        let wrong = try await flow.request("GET", "/authn/authenticate")
        #expect(wrong.json["code"] as? String == "unknown_session")
        #expect(wrong.header("Set-Session-Id") == nil)
        try await harness.finish()
    }
}
