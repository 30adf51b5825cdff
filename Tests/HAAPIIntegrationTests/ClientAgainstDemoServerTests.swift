import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Testing

/// The `HAAPI` client library signing in against the independent demo HAAPI server, over real HTTP on loopback.
@Suite("HAAPI client against the demo server")
struct ClientAgainstDemoServerTests {
    private func withUpstream(
        requireDPoPNonce: Bool = false,
        bindTokensToDPoP: Bool = true,
        clientKeyPath: String? = nil,
        clientAuthentication: ((RunningDemoServer) throws -> ClientAuthentication)? = nil,
        _ body: (DemoUpstream) async throws -> Void
    ) async throws {
        try await DemoUpstream.start(
            requireDPoPNonce: requireDPoPNonce,
            clientAuthentication: clientAuthentication,
            clientKeyPath: clientKeyPath,
            bindTokensToDPoP: bindTokensToDPoP
        ).closing(body)
    }

    /// Signs in as `demo`/`demo` through the redirection-step and continue-same-step, returning the final step.
    private func signInAsDemo(_ walker: SignInWalker) async throws -> Representation {
        let selector = try await walker.start()
        let form = try await walker.chooseAuthenticator("html-form", on: selector)
        #expect(form.stepKind == .interactiveForm)
        #expect(form.links.map(\.rel).contains("forgot-password"))
        let notice = try await walker.submitExpectingStep(.login, on: form, ["userName": "demo", "password": "demo"])
        let copied = try await walker.submitExpectingStep("email-copy", on: notice)
        #expect(copied.type == notice.type, "continue-same-step keeps the previous step")
        #expect(copied.messages.count == notice.messages.count + 1)
        return try await walker.submitExpectingStep(.continue, on: copied)
    }

    /// Against the strict demo, whose nonces are per DPoP key: two flows of one client, interleaved, are each challenged
    /// once (a fresh key has no nonce yet) and never again, because each keeps its own nonce (notes 1.4, [DPOPNONCE]).
    @Test("against the strict demo, interleaved flows keep their own DPoP nonces: one challenge per flow, never more")
    func interleavedFlowsKeepTheirOwnNonces() async throws {
        var quiet = Logger(label: "haapi-demo-server")
        quiet.logLevel = .critical
        let server = try await DemoServer.start(configuration: .strict, logger: quiet)
        let configuration = HAAPIClientConfiguration(
            baseURL: server.issuerURL,
            clientID: DemoServer.clientID,
            clientAuthentication: .secretBasic(DemoServer.clientSecret),
            redirectURI: DemoServer.redirectURI,
            scopes: ["openid"]
        )
        let inner = try AsyncHTTPClientTransport(configuration: configuration)
        let challenges = NonceChallengeCounter()
        let transport = ClosureHAAPITransport { request in
            let response = try await inner.send(request, timeout: .seconds(30), maxBodyBytes: 1 << 20)
            await challenges.record(response)
            return response
        }
        let client = try await HAAPIClient(configuration: configuration, transport: transport)
        let first = SignInWalker(flow: client.makeFlow())
        let second = SignInWalker(flow: client.makeFlow())
        let firstForm = try await first.chooseAuthenticator("html-form", on: try await first.start())
        let secondForm = try await second.chooseAuthenticator("html-form", on: try await second.start())
        let firstNotice = try await first.submitExpectingStep(.login, on: firstForm, ["userName": "demo", "password": "demo"])
        let secondNotice = try await second.submitExpectingStep(.login, on: secondForm, ["userName": "demo", "password": "demo"])
        #expect(try await first.submitExpectingStep(.continue, on: firstNotice).stepKind == .oauthAuthorizationResponse)
        #expect(try await second.submitExpectingStep(.continue, on: secondNotice).stepKind == .oauthAuthorizationResponse)
        #expect(await challenges.count == 2, "one challenge per flow's key, none after")
        try await client.shutdown()
        try await inner.shutdown()
        await server.shutdown()
    }

    @Test("demo/demo signs in, exchanges the code for DPoP-bound tokens, refreshes with rotation and revokes")
    func demoUserFullLifecycle() async throws {
        try await withUpstream { upstream in
            let flow = upstream.client.makeFlow()
            let done = try await signInAsDemo(SignInWalker(flow: flow))
            #expect(done.stepKind == .oauthAuthorizationResponse)
            let authorization = try #require(done.authorizationResponse)
            #expect(authorization.issuer == upstream.server.issuer)

            let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
            #expect(tokens.tokenType == "DPoP")
            #expect(tokens.isDPoPBound && tokens.dpopKey != nil)
            #expect(tokens.idToken != nil && tokens.refreshToken != nil)
            #expect(tokens.scope?.split(separator: " ").contains("openid") == true)

            // The code is single-use on the client side too.
            await #expect(throws: HAAPIError.self) { _ = try await flow.exchangeCode(from: done) }

            let refreshed = try #require(try await upstream.client.tokenManager.refresh(tokens).tokens)
            #expect(refreshed.accessToken != tokens.accessToken)
            #expect(refreshed.refreshToken != tokens.refreshToken)
            #expect(refreshed.dpopKey?.publicJWK == tokens.dpopKey?.publicJWK, "a refresh keeps the DPoP key")

            let fresh = try #require(try await upstream.client.tokenManager.refresh(refreshed).tokens)
            #expect(try await upstream.client.tokenManager.revoke(fresh) == .revoked)
            #expect(try await upstream.client.tokenManager.refresh(fresh).oauthError?.error == "invalid_grant")
        }
    }

