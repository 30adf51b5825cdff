import Foundation
import HAAPI
import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension StorageContract {
    /// A sink that records every attempt and accepts while it is told to.
    final class RecordingSink: CallbackSink, Sendable {
        let name = "https://hooks.example.com/contract"
        private let state: Mutex<(accepting: Bool, attempts: [CallbackDelivery], accepted: [CallbackDelivery])>

        init(accepting: Bool) { state = Mutex((accepting, [], [])) }

        func accept(_ accepting: Bool) { state.withLock { $0.accepting = accepting } }
        var attempts: [CallbackDelivery] { state.withLock { $0.attempts } }
        var accepted: [CallbackDelivery] { state.withLock { $0.accepted } }

        func deliver(_ delivery: CallbackDelivery) async throws {
            let accepting = state.withLock { state in
                state.attempts.append(delivery)
                if state.accepting { state.accepted.append(delivery) }
                return state.accepting
            }
            if !accepting { throw GatewayError(.internalError, "receiver down") }
        }
    }

    static let delivery = CallbackDeliverySettings(retryForSeconds: 3600, initialBackoffSeconds: 1, handOverSeconds: 2, pageWaitSeconds: 1)

    /// A dispatcher handing to `sink` and keeping what it has not done in `storage`'s journal, as the gateway's.
    static func dispatcher(_ storage: any GatewayStorage, sink: RecordingSink) -> CallbackDispatcher {
        CallbackDispatcher(sinks: .fixed([sink]), settings: .fixed(delivery), logger: silent, journal: storage.callbackJournal(metrics: nil))
    }

    static func outcome(_ name: String) -> CompletionOutcome {
        .success(OAuthTokens(accessToken: "access-\(name)", expiresIn: 300, refreshToken: nil, tokenType: "Bearer", scope: "openid", idToken: nil))
    }

    /// A device's sign-in outcome as the gateway makes it (``CompletionOutcome/handedToDevice(signIn:identity:)``): the
    /// sign-in it ends, without the tokens, which the device collects.
    static func deviceOutcome(_ name: String) -> CompletionOutcome {
        .handedToDevice(signIn: SignInReference(id: "device-\(name)"), identity: nil)
    }

    /// Whether `condition` holds within `timeout` (asked every 50 ms).
    static func eventually(_ timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    /// Starts a dispatcher on a storage opened again on `place` (a restart), a while after the last: what it delivers
    /// within `patience` (all it is expected to deliver once `expected` of them came).
    static func deliveredAfterRestart(
        on place: any StorageContractPlace,
        expected: Int,
        patience: Duration = .seconds(30),
        advancing: Duration = .seconds(600)
    ) async throws -> [String] {
        // By default past every retry's backoff and every claim's lease.
        place.clock.advance(advancing)
        return try await place.withStorage { storage in
            let sink = RecordingSink(accepting: true)
            let dispatcher = dispatcher(storage, sink: sink)
            await dispatcher.start()
            if expected > 0 {
                _ = try await eventually(patience) { sink.accepted.count >= expected }
            }
            // Time for one more that should not come.
            try await Task.sleep(for: .milliseconds(1500))
            await dispatcher.flushAtShutdown()
            return sink.accepted.map(\.id)
        }
    }

    /// The callback journal keeps what a sink has not taken when the process stops, and the next start on the same
    /// place delivers it; what a sink took is not delivered again.
    static func pendingDeliveriesSurviveARestart(_ backend: any StorageContractBackend) async throws {
        let place = try await backend.makePlace()
        let (acceptedID, pendingID) = try await place.withStorage { storage in
            let sink = RecordingSink(accepting: true)
            let dispatcher = dispatcher(storage, sink: sink)
            await dispatcher.start()
            #expect(await dispatcher.deliver(outcome("accepted")), "taken at once")
            sink.accept(false)
            #expect(await dispatcher.deliver(outcome("pending")) == false, "refused")
            await dispatcher.flushAtShutdown()
            let ids = sink.attempts.map(\.id)
            return (try #require(ids.first), try #require(ids.last))
        }
        #expect(acceptedID != pendingID)
        #expect(try await deliveredAfterRestart(on: place, expected: 1) == [pendingID], "the pending one, once")
        #expect(try await deliveredAfterRestart(on: place, expected: 0) == [], "nothing after it was taken")
    }

    /// A device's approval that keeps the sign-in's outcome with it (``DeviceApproval/outcomeKept``) has it in the
    /// journal: the next start delivers it though no dispatcher was handed it. Handed as the gateway does
    /// (`keptAlready` when kept), it reaches the sink once. A refused approval keeps nothing.
    static func deviceApprovalKeepsItsOutcome(_ backend: any StorageContractBackend) async throws {
        let place = try await backend.makePlace()
        let (handedID, keptID) = try await place.withStorage { storage -> (String, String?) in
            let devices = storage.deviceAuthorizations(settings: .fixed(deviceSettings()))
            let sink = RecordingSink(accepting: true)
            let dispatcher = dispatcher(storage, sink: sink)
            await dispatcher.start()

            let (_, notBegun) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            let refusedEntries = try #require(await dispatcher.prepare(deviceOutcome("refused")))
            let refused = try await devices.approve(reference: notBegun.reference, tokens: deviceTokens, keepingOutcome: refusedEntries)
            #expect(refused == DeviceApproval(approved: false, outcomeKept: false), "not signing in: nothing approved or kept")

            // Approved and handed over as the gateway does.
            let (handedCode, handed) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            #expect(try await devices.beginSignIn(userCode: handed.userCode) == handed)
            let handedOutcome = deviceOutcome("handed")
            let handedEntries = try #require(await dispatcher.prepare(handedOutcome))
            let approval = try await devices.approve(reference: handed.reference, tokens: deviceTokens, keepingOutcome: handedEntries)
            #expect(approval == DeviceApproval(approved: true, outcomeKept: backend.keepsOutcomeWithApproval))
            #expect(await dispatcher.hand(handedEntries, outcome: handedOutcome, keptAlready: approval.outcomeKept) == .accepted)
            #expect(sink.accepted.map(\.id) == [handedEntries[0].delivery.id], "once")
            let collected = handOver(try await devices.poll(deviceCode: handedCode, clientID: device.id))
            #expect(collected?.tokens == deviceTokens, "and the device its tokens")

            // Approved, never handed to the dispatcher (the gateway stopped in between).
            let (_, stopped) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            #expect(try await devices.beginSignIn(userCode: stopped.userCode) == stopped)
            let stoppedEntries = try #require(await dispatcher.prepare(deviceOutcome("stopped")))
            let stoppedApproval = try await devices.approve(reference: stopped.reference, tokens: deviceTokens, keepingOutcome: stoppedEntries)
            #expect(stoppedApproval == DeviceApproval(approved: true, outcomeKept: backend.keepsOutcomeWithApproval))
            await dispatcher.flushAtShutdown()
            return (handedEntries[0].delivery.id, stoppedApproval.outcomeKept ? stoppedEntries[0].delivery.id : nil)
        }
        // Kept with the approval: delivered by the next start, at once: no time passes, so a claim the approval made for the
        // stopped process must have been released by its stop. Not kept (the memory store): the dispatcher's to keep.
        let after = try await deliveredAfterRestart(on: place, expected: keptID == nil ? 0 : 1, advancing: .zero)
        #expect(after == (keptID.map { [$0] } ?? []), "what the approval kept, once")
        #expect(!after.contains(handedID), "the handed outcome is not delivered again")
    }

    /// What the gateway learns about its upstream is kept, by issuer and client id, beyond the process (a storage opened
    /// again on the same place finds it); recording `unknown` forgets it. A storage that keeps none (nil) says so.
    static func upstreamFactsAreKept(_ backend: any StorageContractBackend) async throws {
        let place = try await backend.makePlace()
        let key = UpstreamFactKey(issuer: "https://idsvr.example.com/oauth/v2/oauth-anonymous", clientID: "gateway")
        let other = UpstreamFactKey(issuer: "https://idsvr.example.com/oauth/v2/oauth-anonymous", clientID: "another")
        let keeps = try await place.withStorage { storage -> Bool in
            guard let facts = storage.upstreamFacts() else { return false }
            #expect(facts.isReady)
            #expect(!facts.place.isEmpty)
            #expect(try await facts.finding(for: key) == .unknown)
            try await facts.record(.proofRequired, for: key)
            #expect(try await facts.finding(for: key) == .proofRequired)
            #expect(try await facts.finding(for: other) == .unknown, "another client's")
            return true
        }
        guard keeps else { return }
        try await place.withStorage { storage in
            let facts = try #require(storage.upstreamFacts(), "a storage keeps facts or not, whenever opened")
            #expect(try await facts.finding(for: key) == .proofRequired, "kept beyond the process")
            try await facts.record(.proofNotRequired, for: key)
            #expect(try await facts.finding(for: key) == .proofNotRequired)
            try await facts.record(.unknown, for: key)
            #expect(try await facts.finding(for: key) == .unknown, "forgotten")
        }
    }
}
