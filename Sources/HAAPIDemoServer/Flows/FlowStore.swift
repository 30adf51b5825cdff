import Foundation
import Synchronization

/// Login flows by `Session-Id`, plus the out-of-band handles that point into them
/// (approval ids for `/demo/approve/{id}`, launch nonces of the external-browser page).
final class FlowStore: Sendable {
    private struct State {
        var flows: [String: LoginFlow] = [:]
        var flowByApprovalID: [String: String] = [:]
        var flowByLaunchNonce: [String: String] = [:]
    }

    /// How a lookup by `Session-Id` went.
    enum Lookup: Sendable {
        case found
        case unknown
        case expired
    }

    private let state = Mutex(State())
    private let lifetime: TimeInterval
    private let capacity: Int

    /// - Parameters:
    ///   - lifetime: How long a flow lives.
    ///   - capacity: The most flows held; beyond it expired flows are purged, then the one expiring first is dropped.
    init(lifetime: TimeInterval, capacity: Int) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// Starts a flow bound to `keyThumbprint`, whose requests must carry `stickinessCookie` when it is set.
    func start(request: AuthorizationRequest, keyThumbprint: String, stickinessCookie: String? = nil, now: Date = Date()) -> LoginFlow {
        let flow = LoginFlow(
            sessionID: RandomToken.make(),
            keyThumbprint: keyThumbprint,
            expiresAt: now.addingTimeInterval(lifetime),
            request: request,
            stickinessCookie: stickinessCookie
        )
        state.withLock { state in
            if state.flows.count >= capacity { Self.purge(&state, now: now) }
            if state.flows.count >= capacity, let oldest = state.flows.values.min(by: { $0.expiresAt < $1.expiresAt }) {
                Self.remove(oldest.sessionID, from: &state)
            }
            state.flows[flow.sessionID] = flow
        }
        return flow
    }

    /// Runs `body` on the flow under the lock; the flow is saved afterwards.
    func withFlow<Value>(_ sessionID: String, now: Date = Date(), _ body: (inout LoginFlow) -> Value) -> (Lookup, Value?) {
        state.withLock { state in
            guard var flow = state.flows[sessionID] else { return (.unknown, nil) }
            guard flow.expiresAt > now else {
                Self.remove(sessionID, from: &state)
                return (.expired, nil)
            }
            let result = body(&flow)
            state.flows[sessionID] = flow
            if let approvalID = flow.approvalID { state.flowByApprovalID[approvalID] = sessionID }
            if let launchNonce = flow.launchNonce { state.flowByLaunchNonce[launchNonce] = sessionID }
            return (.found, result)
        }
    }

    /// Runs `body` on the flow waiting for the given approval id.
    func withApproval<Value>(_ approvalID: String, now: Date = Date(), _ body: (inout LoginFlow) -> Value) -> Value? {
        guard let sessionID = state.withLock({ $0.flowByApprovalID[approvalID] }) else { return nil }
        let (lookup, result) = withFlow(sessionID, now: now) { flow -> Value? in
            guard flow.approvalID == approvalID else { return nil }
            return body(&flow)
        }
        return lookup == .found ? result ?? nil : nil
    }

    /// Runs `body` on the flow that issued the given external-browser launch nonce.
    func withLaunchNonce<Value>(_ launchNonce: String, now: Date = Date(), _ body: (inout LoginFlow) -> Value) -> Value? {
        guard let sessionID = state.withLock({ $0.flowByLaunchNonce[launchNonce] }) else { return nil }
        let (lookup, result) = withFlow(sessionID, now: now) { flow -> Value? in
            guard flow.launchNonce == launchNonce else { return nil }
            return body(&flow)
        }
        return lookup == .found ? result ?? nil : nil
    }

    private static func remove(_ sessionID: String, from state: inout State) {
        guard let flow = state.flows.removeValue(forKey: sessionID) else { return }
        if let approvalID = flow.approvalID { state.flowByApprovalID[approvalID] = nil }
        if let launchNonce = flow.launchNonce { state.flowByLaunchNonce[launchNonce] = nil }
    }

    private static func purge(_ state: inout State, now: Date) {
        for flow in state.flows.values where flow.expiresAt <= now { remove(flow.sessionID, from: &state) }
    }
}
