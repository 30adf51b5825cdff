import Foundation
import Testing

/// Happy paths for every demo user, spoken from scratch, with every body checked against the schema.
@Suite struct LoginFlowTests {
    /// From the authorize request to the authenticator selector.
    static func selector(_ flow: HAAPIFlowDriver) async throws -> Step {
        let first = try await flow.start()
        #expect(first.status == 200)
        #expect(first.contentType == "application/vnd.auth+json")
        #expect(flow.sessionID?.isEmpty == false)
        let selector = Step(try await flow.follow(first))
        #expect(selector.type == "authentication-step")
        #expect(selector.viewName == "views/select-authenticator/index")
        #expect(selector.actions.first?["template"] as? String == "selector")
        for type in ["html-form", "email", "approval", "external-browser"] { #expect(selector.option(type) != nil) }
        return selector
    }

    static func passwordForm(_ flow: HAAPIFlowDriver, authenticator: String = "html-form") async throws -> Step {
        let selector = try await selector(flow)
        let form = Step(try await flow.submit(try #require(selector.option(authenticator))))
        #expect(form.type == "authentication-step")
        #expect(form.viewName == "authenticator/html-form/authenticate/get")
        return form
    }

    @Test func demoUserPassesRedirectionAndTheNoticeThenGetsVerifiedTokens() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        var form = try await Self.passwordForm(flow)

        // forgot-password and register-create lead to real demo steps with a way back
        let forgot = Step(try await flow.request("GET", try #require(form.link(rel: "forgot-password")?["href"] as? String)))
        #expect(forgot.type == "authentication-step")
        #expect(forgot.messages.contains { $0.contains("demo") })
        form = Step(try await flow.submit(forgot.actions[0]))
        #expect(form.viewName == "authenticator/html-form/authenticate/get")
        let register = Step(try await flow.request("GET", try #require(form.link(rel: "register-create")?["href"] as? String)))
        #expect(register.type == "registration-step")
        form = Step(try await flow.submit(register.actions[0]))
        #expect(form.action(kind: "login") != nil)

        let afterPassword = try await flow.submit(try #require(form.action(kind: "login")), ["userName": "demo", "password": "demo"])
        #expect(Step(afterPassword).type == "redirection-step")
        let notice = Step(try await flow.follow(afterPassword))
        #expect(notice.type == "authentication-step")
        // "Email me a copy" has no continueActions: the notice comes again with an info message, never continue-same-step.
        let copy = Step(try await flow.submit(try #require(notice.action(kind: "email-copy"))))
        #expect(copy.type == "authentication-step")
        #expect(copy.viewName == notice.viewName)
        #expect(copy.messages.contains { $0.hasPrefix("A copy was sent to d") })
        #expect(copy.action(kind: "continue") != nil)
        let done = try await flow.submit(try #require(notice.action(kind: "continue")))
        let response = Step(done)
        #expect(response.type == "oauth-authorization-response")
        #expect(response.properties["state"] as? String == flow.state)
        #expect(response.properties["iss"] as? String == harness.issuer)
        let link = try #require(response.links.first)
        #expect(link["rel"] as? String == "authorization-response")
        #expect((link["href"] as? String)?.hasPrefix("haapi:start?code=") == true)

        let tokens = try await flow.exchange(done)
        #expect(tokens.status == 200, "\(tokens.text)")
        #expect(tokens.json["token_type"] as? String == "Bearer")
        #expect(tokens.json["refresh_token"] is String)
        #expect(tokens.text.contains(#""expires_in":300"#))
        let jwks = try await harness.http.send(.GET, harness.base + "/oauth/v2/oauth-anonymous/jwks").json
        let idToken = try #require(tokens.json["id_token"] as? String)
        let claims = try #require(IDTokenVerifier.verify(idToken, jwks: jwks))
        #expect(claims["iss"] as? String == harness.issuer)
        #expect(claims["sub"] as? String == "demo")
        #expect(claims["aud"] as? String == "demo-gateway")
        #expect(claims["nonce"] as? String == flow.oidcNonce)
        #expect(claims["auth_time"] is Int)
        #expect((claims["exp"] as? Int ?? 0) > Int(Date().timeIntervalSince1970))
        #expect(claims["iat"] is Int)
        #expect(Step(try await flow.request("GET", "/authn/authenticate")).json["type"] as? String == "https://curity.se/problems/unexpected")
        try await harness.finish()
    }

    @Test func otpUserReadsTheCodeFromTheOutbox() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await Self.passwordForm(flow, authenticator: "email")
        let codeStep = Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": "otp", "password": "otp"]))
        #expect(codeStep.viewName == "authenticator/email/enter-otp/index")
        let wrong = try await flow.submit(try #require(codeStep.action(kind: "login")), ["otp": "000000x"])
        #expect(wrong.status == 400)
        #expect(wrong.contentType == "application/problem+json")
        #expect(wrong.json["type"] as? String == "https://curity.se/problems/invalid-input")
        #expect((wrong.json["invalidFields"] as? [[String: Any]])?.first?["name"] as? String == "otp")
        let outbox = try await harness.http.send(.GET, harness.base + "/demo/outbox").json
        let code = try #require((outbox["messages"] as? [[String: Any]])?.first { $0["to"] as? String == "otp@example.com" }?["code"] as? String)
        let done = try await flow.submit(try #require(codeStep.action(kind: "login")), ["otp": code])
        #expect(Step(done).type == "oauth-authorization-response")
        #expect(try await flow.exchange(done).status == 200)
        try await harness.finish()
    }

    @Test func pollUserIsApprovedOnTheApprovalPage() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await Self.passwordForm(flow, authenticator: "approval")
        let pending = Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": "poll", "password": "poll"]))
        #expect(pending.type == "polling-step")
        #expect(pending.properties["status"] as? String == "pending")
        #expect(pending.properties["interval"] as? String == "2000", "milliseconds, as a string ([UIKIT])")
        #expect(pending.properties["pollInterval"] == nil, "pollInterval is only in Curity's HTML templates")
        let activation = try #require(pending.link(rel: "activation"))
        #expect((activation["href"] as? String)?.contains("/demo/approve/") == true, "the approval link itself, for the client's QR code")
        #expect(pending.action(kind: "cancel") != nil)
        let stillPending = Step(try await flow.submit(try #require(pending.action(kind: "poll"))))
        #expect(stillPending.properties["status"] as? String == "pending")

        let outbox = try await harness.http.send(.GET, harness.base + "/demo/outbox").json
        let approvalLink = try #require(
            (outbox["messages"] as? [[String: Any]])?.first { $0["kind"] as? String == "approval-link" }?["link"] as? String
        )
        let page = try await harness.http.send(.GET, approvalLink)
        #expect(page.status == 200)
        #expect(page.contentType?.hasPrefix("text/html") == true)
        #expect(page.text.contains("Approve") && page.text.contains("Deny"))
        let decided = try await harness.http.send(
            .POST,
            approvalLink,
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "decision=approve"
        )
        #expect(decided.status == 200)
        let second = try await harness.http.send(
            .POST,
            approvalLink,
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "decision=deny"
        )
        #expect(second.status == 409)

        let doneStep = Step(try await flow.submit(try #require(pending.action(kind: "poll"))))
        #expect(doneStep.properties["status"] as? String == "done")
        let done = try await flow.submit(try #require(doneStep.action(kind: "redirect")))
        #expect(Step(done).type == "oauth-authorization-response")
        try await harness.finish()
    }

    @Test func pollUserDeniedEndsInAFailedPollingStep() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await Self.passwordForm(flow, authenticator: "approval")
        let pending = Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": "poll", "password": "poll"]))
        let outbox = try await harness.http.send(.GET, harness.base + "/demo/outbox").json
        let approvalLink = try #require(
            (outbox["messages"] as? [[String: Any]])?.first { $0["kind"] as? String == "approval-link" }?["link"] as? String
        )
        _ = try await harness.http.send(.POST, approvalLink, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "decision=deny")
        let failed = Step(try await flow.submit(try #require(pending.action(kind: "poll"))))
        #expect(failed.properties["status"] as? String == "failed")
        let restart = Step(try await flow.submit(try #require(failed.actions.first)))
        #expect(restart.viewName == "views/select-authenticator/index")
        try await harness.finish()
    }

    @Test func consentUserGetsScopeCheckboxesAndOnlyGrantedScopes() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let form = try await Self.passwordForm(flow)
        let consent = Step(try await flow.submit(try #require(form.action(kind: "login")), ["userName": "consent", "password": "consent"]))
        #expect(consent.type == "user-consent-step")
        let submit = try #require(consent.action(kind: "user-consent"))
        let fields = (submit["model"] as? [String: Any])?["fields"] as? [[String: Any]] ?? []
        let openid = try #require(fields.first { $0["name"] as? String == "consent.scope.openid" })
        #expect(openid["type"] as? String == "checkbox")
        #expect(openid["readonly"] as? Bool == true)
        #expect(openid["checked"] as? Bool == true)
        #expect(fields.contains { $0["name"] as? String == "consent.scope.email" })
        // Uncheck email: submit everything except it.
        let model = submit["model"] as? [String: Any] ?? [:]
        let pairs: [(String, String)] = fields.compactMap { field in
            guard let name = field["name"] as? String, name != "consent.scope.email" else { return nil }
            return (name, field["type"] as? String == "hidden" ? field["value"] as? String ?? "" : "on")
        }
        let done = try await flow.request("POST", model["href"] as? String ?? "", fields: pairs)
        #expect(Step(done).type == "oauth-authorization-response")
        let tokens = try await flow.exchange(done)
        #expect(tokens.json["scope"] as? String == "openid profile")
        try await harness.finish()
    }

    @Test func externalBrowserHandsBackAResumeNonce() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        let selector = try await Self.selector(flow)
        let operationStep = Step(try await flow.submit(try #require(selector.option("external-browser"))))
        let operation = try #require(operationStep.actions.first)
        #expect(operation["template"] as? String == "client-operation")
        let model = operation["model"] as? [String: Any] ?? [:]
        #expect(model["name"] as? String == "external-browser-flow")
        let href = try #require((model["arguments"] as? [String: Any])?["href"] as? String)
        let continueAction = try #require((model["continueActions"] as? [[String: Any]])?.first)

        // The browser part: the client appends its redirect target as redirect_uri.
        let redirectTarget = "https://gateway.example/callback?flow=1"
        let launch = href + "&redirect_uri=" + TestHTTP.formEncode([("x", redirectTarget)]).dropFirst(2)
        let page = try await harness.http.send(.GET, launch)
        #expect(page.status == 200)
        let nonceParameter = try #require(URLComponents(string: href)?.queryItems?.first { $0.name == "_launch_nonce" }?.value)
        let login = try await harness.http.send(
            .POST,
            harness.base + "/authn/authenticate/external-browser/launch",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: TestHTTP.formEncode([
                ("_launch_nonce", nonceParameter), ("redirect_uri", redirectTarget), ("userName", "demo"), ("password", "demo"),
            ])
        )
        #expect(login.status == 303)
        let location = try #require(login.header("Location"))
        #expect(location.hasPrefix("https://gateway.example/callback?flow=1&_resume_nonce="))
        let resumeNonce = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "_resume_nonce" }?.value)

        let wrong = try await flow.submit(continueAction, ["_resume_nonce": "forged"])
        #expect(wrong.json["type"] as? String == "https://curity.se/problems/invalid-input")
        let done = try await flow.submit(continueAction, ["_resume_nonce": resumeNonce])
        #expect(Step(done).type == "oauth-authorization-response")
        #expect(try await flow.exchange(done).status == 200)
        try await harness.finish()
    }
}
