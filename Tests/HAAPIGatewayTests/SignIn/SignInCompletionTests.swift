import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Testing

@testable import HAAPIGateway

/// ``SignInCompletion`` against the demo server: the exchange, the ID token, the claims, and what is told when they fail.
@Suite("Completing a sign-in")
struct SignInCompletionTests {
    /// A flow of the demo server signed in as demo/demo, up to its authorization response.
    private func withAuthorizationResponse(_ body: (HAAPIFlow, Representation) async throws -> Void) async throws {
        let demo = try await DemoServer.start(configuration: .strict)
        let client = try await HAAPIClient(
            configuration: HAAPIClientConfiguration(
                baseURL: demo.issuerURL,
                clientID: DemoServer.clientID,
                clientAuthentication: .secretBasic(DemoServer.clientSecret),
                redirectURI: DemoServer.redirectURI,
                scopes: ["openid", "email"]
            )
        )
        do {
            let flow = client.makeFlow()
            var step = try #require(try await flow.followAutomaticSteps(from: try await flow.start(acceptLanguage: "en")).representation)
            let option = try #require(
                step.actions.flatMap { $0.selectorOptions ?? [] }.first { $0.properties?["authenticatorType"]?.stringValue == "html-form" }
            )
            step = try #require(try await flow.followAutomaticSteps(from: try await flow.submitForm(option, parameters: [:])).representation)
            let login = try #require(step.actions.first { $0.kind == .login })
            step = try #require(
                try await flow.followAutomaticSteps(from: try await flow.submitForm(login, parameters: ["userName": "demo", "password": "demo"]))
                    .representation
            )
            let next = try #require(step.actions.first { $0.kind == .continue })
            step = try #require(try await flow.followAutomaticSteps(from: try await flow.submitForm(next, parameters: [:])).representation)
            try #require(step.stepKind == .oauthAuthorizationResponse)
            try await body(flow, step)
        } catch {
            try? await client.shutdown()
            await demo.shutdown()
            throw error
        }
        try await client.shutdown()
        await demo.shutdown()
    }

    private func completion(_ flow: HAAPIFlow, claims: OutcomeSettings = .init()) -> SignInCompletion {
        SignInCompletion(
            flow: flow,
            dispatcher: CallbackDispatcher(sinks: .fixed([]), logger: Logger(label: "completion-test")),
            outcomeSettings: claims,
            device: nil,
            signIn: SignInReference(id: "sign-in-1"),
            facts: nil,
            metrics: GatewayMetrics(),
            logger: FlowLogger(Logger(label: "completion-test"), key: "flow", value: "test")
        )
    }

    @Test("signed in: the tokens exchanged, the ID token validated, its subject and the claims asked for in the outcome")
    func signedIn() async throws {
        try await withAuthorizationResponse { flow, response in
            let claims = OutcomeSettings(idTokenClaims: ["email"], userinfoClaims: [])
            guard case .signedIn(let outcome, let tokenType) = await completion(flow, claims: claims).complete(response) else {
                Issue.record("the demo user signs in")
                return
            }
            let document = try #require(String(bytes: try outcome.encoded(), encoding: .utf8))
            #expect(outcome.outcome == "success")
            #expect(document.contains(#""subject":"demo""#))
            #expect(document.contains(#""email":"#))
            #expect(document.contains(#""signInId":"sign-in-1""#))
            #expect(["Bearer", "DPoP"].contains(tokenType))
        }
    }

    @Test("a completion asked again fails without a second exchange: the person is told the sign-in did not complete, the outcome names why")
    func secondCompletionFails() async throws {
        try await withAuthorizationResponse { flow, response in
            guard case .signedIn = await completion(flow).complete(response) else {
                Issue.record("the first completion signs in")
                return
            }
            guard case .failed(let message, let failure) = await completion(flow).complete(response) else {
                Issue.record("a code is exchanged once")
                return
            }
            #expect(failure.error == "code_exchange_failed")
            #expect(failure.errorDescription?.hasPrefix("the authorization code could not be exchanged") == true)
            #expect(message == .gateway(.signInNotCompleted))
        }
    }
}
