import Foundation
import HAAPIDemoServer
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// What an application receives, against the strict demo server: the sign-in's id (the `flow` of its log lines), the
/// validated ID token's subject, the configured ID-token and userinfo claims; and no tokens when the ID token fails.
@Suite("Outcomes an application can match, end to end against the demo server")
struct SignInOutcomeEndToEndTests {
    static func outcome(at path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func isSignInID(_ value: Any?) -> Bool {
        guard let id = value as? String else { return false }
        return id.count == 22 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    @Test(
        "the outcome carries signInId (the flow id of the sign-in's log lines), subject, and the configured ID-token and userinfo claims; an absent claim is left out"
    )
    func outcomeCarriesSignInIDSubjectAndClaims() async throws {
        let logs = LogCapture()
        try await GatewayHarness.withGateway(
            logger: logs.logger,
            configure: {
                $0.outcome = OutcomeSettings(idTokenClaims: ["email", "name", "acr"], userinfoClaims: ["preferred_username", "email_verified"])
            }
        ) { browser, _, sinkPath in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            let outcome = try Self.outcome(at: sinkPath)
            #expect(outcome["outcome"] as? String == "success")
            #expect(Self.isSignInID(outcome["signInId"]), "\(outcome["signInId"] ?? "none")")
            #expect(outcome["subject"] as? String == "demo")
            let claims = try #require(outcome["claims"] as? [String: Any])
            #expect(claims["email"] as? String == "demo@example.com")
            #expect(claims["name"] as? String == "Demo User")
            #expect(claims["preferred_username"] as? String == "demo", "from userinfo, fetched with the DPoP-bound access token")
            #expect(claims["email_verified"] as? Bool == true)
            #expect(claims["acr"] == nil && claims.count == 4, "a claim asked for but absent is left out")
            #expect(outcome["claimsProblem"] == nil)
            #expect((outcome["token"] as? [String: Any])?["tokenType"] as? String == "DPoP", "the strict demo binds the tokens")
            // Logs and outcomes join: the sign-in's log lines carry its id as `flow`; no claim value is logged.
            let signInID = try #require(outcome["signInId"] as? String)
            let completed = logs.text.split(separator: "\n").filter { $0.contains("sign-in completed") }
            #expect(completed.count == 1 && completed.allSatisfy { $0.contains(signInID) })
            #expect(!logs.text.contains("demo@example.com") && !logs.text.contains("Demo User"))
            #expect(!done.html.contains("demo@example.com"))
        }
    }

    @Test("userinfo that fails leaves the sign-in a success whose outcome says why (claimsProblem); the ID-token claims are there")
    func userinfoFailureIsSaid() async throws {
        try await GatewayHarness.withProxiedGateway(configure: {
            $0.outcome = OutcomeSettings(idTokenClaims: ["email"], userinfoClaims: ["preferred_username"])
        }) { browser, _, sinkPath, proxy in
            let notice = try await browser.submit(try await browser.openPasswordForm(), ["userName": "demo", "password": "demo"])
            proxy.fault = .answerOnce(pathSuffix: "oauth-userinfo", status: 503)
            let done = try await browser.submit(try notice.form(button: "Continue"))
            #expect(done.html.contains("You are signed in"))
            let outcome = try Self.outcome(at: sinkPath)
            #expect(outcome["outcome"] as? String == "success")
            #expect(outcome["subject"] as? String == "demo")
            #expect(outcome["claims"] as? [String: String] == ["email": "demo@example.com"])
            let problem = try #require(outcome["claimsProblem"] as? String)
            #expect(problem.hasPrefix("userinfo: ") && problem.contains("503"), "\(problem)")
            #expect(proxy.faultCount == 1)
        }
    }

    @Test("without configured claims the outcome has signInId and subject, no claims and no userinfo call")
    func noClaimsConfigured() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, sinkPath, proxy in
            let notice = try await browser.submit(try await browser.openPasswordForm(), ["userName": "demo", "password": "demo"])
            proxy.fault = .answerOnce(pathSuffix: "oauth-userinfo", status: 503)
            _ = try await browser.submit(try notice.form(button: "Continue"))
            let outcome = try Self.outcome(at: sinkPath)
            #expect(Self.isSignInID(outcome["signInId"]))
            #expect(outcome["subject"] as? String == "demo")
            #expect(outcome["claims"] == nil && outcome["claimsProblem"] == nil)
            #expect(proxy.faultCount == 0, "userinfo is fetched only when userinfo claims are configured")
        }
    }

    @Test(
        "an ID token with a wrong signature or another nonce ends the sign-in with invalid_id_token and a clear page; no token is handed over",
        arguments: DemoIDTokenFault.allCases
    )
    func invalidIDTokenIsRefused(_ fault: DemoIDTokenFault) async throws {
        var demo = DemoServerConfiguration.strict
        demo.idTokenFault = fault
        let logs = LogCapture()
        try await GatewayHarness.withGateway(logger: logs.logger, demoConfiguration: demo) { browser, _, sinkPath in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("Sign-in failed"))
            #expect(done.html.contains("could not be verified"))
            #expect(!done.html.contains("You are signed in"))
            let outcome = try Self.outcome(at: sinkPath)
            #expect(outcome["outcome"] as? String == "error")
            #expect(
                outcome["token"] == nil && outcome["subject"] == nil && outcome["dpopPrivateKey"] == nil,
                "tokens that cannot be trusted are not handed over"
            )
            #expect(Self.isSignInID(outcome["signInId"]))
            let error = try #require(outcome["error"] as? [String: Any])
            #expect(error["error"] as? String == "invalid_id_token")
            let description = try #require(error["errorDescription"] as? String)
            #expect(description.contains(fault == .wrongSignature ? "signature" : "nonce"), "\(description)")
            #expect(!description.contains("eyJ"), "never the token")
            #expect(logs.text.contains("ID token refused") && !logs.text.contains("eyJ"))
        }
    }

    @Test("a cancelled sign-in's outcome carries its signInId")
    func cancelledOutcomeCarriesSignInID() async throws {
        try await GatewayHarness.withGateway(configure: { $0.completion.confirmCancel = false }) { browser, _, sinkPath in
            let selector = try await browser.get("/")
            _ = try await browser.submit(try selector.form(button: "Cancel sign-in"))
            let outcome = try Self.outcome(at: sinkPath)
            #expect(outcome["outcome"] as? String == "cancelled")
            #expect(Self.isSignInID(outcome["signInId"]))
            #expect(outcome.count == 2)
        }
    }
}