    @Test(
        "reusing a rotated refresh token is refused; the confidential client's grant is kept, as Curity revokes on reuse only for public clients"
    )
    func refreshTokenReuseIsRefused() async throws {
        try await withUpstream { upstream in
            let flow = upstream.client.makeFlow()
            let done = try await signInAsDemo(SignInWalker(flow: flow))
            let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
            let refreshed = try #require(try await upstream.client.tokenManager.refresh(tokens).tokens)
            #expect(try await upstream.client.tokenManager.refresh(tokens).oauthError?.error == "invalid_grant")
            #expect(try await upstream.client.tokenManager.refresh(refreshed).tokens != nil)
        }
    }

    @Test("the same sign-in works when the server requires DPoP nonces on every endpoint")
    func demoUserWithDPoPNonces() async throws {
        try await withUpstream(requireDPoPNonce: true) { upstream in
            let flow = upstream.client.makeFlow()
            let done = try await signInAsDemo(SignInWalker(flow: flow))
            let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
            #expect(tokens.tokenType == "DPoP")
            #expect(try await upstream.client.tokenManager.refresh(tokens).tokens != nil)
        }
    }

    @Test("Bearer tokens when the client does not bind final tokens to DPoP")
    func bearerTokensWhenNotBound() async throws {
        try await withUpstream(bindTokensToDPoP: false) { upstream in
            let flow = upstream.client.makeFlow()
            let done = try await signInAsDemo(SignInWalker(flow: flow))
            let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
            #expect(tokens.tokenType == "Bearer")
            #expect(tokens.dpopKey == nil)
        }
    }

    @Test("a wrong password is an incorrect-credentials problem; the form stays usable")
    func wrongPasswordThenRight() async throws {
        try await withUpstream { upstream in
            let flow = upstream.client.makeFlow()
            let walker = SignInWalker(flow: flow)
            let form = try await walker.chooseAuthenticator("html-form", on: try await walker.start())
            let wrong = try await walker.submit(.login, on: form, ["userName": "demo", "password": "nope"])
            #expect(wrong.problem?.kind == .incorrectCredentials)
            #expect(wrong.problem?.messages.isEmpty == false)
            let notice = try await walker.submitExpectingStep(.login, on: form, ["userName": "demo", "password": "demo"])
            #expect(notice.actions.contains { $0.kind == .continue })
        }
    }

    @Test("otp/otp: the code from the outbox signs in; a wrong code is invalid-input naming the field")
    func oneTimeCodeFromOutbox() async throws {
        try await withUpstream { upstream in
            let flow = upstream.client.makeFlow()
            let walker = SignInWalker(flow: flow)
            let form = try await walker.chooseAuthenticator("email", on: try await walker.start())
            let codeForm = try await walker.submitExpectingStep(.login, on: form, ["userName": "otp", "password": "otp"])
            let codeField = try #require(codeForm.actions.first?.form?.fields.first)

            let wrong = try await walker.submit(.login, on: codeForm, [codeField.name: "000000"])
            let problem = try #require(wrong.problem)
            #expect(problem.kind == .invalidInput)
            #expect(problem.invalidFields.map(\.name) == [codeField.name])

            let sent = try await upstream.outbox()
            let code = try #require(sent.first { $0["code"] is String }?["code"] as? String)
            let done = try await walker.submitExpectingStep(.login, on: codeForm, [codeField.name: code])
            #expect(done.stepKind == .oauthAuthorizationResponse)
            #expect(try await flow.exchangeCode(from: done).tokens != nil)
        }
    }

