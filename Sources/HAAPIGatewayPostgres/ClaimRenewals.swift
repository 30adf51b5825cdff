import HAAPIGateway
import Logging
import Synchronization

/// Renews the claims this replica's requests hold on their sign-ins while the requests run
/// (``SessionClaimTiming/renewal``), so that a claim ends at its lease only when its replica is gone.
///
/// One task renews every claim of a store: it runs while a claim is held, looking every half renewal interval, and
/// ends when none is. A sleeping task per request cost a task, a timer that stayed scheduled for the whole interval
/// after the request ended, and a thread woken to end it, on every post.
final class ClaimRenewals: Sendable {
    private struct Held: Sendable {
        /// The session id.
        let id: String
        /// When the claim was made or last renewed.
        var renewed: ContinuousClock.Instant
    }

    private struct State: Sendable {
        /// By claim.
        var held: [String: Held] = [:]
        var running = false
    }

    private let storage: PostgresSessionStorage
    private let timing: SessionClaimTiming
    private let logger: Logger
    private let state = Mutex(State())

    init(storage: PostgresSessionStorage, timing: SessionClaimTiming, logger: Logger) {
        self.storage = storage
        self.timing = timing
        self.logger = logger
    }

    /// How many claims are renewed (for tests).
    var heldCount: Int { state.withLock { $0.held.count } }

    /// Whether the renewing task runs (for tests: it ends once no claim is held).
    var isRunning: Bool { state.withLock { $0.running } }

    /// Renews `claim` on session `id` until ``release(claim:)``.
    func hold(id: String, claim: String) {
        let start = state.withLock { state in
            state.held[claim] = Held(id: id, renewed: .now)
            defer { state.running = true }
            return !state.running
        }
        if start { Task { await self.renewWhileHeld() } }
    }

    /// Stops renewing `claim` (its request checks in, which releases it).
    func release(claim: String) {
        _ = state.withLock { $0.held.removeValue(forKey: claim) }
    }

    /// Renews the claims due, every half renewal interval, until none is held.
    private func renewWhileHeld() async {
        while true {
            try? await Task.sleep(for: timing.renewal / 2)
            let now = ContinuousClock.now
            let due: [(claim: String, id: String)]? = state.withLock { state in
                guard !state.held.isEmpty else {
                    state.running = false
                    return nil
                }
                return state.held.filter { now - $0.value.renewed >= timing.renewal }.map { ($0.key, $0.value.id) }
            }
            guard let due else { return }
            for (claim, id) in due {
                do throws(PostgresStorageError) {
                    let renewed = try await storage.renew(id: id, claim: claim, lease: timing.lease)
                    let stillHeld = state.withLock { state in
                        guard state.held[claim] != nil else { return false }
                        if renewed { state.held[claim]?.renewed = now } else { state.held[claim] = nil }
                        return true
                    }
                    // A request that checked in meanwhile released the claim itself.
                    if !renewed, stillHeld { logger.warning("a request's hold on its sign-in ended before the request did") }
                } catch {
                    // Tried again at the next look, still within the lease.
                    logger.warning("a request's hold on its sign-in could not be renewed", metadata: ["error": "\(error.message)"])
                }
            }
        }
    }
}
