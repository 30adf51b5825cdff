import Foundation
import HAAPI
import HAAPIDemoServer
import Synchronization
import Testing

/// Curity 11.4's DPoP for every client ([DPOP114], [DPOPEPH]) as the client library meets it: `dpop_jkt` on the authorize
/// request (`authorization-code-dpop-binding`) and a proof on every token request (`token-dpop-binding`), against the demo
/// server answering both as `required`.
@Suite("DPoP-bound codes and tokens (Curity 11.4) against the demo server")
struct DPoPBindingAgainstDemoServerTests {
    /// Both bindings required, as the strict demo has them, without its other strict checks.
    static func bothRequired(_ configuration: inout DemoServerConfiguration) {
        configuration.authorizationCodeDPoPBinding = .required
        configuration.tokenDPoPBinding = .required
    }

    /// The steps from the selector to the `oauth-authorization-response`, as demo/demo.
    static func finishSignIn(_ walker: SignInWalker, from selector: Representation) async throws -> Representation {
        let form = try await walker.chooseAuthenticator("html-form", on: selector)
        let notice = try await walker.submitExpectingStep(.login, on: form, ["userName": "demo", "password": "demo"])
        let done = try await walker.submitExpectingStep(.continue, on: notice)
        #expect(done.stepKind == .oauthAuthorizationResponse)
        return done
    }

    @Test(
        "a client that binds nothing is refused without dpop_jkt, sends it once more at once, proves the exchange, gets bound tokens, and sends it from the start after"
    )
    func aClientLearnsFromTheRefusedAuthorizeRequest() async throws {
        try await DemoUpstream.start(bindTokensToDPoP: false, configure: Self.bothRequired).closing { upstream in
            let heard = Mutex<[CodeExchangeFinding]>([])
            upstream.client.onCodeExchangeFindingChange { finding in heard.withLock { $0.append(finding) } }
            let flow = upstream.client.makeFlow()
            let walker = SignInWalker(flow: flow)
            let selector = try await walker.start()
            #expect(await flow.authorizeNeededDPoPJKT)
            #expect(await flow.authorizeCarriedDPoPJKT)
            #expect(upstream.client.codeExchangeFinding == .proofRequired)
            #expect(heard.withLock { $0 } == [.proofRequired])

            let done = try await Self.finishSignIn(walker, from: selector)
            let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
            #expect(!(await flow.codeExchangeProvedAfterRefusal), "proved at once: the authorize request showed it")
            #expect(tokens.isDPoPBound && tokens.dpopKey?.publicJWK == flow.dpopPublicJWK)
            let refreshed = try #require(
                try await upstream.client.tokenManager.refresh(tokens).tokens,
                "a bound refresh token refreshes with its key"
            )
            #expect(refreshed.isDPoPBound)

            let next = upstream.client.makeFlow()
            let nextWalker = SignInWalker(flow: next)
            let nextDone = try await Self.finishSignIn(nextWalker, from: try await nextWalker.start())
            #expect(await next.authorizeCarriedDPoPJKT)
            #expect(!(await next.authorizeNeededDPoPJKT), "sent from the start: nothing refused")
            #expect(try await next.exchangeCode(from: nextDone).tokens?.isDPoPBound == true)
            #expect(heard.withLock { $0 } == [.proofRequired], "learned once")
        }
    }

    @Test("with bindTokensToDPoP the first authorize request carries dpop_jkt, and nothing is refused")
    func bindingTokensSendsDPoPJKTFromTheStart() async throws {
        try await DemoUpstream.start(bindTokensToDPoP: true, configure: Self.bothRequired).closing { upstream in
            let flow = upstream.client.makeFlow()
            let walker = SignInWalker(flow: flow)
            let done = try await Self.finishSignIn(walker, from: try await walker.start())
            #expect(await flow.authorizeCarriedDPoPJKT)
            #expect(!(await flow.authorizeNeededDPoPJKT))
            #expect(upstream.client.codeExchangeFinding == .unknown, "nothing was learned: it was configured")
            #expect(try await flow.exchangeCode(from: done).tokens?.isDPoPBound == true)
        }
    }

    @Test("against a server that binds only on request, a client that binds nothing sends no dpop_jkt and gets bearer tokens")
    func aClientRequestedBindingBindsNothingUnasked() async throws {
        try await DemoUpstream.start(bindTokensToDPoP: false).closing { upstream in
            let flow = upstream.client.makeFlow()
            let walker = SignInWalker(flow: flow)
            let done = try await Self.finishSignIn(walker, from: try await walker.start())
            #expect(!(await flow.authorizeCarriedDPoPJKT))
            let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
            #expect(!tokens.isDPoPBound && tokens.dpopKey == nil)
        }
    }

    @Test("an invalid_request that dpop_jkt does not cure is tried once more, then the first refusal is shown and nothing is learned")
    func anotherInvalidRequestIsShownAsItCame() async throws {
        try await DemoUpstream.start(bindTokensToDPoP: false, configure: Self.bothRequired).closing { upstream in
            var configuration = upstream.client.configuration
            configuration.redirectURI = "haapi:not-registered"
            let client = try await HAAPIClient(configuration: configuration)
            let flow = client.makeFlow()
            let response = try await flow.start()
            let problem = try #require(response.problem)
            #expect(problem.kind == .errorAuthorizationResponse && problem.error == "invalid_request")
            #expect(problem.errorDescription?.contains("redirect_uri") == true, "\(problem.errorDescription ?? "")")
            #expect(!(await flow.authorizeNeededDPoPJKT))
            #expect(!(await flow.authorizeCarriedDPoPJKT))
            #expect(client.codeExchangeFinding == .unknown)
            try await client.shutdown()
        }
    }

    @Test("a flow saved after a dpop_jkt authorize request and restored by a client that knows nothing proves its exchange at once")
    func aRestoredFlowRemembersItsBoundCode() async throws {
        try await DemoUpstream.start(bindTokensToDPoP: false, configure: Self.bothRequired).closing { upstream in
            let flow = upstream.client.makeFlow()
            let selector = try await SignInWalker(flow: flow).start()
            let saved = await flow.exportState()
            #expect(saved.authorizeCarriedDPoPJKT)
            let decoded = try JSONDecoder().decode(HAAPIFlowState.self, from: JSONEncoder().encode(saved))
            #expect(decoded.authorizeCarriedDPoPJKT)

            let other = try await HAAPIClient(configuration: upstream.client.configuration)
            #expect(other.codeExchangeFinding == .unknown)
            let restored = try other.restoreFlow(decoded)
            let done = try await Self.finishSignIn(SignInWalker(flow: restored), from: selector)
            let tokens = try #require(try await restored.exchangeCode(from: done).tokens)
            #expect(!(await restored.codeExchangeProvedAfterRefusal), "proved at once, though this client had learned nothing")
            #expect(tokens.isDPoPBound)
            try await other.shutdown()
        }
    }
}