    @Test("poll/poll: pending until approved on the approval page, then done, followed by itself, and signed in")
    func pollingUntilApproved() async throws {
        try await withUpstream { upstream in
            let flow = upstream.client.makeFlow()
            let walker = SignInWalker(flow: flow)
            let form = try await walker.chooseAuthenticator("approval", on: try await walker.start())
            let pending = try await walker.submitExpectingStep(.login, on: form, ["userName": "poll", "password": "poll"])
            #expect(pending.stepKind == .polling)
            #expect(pending.polling?.status == .pending)
            #expect(
                pending.links.contains { $0.rel == "activation" && !$0.isImage },
                "the approval link itself, for the gateway to draw as a QR code"
            )

            let stillPending = try await walker.submitExpectingStep(.poll, on: pending)
            #expect(stillPending.polling?.status == .pending)

            let link = try #require(try await upstream.outbox().first { $0["link"] is String }?["link"] as? String)
            try await upstream.decideApproval(link: link, approve: true)
            // The poll answered "done": the flow follows its main action by itself (followAutomaticSteps).
            let done = try await walker.submitExpectingStep(.poll, on: stillPending)
            #expect(done.stepKind == .oauthAuthorizationResponse)
        }
    }

    @Test("poll/poll denied: the polling step fails with a message")
    func pollingDenied() async throws {
        try await withUpstream { upstream in
            let walker = SignInWalker(flow: upstream.client.makeFlow())
            let form = try await walker.chooseAuthenticator("approval", on: try await walker.start())
            let pending = try await walker.submitExpectingStep(.login, on: form, ["userName": "poll", "password": "poll"])
            let link = try #require(try await upstream.outbox().first { $0["link"] is String }?["link"] as? String)
            try await upstream.decideApproval(link: link, approve: false)
            let failed = try await walker.submitExpectingStep(.poll, on: pending)
            #expect(failed.polling?.status == .failed)
            #expect(failed.messages.contains { $0.classList.contains("error") })
        }
    }

    @Test("consent/consent: the user-consent step's scopes can be narrowed, and the token carries what was granted")
    func consentNarrowsScopes() async throws {
        try await withUpstream { upstream in
            let flow = upstream.client.makeFlow()
            let walker = SignInWalker(flow: flow)
            let form = try await walker.chooseAuthenticator("html-form", on: try await walker.start())
            let consent = try await walker.submitExpectingStep(.login, on: form, ["userName": "consent", "password": "consent"])
            #expect(consent.stepKind == .userConsent)
            let fields = try #require(consent.actions.first { $0.kind == .userConsent }?.form?.fields)
            let boxes = fields.filter { $0.type == .checkbox }
            #expect(boxes.count == 3)
            // Grant everything except `email`: a browser leaves an unchecked box out of the form.
            var granted: [String: String] = [:]
            for box in boxes where box.label != "email" { granted[box.name] = box.value ?? "on" }
            let done = try await walker.submitExpectingStep(.userConsent, on: consent, granted)
            let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
            let scopes = Set((tokens.scope ?? "").split(separator: " ").map(String.init))
            #expect(scopes.contains("openid") && scopes.contains("profile"))
            #expect(!scopes.contains("email"))
        }
    }

    @Test("external browser: the client operation's page hands back a resume nonce that continues the flow")
    func externalBrowserResume() async throws {
        try await withUpstream { upstream in
            let flow = upstream.client.makeFlow()
            let walker = SignInWalker(flow: flow)
            let operationStep = try await walker.chooseAuthenticator("external-browser", on: try await walker.start())
            #expect(operationStep.stepKind == .externalBrowserClientOperation)
            let operation = try #require(operationStep.actions.compactMap(\.clientOperation).first)
            let href = try #require(operation.arguments?["href"]?.stringValue)
            let nonce = try await upstream.externalBrowserLogin(
                launchHref: href,
                redirectTarget: "https://gateway.example/resume",
                username: "demo",
                password: "demo"
            )
            let resumeNonce = try #require(nonce)
            let continueAction = try #require(operation.continueActions.first)
            let done = try await walker.submit(continueAction, ["_resume_nonce": resumeNonce])
            #expect(done.stepKind == .oauthAuthorizationResponse)
        }
    }

    @Test("private_key_jwt client authentication with the demo client's key")
    func privateKeyJWT() async throws {
        let keyPath = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-it-\(UUID().uuidString)/client.pem").path
        defer { try? FileManager.default.removeItem(atPath: (keyPath as NSString).deletingLastPathComponent) }
        try await withUpstream(
            clientKeyPath: keyPath,
            clientAuthentication: { server in
                .privateKeyJWT(privateKeyPEM: try String(contentsOfFile: try #require(server.clientKeyPath), encoding: .utf8))
            }
        ) { upstream in
            let flow = upstream.client.makeFlow()
            let done = try await signInAsDemo(SignInWalker(flow: flow))
            let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
            #expect(try await upstream.client.tokenManager.refresh(tokens).tokens != nil)
        }
    }

    @Test("a wrong client secret fails at the first HAAPI token request with a clear error")
    func wrongClientSecret() async throws {
        try await withUpstream(clientAuthentication: { _ in .secretBasic("not-the-secret") }) { upstream in
            let flow = upstream.client.makeFlow()
            await #expect(throws: HAAPIError.self) { _ = try await flow.start() }
        }
    }

    @Test("two flows are independent: each has its own DPoP key and session")
    func flowsAreIsolated() async throws {
        try await withUpstream { upstream in
            let first = upstream.client.makeFlow()
            let second = upstream.client.makeFlow()
            #expect(first.dpopPublicJWK != second.dpopPublicJWK)
            let doneFirst = try await signInAsDemo(SignInWalker(flow: first))
            let doneSecond = try await signInAsDemo(SignInWalker(flow: second))
            await #expect(throws: HAAPIError.self) { _ = try await second.exchangeCode(from: doneFirst) }
            #expect(try await second.exchangeCode(from: doneSecond).tokens != nil)
        }
    }
}
