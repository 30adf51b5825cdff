import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Synchronization
import Testing

/// A sign-in saved mid-way with `exportState()`, encoded to JSON, its flow and client thrown away, and restored by a new
/// client for the same configuration, which completes it against the demo server: through the code exchange and the ID
/// token's nonce check. Against the strict demo (session id only in `Set-Session-Id`, nonces per key, token-bound codes, a
/// stickiness cookie) this proves the session id, nonce, cookie and key all survived.
@Suite("A restored flow against the demo server")
struct FlowRestoreAgainstDemoServerTests {
    /// A demo server, and the configuration of the clients that take turns with one sign-in.
    struct Upstream {
        let server: RunningDemoServer
        let configuration: HAAPIClientConfiguration

        /// The demo's side channels (outbox, approval page) through a client of this configuration.
        func sideChannels(_ client: HAAPIClient) -> DemoUpstream { DemoUpstream(server: server, client: client) }
    }

    /// The clients a test made, shut down when it ends, also when it fails half-way: a client released while running
    /// traps (AsyncHTTPClient's check), which would end the whole test process.
    final class Clients: Sendable {
        private let made = Mutex<[HAAPIClient]>([])
        func add(_ client: HAAPIClient) { made.withLock { $0.append(client) } }
        func shutdownAll() async {
            for client in made.withLock({ $0 }) { try? await client.shutdown() }
        }
    }

    /// The clients of the running test.
    @TaskLocal static var clients: Clients?

    /// A client of `configuration`, shut down by the end of the test at the latest.
    static func makeClient(_ configuration: HAAPIClientConfiguration) async throws -> HAAPIClient {
        let client = try await HAAPIClient(configuration: configuration)
        clients?.add(client)
        return client
    }

    /// Runs `body` against a demo server of `demo`'s configuration; with `gatewayLike`, clients are configured as the
    /// gateway's (no raw JSON kept, a shared step cache), so steps are saved from their typed members.
    private func withUpstream(
        _ demo: DemoServerConfiguration = DemoServerConfiguration(),
        gatewayLike: Bool = false,
        bindTokensToDPoP: Bool = true,
        _ body: (Upstream) async throws -> Void
    ) async throws {
        var quiet = Logger(label: "haapi-demo-server")
        quiet.logLevel = .critical
        let server = try await DemoServer.start(configuration: demo, logger: quiet)
        var configuration = HAAPIClientConfiguration(
            baseURL: server.issuerURL,
            clientID: DemoServer.clientID,
            clientAuthentication: .secretBasic(DemoServer.clientSecret),
            redirectURI: DemoServer.redirectURI,
            scopes: ["openid", "profile", "email"],
            bindTokensToDPoP: bindTokensToDPoP
        )
        if gatewayLike {
            configuration.keepsRawJSON = false
            configuration.sharedStepCacheSize = 256
        }
        let clients = Clients()
        do {
            try await Self.$clients.withValue(clients) { try await body(Upstream(server: server, configuration: configuration)) }
        } catch {
            await clients.shutdownAll()
            await server.shutdown()
            throw error
        }
        await clients.shutdownAll()
        await server.shutdown()
    }

    /// Saves `flow` as JSON, shuts `client` down (the flow goes with it), and restores the flow with a new client of the
    /// same configuration.
    private static func moveToNewClient(_ flow: HAAPIFlow, of client: HAAPIClient) async throws -> (HAAPIClient, HAAPIFlow) {
        let json = try JSONEncoder().encode(await flow.exportState())
        try await client.shutdown()
        let newClient = try await makeClient(client.configuration)
        return (newClient, try newClient.restoreFlow(try JSONDecoder().decode(HAAPIFlowState.self, from: json)))
    }

