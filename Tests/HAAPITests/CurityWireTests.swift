import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPI

/// The wire as Curity's own sources describe it (notes 1.4, 2.3, 3.2, 5; docs/curity-compatibility.md): the session id
/// from `Set-Session-Id`, upstream cookies per flow, DPoP nonces per flow, token-bound authorization codes and
/// continue-same-step, each against a scripted upstream that answers the way Curity does.
@Suite struct CurityWireTests {
    typealias Up = TestUpstream

    /// A login step whose form has continue actions (Duo's "send SMS" then "enter passcode").
    static let sendCodeStep = #"""
        {"type":"authentication-step","messages":[{"text":"Second factor","classList":["heading"]}],"actions":[{"template":"form","kind":"login","title":"We will text a code","model":{"href":"/authn/sms/send","method":"POST","actionTitle":"Send code","fields":[{"name":"device","type":"hidden","value":"d1"}],"continueActions":[{"template":"form","kind":"login","title":"Enter the code","model":{"href":"/authn/sms/verify","method":"POST","actionTitle":"Verify","fields":[{"name":"otp","type":"text","kind":"number"}],"continueActions":[{"template":"form","kind":"login","model":{"href":"/authn/sms/verify-again","method":"POST","actionTitle":"Verify again","fields":[]}}]}}]}}]}
        """#

    static func continueSame(_ text: String) -> ScriptedReply {
        .step(#"{"type":"continue-same-step","messages":[{"text":"\#(text)","classList":["info"]}]}"#)
    }

    @Test func sessionIdComesFromSetSessionIdAndTheLatestValueIsSentBack() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, log in
            switch request.path {
            case Up.tokenPath: return .haapiToken()
            case Up.authorizePath: return .step(Up.loginStep, headers: [("Set-Session-Id", "first")])
            // Curity may send a new value; the latest one is kept.
            case Up.loginPath where await log.requests(path: Up.loginPath).count == 1:
                return .step(Up.loginStep, headers: [("Set-Session-Id", "second")])
            // A response with both headers: Set-Session-Id wins.
            default: return .step(Up.loginStep, headers: [("Set-Session-Id", "third"), ("Session-Id", "ignored")])
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            _ = try await flow.start()
            for _ in 0..<3 { _ = try await flow.submitForm(try Up.loginAction(), parameters: ["userName": "demo", "password": "pw"]) }
            #expect(await log.requests(path: Up.loginPath).map { $0.header("Session-Id") } == ["first", "second", "third"])
        }
    }

    @Test func aSessionIdResponseHeaderIsOnlyAFallback() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: .step(Up.loginStep, headers: [("Session-Id", "older-servers")])
            default: .step(Up.loginStep)
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            _ = try await flow.start()
            _ = try await flow.submitForm(try Up.loginAction(), parameters: [:])
            #expect(await log.requests(path: Up.loginPath).first?.header("Session-Id") == "older-servers")
        }
    }

    @Test func upstreamCookiesAreKeptPerFlowAndSentBackByRFC6265Rules() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, log in
            switch request.path {
            case Up.tokenPath: return .haapiToken()
            case Up.authorizePath:
                let node = "node-\(await log.requests(path: Up.authorizePath).count)"
                return .step(
                    Up.loginStep,
                    headers: [
                        ("Set-Session-Id", "s"), ("Set-Cookie", "lb=\(node); Path=/; HttpOnly; SameSite=Lax"),
                        ("Set-Cookie", "elsewhere=1; Path=/other"),
                        ("Set-Cookie", "tls-only=1; Secure"), ("Set-Cookie", "foreign=1; Domain=evil.example"), ("Set-Cookie", "gone=1; Max-Age=0"),
                        ("Set-Cookie", "oauth=1"),
                    ]
                )
            default:
                return .step(Up.loginStep, headers: [("Set-Cookie", "oauth=2; Path=/oauth; Max-Age=0")])
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let other = client.makeFlow()
            _ = try await flow.start()
            _ = try await other.start()
            _ = try await flow.submitForm(try Up.loginAction(), parameters: [:])
            _ = try await other.submitForm(try Up.loginAction(), parameters: [:])
            _ = try await flow.submitForm(try Up.loginAction(), parameters: [:])
            let logins = await log.requests(path: Up.loginPath).map { $0.header("Cookie") }
            // `oauth` has the default path of /oauth/authorize (/oauth): not sent to /authn/login.
            #expect(logins == ["lb=node-1", "lb=node-2", "lb=node-1"])
            // The HAAPI token request of a flow goes to /oauth/token, where the default-path cookie matches; it was
            // fetched before any cookie was set.
            #expect(await log.requests(path: Up.tokenPath).allSatisfy { $0.header("Cookie") == nil })
        }
    }

    @Test func cookieJarFollowsRFC6265() throws {
        var jar = UpstreamCookieJar()
        let url = try #require(URL(string: "https://login.example.com/oauth/v2/oauth-authorize?x=1"))
        jar.receive(
            [
                "a=1", "b=2; Path=/authn", "c=3; Domain=.example.com", "d=4; Domain=other.example", "e=5; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
                "f=6; Max-Age=3600; Secure", "=7", "g", "h=8; Path=/authn/login",
            ],
            from: url
        )
        func header(_ text: String) throws -> String? { jar.cookieHeader(for: try #require(URL(string: text))) }
        #expect(try header("https://login.example.com/oauth/v2/token") == "a=1; c=3; f=6")
        #expect(try header("https://login.example.com/authn/login/x") == "h=8; b=2")
        #expect(try header("https://login.example.com/authnx") == nil)
        #expect(try header("http://login.example.com/oauth/v2/token") == "a=1; c=3")
        #expect(try header("https://sub.example.com/oauth/v2/x") == "c=3")
        #expect(try header("https://example.org/") == nil)
        // Replacing keeps the order of creation; Max-Age=0 removes.
        jar.receive(["a=9", "c=; Domain=example.com; Max-Age=0"], from: url)
        #expect(try header("https://login.example.com/oauth/v2/token") == "a=9; f=6")
        // Bounded: the oldest go first.
        for index in 0..<60 { jar.receive(["n\(index)=x; Path=/bounded"], from: url) }
        let bounded = try #require(try header("https://login.example.com/bounded"))
        #expect(bounded.split(separator: ";").count == UpstreamCookieJar.maximumCookies)
        #expect(!bounded.contains("a=9") && bounded.contains("n59=x"))
    }

    /// A server that scopes nonces to the DPoP key (as a strict Curity could): a flow that used another flow's nonce
    /// would be challenged again, and after one retry fail.
    @Test func dpopNoncesArePerFlowSoConcurrentFlowsNeverUseEachOthers() async throws {
        let nonces = NonceBook()
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            guard let proof = request.header("DPoP"), let claims = try? IndependentJWSVerifier.verifyWithEmbeddedJWK(proof) else {
                return .json(400, #"{"error":"invalid_dpop_proof"}"#)
            }
            let key = (claims.header["jwk"] as? [String: Any])?["x"] as? String ?? ""
            let expected = await nonces.nonce(for: key)
            guard claims.claims["nonce"] as? String == expected else {
                if request.path == Up.tokenPath { return .json(400, #"{"error":"use_dpop_nonce"}"#, headers: [("DPoP-Nonce", expected)]) }
                return ScriptedReply(status: 401, headers: [("WWW-Authenticate", #"DPoP error="use_dpop_nonce""#), ("DPoP-Nonce", expected)])
            }
            let next = await nonces.rotate(for: key)
            switch request.path {
            case Up.tokenPath:
                return .json(200, #"{"access_token":"t-\#(next)","token_type":"DPoP","expires_in":600}"#, headers: [("DPoP-Nonce", next)])
            default: return .step(Up.loginStep, headers: [("DPoP-Nonce", next), ("Set-Session-Id", "s")])
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let first = client.makeFlow()
            let second = client.makeFlow()
            _ = try await first.start()
            _ = try await second.start()
            // Interleaved: each flow's latest nonce is its own.
            for _ in 0..<3 {
                _ = try await first.submitForm(try Up.loginAction(), parameters: [:])
                _ = try await second.submitForm(try Up.loginAction(), parameters: [:])
            }
            // One challenge per flow (its first token request), none after.
            #expect(await log.requests.filter { $0.path == Up.tokenPath }.count == 4)
            #expect(await log.requests(path: Up.loginPath).count == 6)
        }
    }

    /// Curity's `issue-token-bound-authorization-code`: the exchange without a proof is refused with
    /// `invalid_dpop_proof`; the client proves with the flow's key and retries, gets DPoP-bound tokens with the key, and
    /// proves every later exchange from the start.
    @Test func tokenBoundCodesAreDetectedProvedAndRemembered() async throws {
        let logs = LogCapture()
        let answer: @Sendable (RecordedRequest) -> ScriptedReply = { request in
            guard let proof = request.header("DPoP"), (try? IndependentJWSVerifier.verifyWithEmbeddedJWK(proof)) != nil else {
                return .json(400, #"{"error":"invalid_dpop_proof","error_description":"DPoP proof required for this code"}"#)
            }
            return .json(200, #"{"access_token":"bound","token_type":"DPoP","expires_in":300}"#)
        }
        try await CodeExchangeUpstream.run(answering: answer, logger: logs.logger) { client, log in
            let (flow, outcome) = try await CodeExchangeUpstream.signIn(client)
            let tokens = try #require(outcome.tokens)
            #expect(tokens.isDPoPBound)
            #expect(tokens.dpopKey?.publicJWK == flow.dpopPublicJWK)
            #expect(logs.all.contains { $0.hasPrefix("notice") && $0.contains("token-bound authorization codes") })
            #expect(await CodeExchangeUpstream.exchanges(log).map { $0.header("DPoP") != nil } == [false, true])
            // The next flow proves at once: one exchange request.
            let (next, nextOutcome) = try await CodeExchangeUpstream.signIn(client)
            #expect(nextOutcome.tokens?.dpopKey?.publicJWK == next.dpopPublicJWK)
            #expect(await CodeExchangeUpstream.exchanges(log).map { $0.header("DPoP") != nil } == [false, true, true])
        }
    }

    @Test func codesThatAreNotTokenBoundAreExchangedWithoutAProof() async throws {
        try await CodeExchangeUpstream.run(answering: { _ in .json(200, #"{"access_token":"bearer","token_type":"Bearer","expires_in":300}"#) }) {
            client,
            log in
            let tokens = try #require(try await CodeExchangeUpstream.signIn(client).outcome.tokens)
            #expect(!tokens.isDPoPBound && tokens.dpopKey == nil)
            #expect(await CodeExchangeUpstream.exchanges(log).map { $0.header("DPoP") } == [nil])
        }
    }

    /// `invalid_dpop_proof` for a proved exchange is an OAuth error value, not a crash path.
    @Test func aRefusedProofIsAnOAuthErrorValue() async throws {
        try await CodeExchangeUpstream.run(answering: { _ in .json(400, #"{"error":"invalid_dpop_proof","error_description":"wrong key"}"#) }) {
            client,
            log in
            let outcome = try await CodeExchangeUpstream.signIn(client).outcome
            #expect(outcome.oauthError?.error == "invalid_dpop_proof")
            #expect(outcome.oauthError?.httpStatus == 400)
            #expect(await CodeExchangeUpstream.exchanges(log).count == 2)
        }
    }

    /// continue-same-step: the submitted form's continue actions with the new message first ([UIKIT]); a continue action
    /// answered by another continue-same-step continues from the step it made.
    @Test func continueSameStepShowsTheSubmittedFormsContinueActions() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: .step(Self.sendCodeStep)
            case "/authn/sms/send": Self.continueSame("SMS sent")
            default: Self.continueSame("Try once more")
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let first = try #require(try await flow.start().representation)
            let send = try #require(first.actions.first)
            let sentResponse = try await flow.followAutomaticSteps(from: try await flow.submitForm(send))
            let sent = try #require(sentResponse.representation)
            #expect(sent.actions.map(\.form?.actionTitle) == ["Verify"])
            #expect(sent.messages.map(\.text) == ["SMS sent", "Second factor"])
            #expect(sent.type == first.type)
            #expect(await flow.currentStep == sent)
            let verify = try #require(sent.actions.first)
            let againResponse = try await flow.followAutomaticSteps(from: try await flow.submitForm(verify, parameters: ["otp": "1"]))
            let again = try #require(againResponse.representation)
            #expect(again.actions.map(\.form?.actionTitle) == ["Verify again"])
            #expect(again.messages.map(\.text) == ["Try once more", "SMS sent", "Second factor"])
            #expect(await log.requests(path: "/authn/sms/verify").first?.formValues["otp"] == "1")
        }
    }

    @Test func continueSameAfterAFormWithoutContinueActionsKeepsThePreviousActions() async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: .step(Up.loginStep)
            default: Self.continueSame("Check your email")
            }
        }
        try await ScriptedUpstream.run(handler) { base, _ in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let first = try #require(try await flow.start().representation)
            let nextResponse = try await flow.followAutomaticSteps(from: try await flow.submitForm(try Up.loginAction()))
            let next = try #require(nextResponse.representation)
            #expect(next.actions == first.actions)
            #expect(next.messages.map(\.text) == ["Check your email"])
        }
    }

    /// An action of a template this library does not know, whose model is a form, is submitted like one.
    @Test func anUnknownTemplateWithAFormModelIsSubmittedLikeAForm() async throws {
        let step =
            #"{"type":"authentication-step","actions":[{"template":"future-form","kind":"login","title":"Go on","model":{"href":"/authn/future","method":"POST","fields":[{"name":"answer","type":"text"},{"name":"fixed","type":"hidden","value":"f"}]}}]}"#
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: .step(step)
            default: .step(Up.loginStep)
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let action = try #require(try await flow.start().representation?.actions.first)
            #expect(action.template == "future-form" && action.form?.href == "/authn/future")
            _ = try await flow.submitForm(action, parameters: ["answer": "42"])
            #expect(await log.requests(path: "/authn/future").first?.formValues == ["answer": "42", "fixed": "f"])
        }
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    @Test func upstreamImagesAreFetchedWithTheFlowsCredentialsWithinTypeAndSize() async throws {
        let step =
            #"{"type":"polling-step","properties":{"status":"pending"},"links":[{"href":"/img/ok.png","rel":"illustration","type":"image/png"},{"href":"/img/svg","rel":"x","type":"image/png"},{"href":"/img/big","rel":"x","type":"image/png"},{"href":"https://evil.example/x.png","rel":"x","type":"image/png"}]}"#
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: .step(step, headers: [("Set-Session-Id", "img-session"), ("Set-Cookie", "lb=n1; Path=/")])
            case "/img/ok.png": ScriptedReply(status: 200, headers: [("Content-Type", "image/png")], body: String(decoding: Self.png, as: UTF8.self))
            case "/img/svg": ScriptedReply(status: 200, headers: [("Content-Type", "image/svg+xml")], body: "<svg/>")
            default: ScriptedReply(status: 200, headers: [("Content-Type", "image/png")], body: String(repeating: "x", count: 2000))
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            let links = try #require(try await flow.start().representation).links
            let image = try await flow.fetchImage(links[0], maximumBytes: 1000)
            #expect(image.contentType == "image/png")
            let request = try #require(await log.requests(path: "/img/ok.png").first)
            #expect(request.header("Session-Id") == "img-session")
            #expect(request.header("Cookie") == "lb=n1")
            #expect(request.header("Authorization") == "DPoP haapi-token-1")
            #expect(request.header("Accept")?.contains("image/png") == true)
            let proof = try IndependentJWSVerifier.verifyWithEmbeddedJWK(try #require(request.header("DPoP"))).claims
            #expect(proof["htm"] as? String == "GET" && proof["htu"] as? String == base.absoluteString + "/img/ok.png")
            await #expect(throws: HAAPIError.self) { try await flow.fetchImage(links[1], maximumBytes: 1000) }
            await #expect(throws: HAAPIError.self) { try await flow.fetchImage(links[2], maximumBytes: 1000) }
            let before = await log.count
            await #expect(throws: HAAPIError.self) { try await flow.fetchImage(links[3], maximumBytes: 1000) }
            #expect(await log.count == before)
        }
    }
}
