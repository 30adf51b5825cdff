import HAAPIGateway
import Logging

/// The PostgreSQL outbox (`sessions.store: postgres`) as the dispatcher's journal: a delivery is recorded there, claimed
/// by this replica, before its first attempt; an accepted one leaves it; a failed one is rescheduled there with the
/// same backoff (or given up there after `callbacks.retryForSeconds`), unclaimed. Every replica's claimer takes due
/// deliveries for the sinks it has, so any replica delivers one, and one killed in the middle of an attempt holds it
/// only until its lease ends.
///
/// A database that cannot be reached when a delivery is recorded or rescheduled loses nothing: the dispatcher goes on
/// with it in this replica's memory, and it is recorded when the database answers again.
actor OutboxJournal: CallbackJournal {
    private let outbox: CallbackOutbox
    private let metrics: GatewayMetrics?
    private let logger: Logger
    /// Where claimed deliveries go, from ``start(for:)``.
    private var dispatcher: CallbackDispatcher?
    private var stopping = false
    /// The claimer, from ``start(for:)`` until ``stopHandingOver()``.
    private var claimer: Task<Void, Never>?
    /// When the claimer asks the outbox next; moved earlier when this replica reschedules a delivery due sooner.
    private var nextClaim = ContinuousClock.now
    /// When deliveries this replica rescheduled are due (at most 256; beyond that the poll finds them).
    private var retriesDue: [ContinuousClock.Instant] = []
    /// The claimer's wait for ``nextClaim``, cancelled to wake it earlier.
    private var claimerNap: Task<Void, Never>?
    /// Claimed deliveries whose attempt is under way (at most the outbox's claim batch).
    private var claimedAttempts = 0
    /// Whether the last claim failed (logged once per run of failures).
    private var claimsFailing = false

    nonisolated let keptAfterStop: String

    init(_ outbox: CallbackOutbox, metrics: GatewayMetrics?, logger: Logger) {
        self.keptAfterStop = "they stay in the outbox, where the other replicas take them when their leases end (\(outbox.attemptLease))"
        self.outbox = outbox
        self.metrics = metrics
        self.logger = logger
    }

    func start(for dispatcher: CallbackDispatcher) async {
        guard claimer == nil, !stopping else { return }
        self.dispatcher = dispatcher
        logger.notice(
            "callback deliveries are kept in the PostgreSQL outbox; this replica delivers those due for its sinks",
            metadata: ["pollInterval": "\(outbox.pollInterval)", "attemptLease": "\(outbox.attemptLease)"]
        )
        claimer = Task { await self.claimLoop() }
    }

    /// Records the deliveries in the outbox, claimed by this replica for their attempt. A database that cannot be
    /// reached loses nothing: they go on in memory (logged as an error the first time, and recorded again before their
    /// next attempt).
    func keep(_ entries: [CallbackEntry], firstTime: Bool) async -> Set<String> {
        await keep(entries, firstTime: firstTime, ending: nil).kept
    }

    /// Keeps the deliveries of a sign-in's outcome and notes it as that sign-in's outcome in the same statement, so
    /// that an `error` or `cancelled` after another outcome (its replica was killed before it saved the sign-in, and
    /// the person's "Try again" went on from the step before) is not kept (``PostgresOutbox/enqueue(_:claimingFor:ending:)``).
    func keepOutcome(_ entries: [CallbackEntry]) async -> (kept: Set<String>, earlier: String?) {
        let note = entries.first.flatMap { entry in entry.delivery.signIn.map { SignInOutcomeNote(signIn: $0, outcome: entry.delivery.outcome) } }
        return await keep(entries, firstTime: true, ending: note)
    }

    private func keep(_ entries: [CallbackEntry], firstTime: Bool, ending: SignInOutcomeNote?) async -> (kept: Set<String>, earlier: String?) {
        guard !entries.isEmpty else { return ([], nil) }
        let earlier: String?
        do throws(PostgresStorageError) {
            earlier = try await outbox.table.enqueue(entries.map(\.outboxDelivery), claimingFor: outbox.attemptLease, ending: ending)
        } catch {
            if firstTime {
                logger.error(
                    "the callback outbox cannot be written; these deliveries are kept in this replica's memory only, retried from there and recorded when the database answers",
                    metadata: ["delivery": "\(entries[0].delivery.id)", "count": .stringConvertible(entries.count), "error": "\(error.message)"]
                )
            }
            return ([], nil)
        }
        if !firstTime {
            logger.notice("callback deliveries kept in memory are now in the outbox", metadata: ["count": .stringConvertible(entries.count)])
        }
        if let earlier, entries[0].delivery.outcome != "success" { return ([], earlier) }
        return (Set(entries.map(\.key)), earlier)
    }

    /// The sink accepted a delivery the outbox holds: it leaves the outbox. When that cannot be written the delivery
    /// stays there, and another replica delivers it again once the claim's lease ends (same delivery id). One given up
    /// in memory was never in the outbox (the outbox gives up what it holds itself).
    func done(_ entry: CallbackEntry, delivered: Bool) async {
        guard delivered, entry.journaled else { return }
        do throws(PostgresStorageError) {
            _ = try await outbox.table.markDelivered(id: entry.delivery.id, sink: entry.journalName)
        } catch {
            logger.warning(
                "a delivered callback could not be removed from the outbox; it may be delivered again, with the same delivery id",
                metadata: ["sink": "\(entry.sink.name)", "delivery": "\(entry.delivery.id)", "error": "\(error.message)"]
            )
        }
    }

    /// Reschedules a failed attempt in the outbox with the entry's backoff, unclaimed, so that any replica makes the
    /// next attempt; the outbox gives it up once that would come `callbacks.retryForSeconds` after its first failure.
    /// - Returns: nil when the outbox could not be written (the delivery waits in memory).
    func failed(_ entry: CallbackEntry, error: any Error) async -> CallbackJournalRetry? {
        let result: OutboxReschedule
        do throws(PostgresStorageError) {
            result = try await outbox.table.reschedule(
                id: entry.delivery.id,
                sink: entry.journalName,
                attempt: entry.attempts,
                retryAfter: entry.backoff,
                retryFor: max(.zero, entry.giveUpAt - .now)
            )
        } catch let failure {
            logger.error(
                "the callback outbox cannot be written; the delivery is retried from this replica's memory",
                metadata: ["sink": "\(entry.sink.name)", "delivery": "\(entry.delivery.id)", "error": "\(failure.message)"]
            )
            return nil
        }
        switch result {
        case .willRetry:
            claimAgain(at: .now + entry.backoff)
            return .rescheduled
        case .givenUp:
            return .givenUp
        case .notClaimed:
            logger.notice(
                "a callback delivery's claim ended during its attempt; another replica has it",
                metadata: ["sink": "\(entry.sink.name)", "delivery": "\(entry.delivery.id)"]
            )
            return .heldElsewhere
        }
    }

    /// The claimer stops claiming; a claim it is making ends first, so that what it claims is released at shutdown.
    func stopHandingOver() async {
        stopping = true
        claimerNap?.cancel()
        if let claimer { await claimer.value }
        claimer = nil
    }

    /// Deliveries the outbox does not hold yet are recorded there unclaimed (or, when it cannot be written, given back as
    /// lost); then every claim of this replica is released, so that another replica attempts those deliveries at once
    /// rather than when their leases end.
    func leave(_ remaining: [CallbackEntry]) async -> [(entry: CallbackEntry, reason: GatewayError)] {
        var lost: [(entry: CallbackEntry, reason: GatewayError)] = []
        let unrecorded = remaining.filter { !$0.journaled }
        if !unrecorded.isEmpty {
            do throws(PostgresStorageError) {
                try await outbox.table.enqueue(unrecorded.map(\.outboxDelivery), claimingFor: nil)
            } catch {
                let reason = GatewayError(
                    .internalError,
                    "the gateway stopped before the sink accepted it, and the callback outbox cannot be written (\(error.message))"
                )
                lost = unrecorded.map { ($0, reason) }
            }
        }
        do throws(PostgresStorageError) {
            // A replica that never claimed a delivery (a device's approval claims its outcome's too) has none to release,
            // and does not ask a database that never answered.
            if outbox.table.hasClaimed { _ = try await outbox.table.releaseClaims() }
        } catch {
            logger.error(
                "callback delivery claims could not be released at shutdown; the other replicas take them over when their leases end",
                metadata: ["lease": "\(outbox.attemptLease)", "error": "\(error.message)"]
            )
        }
        let kept = remaining.count - lost.count
        guard kept > 0 else { return lost }
        for _ in 0..<kept { metrics?.callbackDelivery(.spooled) }
        logger.warning("callback deliveries left in the outbox for the other replicas", metadata: ["count": .stringConvertible(kept)])
        return lost
    }

    // MARK: - Claiming

    /// Until shutdown: claims due deliveries for this replica's sinks and attempts them, then waits for the poll
    /// interval, or less when a delivery this replica rescheduled is due sooner, or not at all after a full batch.
    private func claimLoop() async {
        while !stopping {
            let now = ContinuousClock.now
            retriesDue.removeAll { $0 <= now }
            let room = outbox.claimBatch - claimedAttempts
            let claimed = outbox.table.database.tablesPrepared && room > 0 ? await claimDue(limit: room) : 0
            guard !stopping else { break }
            nextClaim =
                claimed == room && room > 0 ? .now : min(.now + outbox.pollInterval, retriesDue.min() ?? .now + outbox.pollInterval)
            while !stopping, ContinuousClock.now < nextClaim {
                let nap = Task { [nextClaim] in _ = try? await Task.sleep(until: nextClaim, clock: .continuous) }
                claimerNap = nap
                await nap.value
                claimerNap = nil
            }
        }
    }

    /// Has the claimer ask the outbox at `instant` (a delivery this replica rescheduled is due then), if it would
    /// wait longer.
    private func claimAgain(at instant: ContinuousClock.Instant) {
        guard claimer != nil else { return }
        if retriesDue.count < 256 { retriesDue.append(instant) }
        guard instant < nextClaim else { return }
        nextClaim = instant
        claimerNap?.cancel()
    }

    /// Claims up to `limit` due deliveries and starts their attempts.
    /// - Returns: How many were claimed.
    private func claimDue(limit: Int) async -> Int {
        guard let dispatcher else { return 0 }
        let claims: [OutboxClaim]
        do throws(PostgresStorageError) {
            claims = try await outbox.table.claimDue(sinks: await dispatcher.journalNames, limit: limit, lease: outbox.attemptLease)
        } catch {
            if !claimsFailing {
                claimsFailing = true
                logger.warning(
                    "the callback outbox cannot be read; deliveries waiting there are attempted when it answers",
                    metadata: ["error": "\(error.message)"]
                )
            }
            return 0
        }
        if claimsFailing {
            claimsFailing = false
            logger.notice("the callback outbox answers again")
        }
        // Claimed as the gateway began to stop: released with the others, for another replica.
        guard !stopping else { return claims.count }
        for claim in claims { await take(claim, to: dispatcher) }
        return claims.count
    }

    /// Hands a delivery this replica claimed to the dispatcher for its attempt, or gives it up when its document cannot
    /// be opened (its key was removed from `sessions.encryptionKeysFile`).
    private func take(_ claim: OutboxClaim, to dispatcher: CallbackDispatcher) async {
        let document: [UInt8]
        switch claim.document {
        case .success(let opened):
            document = opened
        case .failure(let reason):
            do throws(PostgresStorageError) {
                guard try await outbox.table.giveUp(id: claim.id, sink: claim.sink, attempt: claim.attempts) else { return }
            } catch {
                logger.warning(
                    "a callback delivery that cannot be opened could not be given up; it is given up when next claimed",
                    metadata: ["sink": "\(claim.sink)", "delivery": "\(claim.id)", "error": "\(error.message)"]
                )
                return
            }
            metrics?.callbackDelivery(.givenUp)
            logger.error(
                "callback delivery given up: its document in the outbox cannot be opened; this outcome is lost for the sink",
                metadata: [
                    "sink": "\(claim.sink)", "outcome": "\(claim.outcome)", "delivery": "\(claim.id)", "attempts": .stringConvertible(claim.attempts),
                    "error": "\(reason)",
                ]
            )
            return
        }
        let delivery = CallbackDelivery(id: claim.id, document: document, outcome: claim.outcome)
        claimedAttempts += 1
        Task {
            // A sink removed by a reload meanwhile: the claim ends with its lease, for a replica that has the sink.
            _ = await dispatcher.take(delivery, sink: claim.sink, attemptsMade: claim.attempts - 1, attemptNow: true)
            self.claimedAttemptEnded()
        }
    }

    private func claimedAttemptEnded() {
        claimedAttempts -= 1
    }
}