    /// Exchanges the code of `done` with `flow`, checks the tokens and the ID token (with the flow's nonce), and returns them.
    private static func finish(_ flow: HAAPIFlow, at done: Representation, keyThumbprint: String) async throws -> OAuthTokens {
        #expect(done.stepKind == .oauthAuthorizationResponse)
        let tokens = try #require(try await flow.exchangeCode(from: done).tokens)
        if let key = tokens.dpopKey { #expect(key.publicJWK.thumbprint == keyThumbprint, "bound to the flow's own key") }
        let validated = try #require(try await flow.validateIDToken(of: tokens))
        #expect(!validated.subject.isEmpty)
        return tokens
    }

    /// demo/demo from the password form on: the notice step, its `email-copy` (continue-same-step) and `continue`. With
    /// `restoreAfterCopy`, the flow also moves to a new client after the continue-same-step, whose step the client made.
    private func finishDemoUser(
        _ flow: HAAPIFlow,
        of client: HAAPIClient,
        from form: Representation,
        restoreAfterCopy: Bool
    ) async throws -> (HAAPIClient, HAAPIFlow, Representation) {
        var (client, flow) = (client, flow)
        let notice = try await SignInWalker(flow: flow).submitExpectingStep(.login, on: form, ["userName": "demo", "password": "demo"])
        var copied = try await SignInWalker(flow: flow).submitExpectingStep("email-copy", on: notice)
        #expect(copied.messages.count == notice.messages.count + 1)
        if restoreAfterCopy {
            (client, flow) = try await Self.moveToNewClient(flow, of: client)
            let restored = try #require(await flow.currentStep)
            #expect(restored == copied)
            copied = restored
        }
        let done = try await SignInWalker(flow: flow).submitExpectingStep(.continue, on: copied)
        return (client, flow, done)
    }

    @Test("demo/demo saved at the password form is completed by a new client: code exchange, DPoP-bound tokens, ID token nonce")
    func passwordSignInContinuesAfterRestore() async throws {
        try await withUpstream { upstream in
            let first = try await Self.makeClient(upstream.configuration)
            let original = first.makeFlow()
            let keyThumbprint = original.dpopPublicJWK.thumbprint
            let walker = SignInWalker(flow: original)
            let form = try await walker.chooseAuthenticator("html-form", on: try await walker.start())
            let (client, flow) = try await Self.moveToNewClient(original, of: first)
            #expect(flow.dpopPublicJWK.thumbprint == keyThumbprint)
            #expect(await flow.currentStep == form)
            let (lastClient, lastFlow, done) = try await finishDemoUser(flow, of: client, from: form, restoreAfterCopy: false)
            let tokens = try await Self.finish(lastFlow, at: done, keyThumbprint: keyThumbprint)
            #expect(tokens.isDPoPBound)
            try await lastClient.shutdown()
        }
    }

    @Test("against the strict demo, saved at the form and again after a continue-same-step, with gateway-like clients")
    func strictSignInContinuesAfterRestores() async throws {
        // Final tokens unbound: the strict demo's token-bound code then refuses an exchange without a proof, and the client
        // retries with one from the flow's key, which must be the key that ran the flow.
        try await withUpstream(.strict, gatewayLike: true, bindTokensToDPoP: false) { upstream in
            let first = try await Self.makeClient(upstream.configuration)
            let original = first.makeFlow()
            let keyThumbprint = original.dpopPublicJWK.thumbprint
            let walker = SignInWalker(flow: original)
            let form = try await walker.chooseAuthenticator("html-form", on: try await walker.start())
            let saved = await original.exportState()
            #expect(saved.sessionID != nil && saved.dpopNonce != nil && saved.cookies.contains { $0.name == "demo-node" })
            let (client, flow) = try await Self.moveToNewClient(original, of: first)
            #expect(await flow.currentStep == form)
            let (lastClient, lastFlow, done) = try await finishDemoUser(flow, of: client, from: form, restoreAfterCopy: true)
            #expect(lastFlow !== flow, "moved to a third client after the continue-same-step")
            _ = try await Self.finish(lastFlow, at: done, keyThumbprint: keyThumbprint)
            try await lastClient.shutdown()
        }
    }

    @Test("poll/poll saved while pending is approved, polled to done and completed by a new client")
    func pollingContinuesAfterRestore() async throws {
        try await withUpstream(.strict) { upstream in
            let first = try await Self.makeClient(upstream.configuration)
            let original = first.makeFlow()
            let keyThumbprint = original.dpopPublicJWK.thumbprint
            let walker = SignInWalker(flow: original)
            let form = try await walker.chooseAuthenticator("approval", on: try await walker.start())
            let pending = try await walker.submitExpectingStep(.login, on: form, ["userName": "poll", "password": "poll"])
            #expect(pending.polling?.status == .pending)
            let (client, flow) = try await Self.moveToNewClient(original, of: first)
            #expect(await flow.currentStep == pending)
            let restored = SignInWalker(flow: flow)
            #expect(try await restored.submitExpectingStep(.poll, on: pending).polling?.status == .pending, "still waiting")

            let link = try #require(try await upstream.sideChannels(client).outbox().first { $0["link"] is String }?["link"] as? String)
            try await upstream.sideChannels(client).decideApproval(link: link, approve: true)
            // "done" is followed by the flow itself, to the authorization response.
            let done = try await restored.submitExpectingStep(.poll, on: try #require(await flow.currentStep))
            #expect(done.stepKind == .oauthAuthorizationResponse)
            _ = try await Self.finish(flow, at: done, keyThumbprint: keyThumbprint)
            try await client.shutdown()
        }
    }

    @Test("sms/sms saved between 'Send code' and its continue-same-step answer continues with the saved form's code form")
    func continueSameStepUsesTheSavedSubmittedAction() async throws {
        try await withUpstream(.strict, gatewayLike: true) { upstream in
            let first = try await Self.makeClient(upstream.configuration)
            let original = first.makeFlow()
            let keyThumbprint = original.dpopPublicJWK.thumbprint
            let walker = SignInWalker(flow: original)
            let form = try await walker.chooseAuthenticator("html-form", on: try await walker.start())
            let send = try await walker.submitExpectingStep(.login, on: form, ["userName": "sms", "password": "sms"])
            let sendAction = try #require(send.actions.first { $0.form?.continueActions.isEmpty == false })
            // The answer arrives before the state is saved; the flow that goes on with it is the restored one.
            let answer = try await original.submitForm(sendAction)
            #expect(answer.representation?.stepKind == .continueSame)
            let (client, flow) = try await Self.moveToNewClient(original, of: first)

            let codeStep = try SignInWalker(flow: flow).step(try await flow.followAutomaticSteps(from: answer))
            #expect(codeStep.actions == sendAction.continueActions, "the code form, which only the saved submitted action names")
            #expect(codeStep.messages.first?.classList.contains("info") == true)
            let codeForm = try #require(codeStep.actions.first?.form)
            #expect(codeForm.field(named: "otp") != nil)
            let sms = try await upstream.sideChannels(client).outbox().first { $0["kind"] as? String == "sms-code" }
            let code = try #require(sms?["code"] as? String)
            let done = try await SignInWalker(flow: flow).submit(try #require(codeStep.actions.first), ["otp": code])
            _ = try await Self.finish(flow, at: done, keyThumbprint: keyThumbprint)
            try await client.shutdown()
        }
    }
}
