import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPI

/// The flow against an in-test HTTP server: DPoP, nonces, tokens, headers and faults.
@Suite struct HAAPIFlowHTTPTests {
    typealias Up = TestUpstream

    /// Token endpoint issues tokens; authorize answers `authorize`; login answers a login step.
    static func standard(authorize: ScriptedReply = .step(Up.loginStep)) -> @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply {
        { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: authorize
            default: .step(Up.loginStep)
            }
        }
    }

    static func proofClaims(_ request: RecordedRequest) throws -> [String: Any] {
        try IndependentJWSVerifier.verifyWithEmbeddedJWK(try #require(request.header("DPoP"))).claims
    }

    @Test func startSendsAuthorizeRequestWithHAAPIHeadersPKCEAndExtraParameters() async throws {
        try await ScriptedUpstream.run(Self.standard()) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let response = try await flow.start(acceptLanguage: "sv-SE, en;q=0.5")
            #expect(response.representation?.stepKind == .interactiveForm)
            #expect(await flow.currentStep?.stepKind == .interactiveForm)

            let token = try #require(await log.requests(path: Up.tokenPath).first)
            #expect(token.formValues["grant_type"] == "client_credentials")
            #expect(token.formValues["scope"] == "urn:se:curity:scopes:haapi")
            let tokenProof = try Self.proofClaims(token)
            #expect(tokenProof["htm"] as? String == "POST")
            #expect(tokenProof["htu"] as? String == base.absoluteString + Up.tokenPath)
            #expect(tokenProof["ath"] == nil)

            let authorize = try #require(await log.requests(path: Up.authorizePath).first)
            #expect(authorize.header("Accept") == "application/vnd.auth+json")
            #expect(authorize.header("Authorization") == "DPoP haapi-token-1")
            #expect(authorize.header("Accept-Language") == "sv-SE, en;q=0.5")
            let query = authorize.queryValues
            #expect(query["client_id"] == "demo-gateway")
            #expect(query["response_type"] == "code")
            #expect(query["redirect_uri"] == "haapi:start")
            #expect(query["scope"] == "openid profile")
            #expect(query["code_challenge_method"] == "S256")
            #expect(query["code_challenge"]?.count == 43)
            #expect((query["state"]?.count ?? 0) >= 32)
            #expect((query["nonce"]?.count ?? 0) >= 32)
            #expect(query["acr_values"] == "urn:acr:pw")
            #expect(query["prompt"] == "login")
            #expect(query["ui_locales"] == "sv en")
            #expect(query["login_hint"] == "demo")
            #expect(query["max_age"] == "300")
            #expect(query["claims"] == #"{"id_token":{"email":null}}"#)
            let proof = try Self.proofClaims(authorize)
            #expect(proof["htm"] as? String == "GET")
            #expect(proof["htu"] as? String == base.absoluteString + Up.authorizePath)
            #expect(proof["ath"] as? String == IndependentJWSVerifier.sha256Base64URL("haapi-token-1"))
        }
    }

    @Test func haapiTokenIsReusedAcrossCallsOfAFlowAndEachFlowHasItsOwnKey() async throws {
        try await ScriptedUpstream.run(Self.standard()) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            _ = try await flow.start()
            _ = try await flow.submitForm(try Up.loginAction(), parameters: ["userName": "demo", "password": "demo"])
            #expect(await log.requests(path: Up.tokenPath).count == 1)
            let other = client.makeFlow()
            _ = try await other.start()
            #expect(await log.requests(path: Up.tokenPath).count == 2)
            #expect(flow.dpopPublicJWK != other.dpopPublicJWK)
            var keys = Set<String>()
            for request in await log.requests where request.path != Up.tokenPath {
                let proof = try #require(request.header("DPoP"))
                let jwk = try IndependentJWSVerifier.verifyWithEmbeddedJWK(proof).header["jwk"] as? [String: String]
                keys.insert(jwk?["x"] ?? "")
            }
            #expect(keys.count == 2)
        }
    }

    @Test func tokenCloseToExpiryIsReplacedBeforeUseAndAFlowStartsOnlyOnce() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, log in
            if request.path == Up.tokenPath {
                let issued = await log.requests(path: Up.tokenPath).count
                return .haapiToken("short-lived-\(issued)", expiresIn: 20)
            }
            return .step(Up.loginStep)
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)  // refresh margin 30 s > lifetime 20 s
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            _ = try await flow.start()
            _ = try await flow.submitForm(try Up.loginAction(), parameters: [:])
            #expect(await log.requests(path: Up.tokenPath).count == 2)
            #expect(await log.requests(path: Up.loginPath).first?.header("Authorization") == "DPoP short-lived-2")
            let error = await #expect(throws: HAAPIError.self) { try await flow.start() }
            #expect(error?.code == .invalidParameters)
        }
    }

    @Test func tokenEndpointNonceChallengeIsAnsweredWithOneRetry() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, log in
            if request.path == Up.tokenPath {
                if await log.requests(path: Up.tokenPath).count == 1 {
                    return .json(
                        400,
                        #"{"error":"use_dpop_nonce","error_description":"nonce required"}"#,
                        headers: [("DPoP-Nonce", "server-nonce-1")]
                    )
                }
                return .haapiToken()
            }
            return .step(Up.loginStep)
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            _ = try await client.makeFlow().start()
            let tokenRequests = await log.requests(path: Up.tokenPath)
            #expect(tokenRequests.count == 2)
            #expect(try Self.proofClaims(tokenRequests[0])["nonce"] == nil)
            #expect(try Self.proofClaims(tokenRequests[1])["nonce"] as? String == "server-nonce-1")
            #expect(try Self.proofClaims(tokenRequests[0])["jti"] as? String != Self.proofClaims(tokenRequests[1])["jti"] as? String)
            // The nonce is remembered for the origin and used on the HAAPI call too.
            let authorize = try #require(await log.requests(path: Up.authorizePath).first)
            #expect(try Self.proofClaims(authorize)["nonce"] as? String == "server-nonce-1")
        }
    }

    @Test func secondTokenEndpointNonceChallengeIsDPoPRejected() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            request.path == Up.tokenPath
                ? .json(400, #"{"error":"use_dpop_nonce"}"#, headers: [("DPoP-Nonce", "n-\(UUID().uuidString)")]) : .step(Up.loginStep)
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .dpopRejected)
            #expect(await log.requests(path: Up.tokenPath).count == 2)
            #expect(await log.requests(path: Up.authorizePath).isEmpty)
        }
    }

    @Test func haapiCallNonceChallengeIsAnsweredWithOneRetry() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, log in
            switch request.path {
            case Up.tokenPath: return .haapiToken()
            case Up.authorizePath:
                if await log.requests(path: Up.authorizePath).count == 1 {
                    return ScriptedReply(
                        status: 401,
                        headers: [
                            ("WWW-Authenticate", #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce""#),
                            ("DPoP-Nonce", "rs-nonce"),
                        ]
                    )
                }
                return .step(Up.loginStep, headers: [("DPoP-Nonce", "rs-nonce-2")])
            default:
                return .step(Up.loginStep)
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let response = try await flow.start()
            #expect(response.representation != nil)
            let attempts = await log.requests(path: Up.authorizePath)
            #expect(attempts.count == 2)
            #expect(try Self.proofClaims(attempts[1])["nonce"] as? String == "rs-nonce")
            // The nonce from the successful answer is used next.
            _ = try await flow.submitForm(try Up.loginAction(), parameters: ["userName": "a"])
            let login = try #require(await log.requests(path: Up.loginPath).first)
            #expect(try Self.proofClaims(login)["nonce"] as? String == "rs-nonce-2")
        }
    }

    @Test func secondHAAPICallNonceChallengeIsDPoPRejected() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            request.path == Up.tokenPath
                ? .haapiToken()
                : ScriptedReply(status: 401, headers: [("WWW-Authenticate", #"DPoP error="use_dpop_nonce""#), ("DPoP-Nonce", "again")])
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .dpopRejected)
            #expect(await log.requests(path: Up.authorizePath).count == 2)
        }
    }

    @Test func expiredHAAPITokenIsFetchedAgainOnceTransparently() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, log in
            switch request.path {
            case Up.tokenPath:
                let issued = await log.requests(path: Up.tokenPath).count
                return .haapiToken("haapi-token-\(issued)")
            case Up.authorizePath where request.header("Authorization") == "DPoP haapi-token-1":
                return ScriptedReply(status: 401, headers: [("WWW-Authenticate", #"DPoP error="invalid_token", error_description="expired""#)])
            default:
                return .step(Up.loginStep)
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let response = try await client.makeFlow().start()
            #expect(response.representation?.stepKind == .interactiveForm)
            #expect(await log.requests(path: Up.tokenPath).count == 2)
            let attempts = await log.requests(path: Up.authorizePath)
            #expect(attempts.map { $0.header("Authorization") } == ["DPoP haapi-token-1", "DPoP haapi-token-2"])
            #expect(try Self.proofClaims(attempts[1])["ath"] as? String == IndependentJWSVerifier.sha256Base64URL("haapi-token-2"))
        }
    }

    @Test func tokenRejectedTwiceIsDPoPRejectedAfterExactlyOneRefetch() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            request.path == Up.tokenPath ? .haapiToken() : ScriptedReply(status: 401, headers: [("WWW-Authenticate", #"DPoP error="invalid_token""#)])
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .dpopRejected)
            #expect(await log.requests(path: Up.tokenPath).count == 2)
            #expect(await log.requests(path: Up.authorizePath).count == 2)
        }
    }

    @Test func serverErrorBecomesUpstreamStatusError() async throws {
        try await ScriptedUpstream.run(Self.standard(authorize: .json(503, "<html>Service Unavailable</html>", contentType: "text/html"))) {
            base,
            _ in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .upstreamStatus)
            #expect(error?.status == 503)
            #expect(error?.contentType == "text/html")
        }
    }

    @Test func malformedJSONBecomesMalformedResponseError() async throws {
        try await ScriptedUpstream.run(Self.standard(authorize: .step(#"{"type":"authentication-step","actions":[{"#))) { base, _ in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .malformedResponse)
            #expect(error?.contentType == "application/vnd.auth+json")
        }
    }

    @Test func htmlPageFromAProxyBecomesMalformedResponseWithContentType() async throws {
        try await ScriptedUpstream.run(
            Self.standard(authorize: .json(200, "<html><body>Login</body></html>", contentType: "text/html; charset=utf-8"))
        ) { base, _ in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .malformedResponse)
            #expect(error?.contentType == "text/html; charset=utf-8")
        }
    }

    @Test func truncatedBodyBecomesAnErrorNotACrashOrHang() async throws {
        var reply = ScriptedReply.step(Up.loginStep)
        reply.truncateAfterBytes = 20
        let truncated = reply
        try await ScriptedUpstream.run(Self.standard(authorize: truncated)) { base, _ in
            // A long timeout: the error must come from the truncation, not from waiting it out. The bound is half of it: a
            // flow's start is a few exchanges, which took 10-14 s on a machine running every suite at once.
            let client = try await Up.client(base) { $0.requestTimeout = .seconds(60) }
            defer { Task { try? await client.shutdown() } }
            let started = ContinuousClock.now
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .malformedResponse || error?.code == .transport)
            #expect(ContinuousClock.now - started < .seconds(30), "\(MachineLoad.description)")
        }
    }

    @Test func oversizedBodyIsRefused() async throws {
        let big = #"{"type":"authentication-step","pad":""# + String(repeating: "x", count: 5000) + #""}"#
        try await ScriptedUpstream.run(Self.standard(authorize: .step(big))) { base, _ in
            let client = try await Up.client(base) { $0.maxResponseBodyBytes = 1000 }
            defer { Task { try? await client.shutdown() } }
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .malformedResponse)
        }
    }

    @Test func slowUpstreamTimesOutWithinTheConfiguredTimeout() async throws {
        var slow = ScriptedReply.step(Up.loginStep)
        slow.delay = .seconds(20)
        let reply = slow
        try await ScriptedUpstream.run(Self.standard(authorize: reply)) { base, _ in
            let client = try await Up.client(base) { $0.requestTimeout = .milliseconds(500) }
            defer { Task { try? await client.shutdown() } }
            let started = ContinuousClock.now
            let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
            #expect(error?.code == .timeout)
            // Long before the 20 s reply; the slack absorbs a loaded machine (the whole suite starting at once on two cores
            // took 6.4 s and 7.7 s here).
            let took = ContinuousClock.now - started
            #expect(took < .seconds(15), "\(MachineLoad.waited(took, for: "a 500 ms request timeout"))")
        }
    }

    @Test func deadUpstreamIsAConnectionRefusedErrorQuickly() async throws {
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        // A refused connection fails at once (no reconnect backoff in the transport's pool).
        let client = try await Up.client(base) { $0.requestTimeout = .seconds(1) }
        defer { Task { try? await client.shutdown() } }
        let started = ContinuousClock.now
        let error = await #expect(throws: HAAPIError.self) { try await client.makeFlow().start() }
        // Named for what it is, not a timeout.
        #expect(error?.code == .connectionRefused, "\(String(describing: error))")
        // Not a hang; the slack absorbs a 2-core machine running the whole suite.
        let took = ContinuousClock.now - started
        #expect(took < .seconds(30), "\(MachineLoad.waited(took, for: "a refused connection's error"))")
    }

    @Test func offOriginHrefsAreRefusedAndNothingIsSent() async throws {
        let evilForm =
            #"{"type":"authentication-step","actions":[{"template":"form","kind":"login","model":{"href":"https://evil.example/collect","method":"POST","fields":[{"name":"password","type":"password"}]}},{"template":"form","kind":"login","model":{"href":"file:///etc/passwd","method":"GET"}},{"template":"form","kind":"login","model":{"href":"//evil.example/x","method":"GET"}}]}"#
        try await ScriptedUpstream.run(Self.standard(authorize: .step(evilForm))) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let step = try #require(try await flow.start().representation)
            let before = await log.count
            for action in step.actions {
                let error = await #expect(throws: HAAPIError.self) { try await flow.submitForm(action, parameters: [:]) }
                #expect(error?.code == .offOriginHref)
            }
            let login = try JSONDecoder().decode(JSONValue.self, from: Data(Up.loginStep.utf8))
            let links = try Representation(json: login).links
            for link in links where link.rel != "forgot-password" {
                let error = await #expect(throws: HAAPIError.self) { try await flow.followLink(link) }
                #expect(error?.code == .offOriginHref)
                #expect(error?.message.contains("steal") == false)
            }
            #expect(await log.count == before)
            // A same-origin relative link is followed.
            _ = try await flow.followLink(try #require(links.first { $0.rel == "forgot-password" }))
            #expect(await log.requests(path: "/authn/forgot").count == 1)
        }
    }

    @Test func sessionIdIsKeptAndSentBackOnTheFlowsRequestsOnly() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath:
                .step(Up.loginStep, headers: [("Set-Session-Id", "session-\(request.queryValues["state"].map { String($0.prefix(4)) } ?? "")")])
            default: .step(Up.loginStep)
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            _ = try await flow.start()
            #expect(await log.requests(path: Up.authorizePath).first?.header("Session-Id") == nil)
            _ = try await flow.submitForm(try Up.loginAction(), parameters: ["userName": "demo", "password": "pw"], acceptLanguage: "de")
            let authorizeState = await log.requests(path: Up.authorizePath).first?.queryValues["state"].map { String($0.prefix(4)) } ?? ""
            let login = try #require(await log.requests(path: Up.loginPath).first)
            #expect(login.header("Session-Id") == "session-\(authorizeState)")
            #expect(login.header("Accept-Language") == "de")
            // Another flow never gets this flow's session.
            let other = client.makeFlow()
            _ = try await other.start()
            _ = try await other.submitForm(try Up.loginAction(), parameters: [:])
            let second = await log.requests(path: Up.loginPath)[1]
            #expect(second.header("Session-Id") != login.header("Session-Id"))
        }
    }

    @Test func formSubmissionMergesHiddenFieldsAndRefusesUndeclaredNames() async throws {
        try await ScriptedUpstream.run(Self.standard()) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            _ = try await flow.start()
            let action = try Up.loginAction()
            let before = await log.count
            let error = await #expect(throws: HAAPIError.self) {
                try await flow.submitForm(action, parameters: ["userName": "demo", "isAdmin": "true", "redirect": "x"])
            }
            #expect(error?.code == .invalidParameters)
            #expect(error?.problems.count == 2)
            #expect(error?.problems.joined().contains("isAdmin") == true)
            #expect(await log.count == before)

            _ = try await flow.submitForm(action, parameters: ["userName": "demo user", "password": "p&ss=1", "flowHint": "attacker-value"])
            let login = try #require(await log.requests(path: Up.loginPath).first)
            #expect(login.method == "POST")
            #expect(login.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(login.formValues == ["userName": "demo user", "password": "p&ss=1", "flowHint": "server-value"])
            #expect(try Self.proofClaims(login)["htu"] as? String == base.absoluteString + Up.loginPath)
        }
    }

    @Test func redirectionStepsAreFollowedAutomaticallyWhenAskedAndBounded() async throws {
        let loop = #"{"type":"redirection-step","actions":[{"template":"form","kind":"redirect","model":{"href":"/loop","method":"GET"}}]}"#
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: .step(Up.redirectionStep)
            case Up.loginPath: .step(Up.loginStep)
            default: .step(loop)
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base) { $0.maxAutomaticSteps = 3 }
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let first = try await flow.start()
            #expect(first.representation?.stepKind == .redirection)
            let followed = try await flow.followAutomaticSteps(from: first)
            #expect(followed.representation?.stepKind == .interactiveForm)
            let login = try #require(await log.requests(path: Up.loginPath).first)
            #expect(login.method == "GET" && login.query == "from=authorize")

            let loopingFlow = client.makeFlow()
            let loopStep = try ModelEdgeCaseTests.step(loop)
            let error = await #expect(throws: HAAPIError.self) {
                try await loopingFlow.followAutomaticSteps(from: .representation(loopStep))
            }
            #expect(error?.code == .tooManyRedirects)
            #expect(await log.requests(path: "/loop").count == 3)
        }
    }

    /// Curity's own `done` polling step (`samples/polling-duo-done.json`, its host replaced by the test upstream's): the
    /// flow follows its main action by itself, posting the hidden `moveOn=true` (notes 3.7), bounded with redirections.
    @Test func aFinishedPollingStepIsFollowedByItsMainActionWithinTheSameBound() async throws {
        let sample = try String(contentsOf: try Fixture.samplesDirectory().appendingPathComponent("polling-duo-done.json"), encoding: .utf8)
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case "/dev/authn/authenticate/duo1/device-poller" where request.formValues["moveOn"] == "true": .step(Up.loginStep)
            default: .step(sample.replacingOccurrences(of: "https://d3dd92f30197.ngrok.io", with: ""))
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let done = sample.replacingOccurrences(of: "https://d3dd92f30197.ngrok.io", with: base.absoluteString.trimmingCharacters(in: ["/"]))
            let client = try await Up.client(base) { $0.maxAutomaticSteps = 3 }
            defer { Task { try? await client.shutdown() } }
            let followed = try await client.makeFlow().followAutomaticSteps(from: .representation(try ModelEdgeCaseTests.step(done)))
            #expect(followed.representation?.stepKind == .interactiveForm, "done: the main action was followed")
            let moveOn = try #require(await log.requests(path: "/dev/authn/authenticate/duo1/device-poller").first)
            #expect(moveOn.method == "POST" && moveOn.formValues == ["moveOn": "true"])
        }
        let again =
            #"{"type":"polling-step","properties":{"status":"done"},"actions":[{"template":"form","kind":"redirect","model":{"href":"/again","method":"POST"}}]}"#
        try await ScriptedUpstream.run({ request, _ in request.path == Up.tokenPath ? .haapiToken() : .step(again) }) { base, log in
            let client = try await Up.client(base) { $0.maxAutomaticSteps = 3 }
            defer { Task { try? await client.shutdown() } }
            // A server answering "done" again and again is bounded like redirections.
            let error = await #expect(throws: HAAPIError.self) {
                try await client.makeFlow().followAutomaticSteps(from: .representation(try ModelEdgeCaseTests.step(again)))
            }
            #expect(error?.code == .tooManyRedirects)
            #expect(await log.requests(path: "/again").count == 3)
        }
    }

    @Test func continueSameStepKeepsThePreviousStepAndAddsItsMessages() async throws {
        let continueSame = #"{"type":"continue-same-step","messages":[{"text":"SMS sent","classList":["info"]}]}"#
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: .step(Up.loginStep)
            default: .step(continueSame)
            }
        }
        try await ScriptedUpstream.run(handler) { base, _ in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let first = try #require(try await flow.start().representation)
            let raw = try await flow.submitForm(try Up.loginAction(), parameters: ["userName": "x"])
            #expect(raw.representation?.stepKind == .continueSame)
            #expect(await flow.currentStep == first)
            let merged = try await flow.followAutomaticSteps(from: raw)
            #expect(merged.representation?.stepKind == .interactiveForm)
            #expect(merged.representation?.messages.map(\.text) == ["SMS sent"])
            #expect(merged.representation?.actions == first.actions)
        }
    }

    /// The address of a step's action storage: equal for two steps only when they share it.
    private static func storage(of step: Representation?) -> UnsafeRawPointer? {
        step?.actions.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func flowsOfAClientShareAStepTheyReceivedByteForByteOnlyWhenAskedTo() async throws {
        try await ScriptedUpstream.run(Self.standard()) { base, _ in
            let sharing = try await Up.client(base) { $0.sharedStepCacheSize = 4 }
            let separate = try await Up.client(base)
            defer {
                Task {
                    try? await sharing.shutdown()
                    try? await separate.shutdown()
                }
            }
            let first = sharing.makeFlow(), second = sharing.makeFlow()
            _ = try await first.start()
            _ = try await second.start()
            let shared = await Self.storage(of: first.currentStep)
            #expect(shared != nil)
            #expect(await Self.storage(of: second.currentStep) == shared, "the second flow holds the first one's copy")
            #expect(await first.currentStep == second.currentStep)
            // A problem is never shared, and a step differing by one byte is decoded on its own.
            let third = separate.makeFlow(), fourth = separate.makeFlow()
            _ = try await third.start()
            _ = try await fourth.start()
            #expect(await Self.storage(of: third.currentStep) != Self.storage(of: fourth.currentStep))
        }
    }

    @Test func theStepCacheKeepsAtMostItsCapacityReusedStepsLongestAndNoAuthorizationResponse() throws {
        let cache = SharedStepCache(capacity: 2)
        func body(_ title: String) -> Data {
            Data(
                #"{"type":"authentication-step","actions":[{"template":"form","kind":"login","title":"\#(title)","model":{"href":"/a","method":"POST"}}]}"#
                    .utf8
            )
        }
        func decode(_ data: Data, status: Int = 200) throws -> HAAPIResponse {
            try cache.decode(status: status, contentType: "application/vnd.auth+json", body: data, keepingRawJSON: false)
        }
        let a = try decode(body("a"))
        #expect(try decode(body("b")).representation?.actions.first?.title == "b", "a body differing in one byte is its own step")
        #expect(try decode(body("a")) == a, "a is reused")
        _ = try decode(body("c"))
        #expect(cache.count == 2)
        #expect(cache.contains(status: 200, contentType: "application/vnd.auth+json", body: body("a")), "a was reused: b made room")
        #expect(!cache.contains(status: 200, contentType: "application/vnd.auth+json", body: body("b")))
        _ = try decode(body("d"))
        #expect(!cache.contains(status: 200, contentType: "application/vnd.auth+json", body: body("a")), "a's second chance was used up")
        let authorization = Data(#"{"type":"oauth-authorization-response","properties":{"code":"c-1","state":"s"}}"#.utf8)
        _ = try decode(authorization)
        #expect(!cache.contains(status: 200, contentType: "application/vnd.auth+json", body: authorization), "authorization responses are not kept")
        let problem = Data(#"{"type":"https://curity.se/problems/invalid-input","title":"Invalid"}"#.utf8)
        _ = try decode(problem, status: 400)
        #expect(cache.count == 2, "problems are not kept")
        let big = Data(
            #"{"type":"authentication-step","messages":[{"text":"\#(String(repeating: "x", count: SharedStepCache.maximumBodyBytes))"}]}"#.utf8
        )
        _ = try decode(big)
        #expect(cache.count == 2, "bodies over the limit are not kept")
    }
}

/// Logging never carries secrets, even at trace level.
@Suite struct LoggingTests {
    @Test func fullFlowLogsNoTokenSecretCodeOrProof() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case TestUpstream.tokenPath:
                if request.formValues["grant_type"] == "client_credentials" { return .haapiToken("haapi-secret-token") }
                return .json(
                    200,
                    #"{"access_token":"final-secret-at","token_type":"Bearer","refresh_token":"final-secret-rt","id_token":"final-secret-id"}"#
                )
            case TestUpstream.authorizePath:
                return .step(
                    TestUpstream.authorizationResponseStep(state: request.queryValues["state"] ?? "", code: "secret-code-1"),
                    headers: [("Set-Session-Id", "secret-session")]
                )
            default:
                return .step(TestUpstream.loginStep)
            }
        }
        let capture = LogCapture()
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await HAAPIClient(
                configuration: TestUpstream.configuration(base, authentication: .secretPost("client-secret-value")),
                logger: capture.logger
            )
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let step = try #require(try await flow.start().representation)
            _ = try await flow.exchangeCode(from: step)
            let proofs = await log.requests.compactMap { $0.header("DPoP") }
            let lines = capture.all
            #expect(!lines.isEmpty)
            let secrets = ["haapi-secret-token", "final-secret", "secret-code-1", "client-secret-value", "secret-session", "code_verifier"] + proofs
            for secret in secrets {
                #expect(
                    !lines.contains { $0.contains(secret) },
                    "a log line contains \(secret.prefix(12)): \(lines.first { $0.contains(secret) }?.prefix(300) ?? "")"
                )
            }
        }
    }
}
