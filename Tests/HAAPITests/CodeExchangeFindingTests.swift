import Foundation
import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPI

/// What a client knows about its server's token-bound authorization codes (Curity's `issue-token-bound-authorization-code`,
/// [TOKENBIND], notes 5) as a caller sees it: seeded with what an earlier client learned
/// (``HAAPIClient/assumeCodeExchangeFinding(_:)``), and told of what its exchanges learn
/// (``HAAPIClient/onCodeExchangeFindingChange(_:)``), so that a server which uses a refused code up fails no more than
/// the first sign-in ever.
@Suite struct CodeExchangeFindingTests {
    /// The findings an observer was told, in order.
    final class Heard: Sendable {
        private let findings = Mutex<[CodeExchangeFinding]>([])
        var all: [CodeExchangeFinding] { findings.withLock { $0 } }
        func observe(_ client: HAAPIClient) {
            client.onCodeExchangeFindingChange { finding in self.findings.withLock { $0.append(finding) } }
        }
    }

    /// A token endpoint that issues token-bound codes: without a proof, `invalid_dpop_proof`.
    static let tokenBound: @Sendable (RecordedRequest) -> ScriptedReply = { request in
        guard request.header("DPoP") != nil else {
            return .json(400, #"{"error":"invalid_dpop_proof","error_description":"DPoP proof required for this code"}"#)
        }
        return .json(200, #"{"access_token":"bound","token_type":"DPoP","expires_in":300}"#)
    }

    @Test func aClientSeededWithProofRequiredProvesItsFirstExchangeAtOnceAndTellsNoOne() async throws {
        let logs = LogCapture()
        let heard = Heard()
        try await CodeExchangeUpstream.run(answering: Self.tokenBound, logger: logs.logger) { client, log in
            #expect(client.codeExchangeFinding == .unknown)
            client.assumeCodeExchangeFinding(.proofRequired)
            heard.observe(client)
            #expect(client.codeExchangeFinding == .proofRequired)
            let (flow, outcome) = try await CodeExchangeUpstream.signIn(client)
            #expect(outcome.tokens?.dpopKey?.publicJWK == flow.dpopPublicJWK)
            #expect(await CodeExchangeUpstream.exchanges(log).map { $0.header("DPoP") != nil } == [true], "one exchange, proved")
            #expect(!(await flow.codeExchangeProvedAfterRefusal))
            #expect(heard.all.isEmpty, "what the caller gave is not told back")
            #expect(!logs.all.contains { $0.contains("token-bound authorization codes") }, "nor logged as found")
        }
    }

    @Test func aLearnedFindingIsToldToTheObserverOnceEvenWhenFlowsFindItAtOnce() async throws {
        let logs = LogCapture()
        let heard = Heard()
        try await CodeExchangeUpstream.run(answering: Self.tokenBound, logger: logs.logger) { client, log in
            heard.observe(client)
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        let (flow, outcome) = try await CodeExchangeUpstream.signIn(client)
                        #expect(outcome.tokens?.isDPoPBound == true)
                        return await flow.codeExchangeProvedAfterRefusal
                    }
                }
                var refused = 0
                for try await proved in group where proved { refused += 1 }
                // Those that exchanged before any refusal was seen were refused, then proved; later ones proved at once.
                #expect(refused >= 1)
            }
            #expect(heard.all == [.proofRequired], "told once")
            #expect(client.codeExchangeFinding == .proofRequired)
            #expect(logs.all.filter { $0.hasPrefix("notice") && $0.contains("token-bound authorization codes") }.count == 1, "the notice kept, once")
            let (next, _) = try await CodeExchangeUpstream.signIn(client)
            #expect(!(await next.codeExchangeProvedAfterRefusal))
            #expect(await CodeExchangeUpstream.exchanges(log).last?.header("DPoP") != nil)
            #expect(heard.all == [.proofRequired], "nothing changed, nothing told")
        }
    }

    @Test func codesThatAreNotTokenBoundAreToldAsProofNotRequired() async throws {
        let heard = Heard()
        try await CodeExchangeUpstream.run(answering: { _ in .json(200, #"{"access_token":"bearer","token_type":"Bearer","expires_in":300}"#) }) {
            client,
            _ in
            heard.observe(client)
            _ = try await CodeExchangeUpstream.signIn(client)
            _ = try await CodeExchangeUpstream.signIn(client)
            #expect(heard.all == [.proofNotRequired])
            #expect(client.codeExchangeFinding == .proofNotRequired)
        }
    }

    /// A server that used the code up when it refused the exchange: the proved retry gets `invalid_grant`, the flow says it
    /// was proved after a refusal, and the finding is told all the same, so that the next client proves at once.
    @Test func aRetryAnsweredInvalidGrantStillTellsTheFindingAndTheFlowSaysSo() async throws {
        let heard = Heard()
        let answer: @Sendable (RecordedRequest) -> ScriptedReply = { request in
            request.header("DPoP") == nil
                ? .json(400, #"{"error":"invalid_dpop_proof","error_description":"DPoP proof required for this code"}"#)
                : .json(400, #"{"error":"invalid_grant","error_description":"The code is invalid, expired or already used"}"#)
        }
        try await CodeExchangeUpstream.run(answering: answer) { client, log in
            heard.observe(client)
            let (flow, outcome) = try await CodeExchangeUpstream.signIn(client)
            #expect(outcome.oauthError?.error == "invalid_grant")
            #expect(await flow.codeExchangeProvedAfterRefusal)
            #expect(heard.all == [.proofRequired])
            #expect(await CodeExchangeUpstream.exchanges(log).map { $0.header("DPoP") != nil } == [false, true])
        }
    }

    @Test func aSeededProofNotRequiredIsCorrectedByARefusalAndTold() async throws {
        let heard = Heard()
        try await CodeExchangeUpstream.run(answering: Self.tokenBound) { client, _ in
            client.assumeCodeExchangeFinding(.proofNotRequired)
            heard.observe(client)
            let outcome = try await CodeExchangeUpstream.signIn(client).outcome
            #expect(outcome.tokens?.isDPoPBound == true)
            #expect(heard.all == [.proofRequired])
            client.assumeCodeExchangeFinding(.unknown)
            #expect(client.codeExchangeFinding == .unknown)
            client.onCodeExchangeFindingChange(nil)
            _ = try await CodeExchangeUpstream.signIn(client)
            #expect(heard.all == [.proofRequired], "a removed observer hears nothing")
        }
    }
}
