import Foundation
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// Problems as Curity's SDKs treat them (notes 3.9, [UIKIT] `formatErrorStepData`), through the whole gateway: the proxy
/// in front of the demo answers the password form's post with each problem.
@Suite("Curity's problem types on the page")
struct CurityProblemTests {
    static func problem(_ type: String, _ members: String) -> UpstreamFault {
        .answer(status: 400, contentType: "application/problem+json", body: #"{"type":"https://curity.se/problems/\#(type)",\#(members)}"#)
    }

    /// Posts the password form while the upstream answers `fault`, and returns the page after it.
    static func submitPassword(_ browser: TestBrowser, proxy: UpstreamProxy, answering fault: UpstreamFault) async throws -> TestBrowser.Page {
        let form = try await browser.openPasswordForm()
        proxy.fault = fault
        defer { proxy.fault = nil }
        return try await browser.submit(form, ["userName": "demo", "password": "demo"])
    }

    @Test(
        "authentication-failed and too-many-attempts keep the step with the message, like incorrect-credentials",
        arguments: ["authentication-failed", "too-many-attempts"]
    )
    func inputProblemsKeepTheStep(type: String) async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, _, proxy in
            let page = try await Self.submitPassword(
                browser,
                proxy: proxy,
                answering: Self.problem(type, #""title":"Stopped","messages":[{"text":"Wait a little: \#(type)","classList":["error"]}]"#)
            )
            #expect(page.html.contains("Wait a little: \(type)"))
            let again = try #require(page.forms.first { $0.inputs.contains { $0.type == "password" } }, "the step stays")
            // The right password then signs in from the same step.
            let notice = try await browser.submit(again, ["userName": "demo", "password": "demo"])
            #expect(notice.html.contains("Continue"))
        }
    }

    @Test("an invalid field that is not on the page is said as a message; a problem's links stay usable on the step")
    func invalidFieldNotOnThePageAndProblemLinks() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, _, proxy in
            let page = try await Self.submitPassword(
                browser,
                proxy: proxy,
                answering: Self.problem(
                    "invalid-input",
                    #""title":"Check your input","invalidFields":[{"name":"password","reason":"invalidValue","detail":"Too short"},{"name":"captchaToken","reason":"missing","detail":"The captcha was not solved"}],"links":[{"href":"/authn/authenticate/html-form/forgot-password","rel":"help","title":"Reset it here"}]"#
                )
            )
            #expect(page.html.contains(#"<p class="field-error" id="f-0-password-error">Too short</p>"#))
            #expect(page.html.contains("captchaToken: The captcha was not solved"))
            let link = try page.form(button: "Reset it here")
            let followed = try await browser.submit(link)
            #expect(followed.html.contains("<h1>Forgot your password?</h1>"), "the problem's link was followed upstream: \(followed.html)")
        }
    }

    @Test("error-authorization-response ends the sign-in with that OAuth error")
    func errorAuthorizationResponseEndsWithItsError() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, sinkPath, proxy in
            let page = try await Self.submitPassword(
                browser,
                proxy: proxy,
                answering: Self.problem(
                    "error-authorization-response",
                    #""title":"Access denied","error":"access_denied","error_description":"The user is not allowed here","iss":"https://idsvr.example""#
                )
            )
            #expect(page.html.contains("Access denied The user is not allowed here"), "the error_description is on the page too")
            #expect(page.html.contains("Start again"))
            let outcome = try String(contentsOfFile: sinkPath, encoding: .utf8)
            #expect(outcome.contains(#""error":"access_denied""#))
            #expect(outcome.contains("The user is not allowed here"))
        }
    }

    @Test("mismatch-between-session-and-access-token says the sign-in expired and offers starting again")
    func sessionMismatchSaysExpired() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, sinkPath, proxy in
            let page = try await Self.submitPassword(
                browser,
                proxy: proxy,
                answering: Self.problem("mismatch-between-session-and-access-token", #""title":"Mismatch""#)
            )
            #expect(page.html.contains("This sign-in has expired"))
            let restarted = try await browser.submit(try page.form(button: "Start again"))
            #expect(restarted.html.contains("Select Authentication Method"))
            #expect(try String(contentsOfFile: sinkPath, encoding: .utf8).contains(#""error":"session_expired""#))
        }
    }

    @Test("a problem that ends the sign-in keeps its restart link usable; following it continues the flow")
    func restartLinkOfAnEndingProblem() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, _, proxy in
            let page = try await Self.submitPassword(
                browser,
                proxy: proxy,
                answering: Self.problem(
                    "unexpected",
                    #""title":"General Error","code":"authorization_failed","messages":[{"text":"A session can only be accessed using the original DPoP keys.","classList":["error"]}],"links":[{"href":"/authn/authenticate","rel":"restart","title":"Try again"}]"#
                )
            )
            #expect(page.html.contains("A session can only be accessed using the original DPoP keys."))
            let restarted = try await browser.submit(try page.form(button: "Try again"))
            #expect(restarted.html.contains("Username and password"), "the restart link led back into the flow: \(restarted.html)")
        }
    }

    @Test("an unknown problem type ends with its title and messages")
    func unknownProblemTypeEnds() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, sinkPath, proxy in
            let page = try await Self.submitPassword(
                browser,
                proxy: proxy,
                answering: .answer(
                    status: 409,
                    contentType: "application/problem+json",
                    body: #"{"type":"https://example.com/problems/new-kind","title":"Something new","messages":[{"text":"Explained here"}]}"#
                )
            )
            #expect(page.html.contains("Something new Explained here"))
            #expect(try String(contentsOfFile: sinkPath, encoding: .utf8).contains("https://example.com/problems/new-kind"))
        }
    }
}
