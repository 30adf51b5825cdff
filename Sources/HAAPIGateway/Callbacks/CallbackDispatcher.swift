import Foundation
import HAAPI
import Logging

/// Hands each sign-in's outcome to every configured sink, exactly once per sink as far as the gateway can tell.
///
/// A delivery (one outcome for one sink) leaves the dispatcher only once it succeeded or was given up after
/// `callbacks.retryForSeconds`: while its attempt is under way it is *in flight*, between attempts it *waits* with
/// exponential backoff. With `callbacks.spoolFile`, every delivery not yet done is in the spool (0600, written before
/// the first attempt and after every change), so neither a shutdown in the middle of an attempt nor a SIGKILL loses it:
/// the next start delivers it. (A sink that accepted a delivery just before the process was killed may see it again,
/// with the same delivery id, which is what receivers deduplicate on.)
///
/// With `sessions.store: postgres` the journal is the database's outbox instead (``CallbackOutbox``): a delivery is
/// recorded there, claimed by this replica, before its first attempt; an accepted one leaves it; a failed one is
/// rescheduled there with the same backoff (or given up there after `callbacks.retryForSeconds`), unclaimed, and
/// every replica's claimer takes due deliveries for the sinks it has, so any replica delivers it, and one killed in
/// the middle of an attempt holds it only until its lease ends. A database that cannot be reached when a delivery is
/// recorded or rescheduled loses nothing: the delivery goes on in this replica's memory, as without a journal, and is
/// recorded when the database answers again. (``journal`` says which: ``CallbackJournal``.)
///
/// The first attempts to all sinks run at once; the person's page waits for them at most
/// `callbacks.handOverSeconds`, and a slower sink goes on in the background (the page then says the hand-over is
/// still being retried).
actor CallbackDispatcher {
    private struct Entry {
        /// The delivery id and the sink's place among the sinks (two sinks may share a name).
        let key: String
        let sink: any CallbackSink
        let delivery: CallbackDelivery
        /// When retrying stops: `callbacks.retryForSeconds` after the first failure.
        var giveUpAt: ContinuousClock.Instant
        /// The attempts made, the one under way included. In the outbox it is also the number of the attempt this
        /// replica's claim is for (``PostgresOutbox``'s fence).
        var attempts: Int
        var nextAttempt: ContinuousClock.Instant
        var backoff: Duration
        /// Whether the outbox holds it (claimed by this replica while an attempt is under way), so that its result is
        /// reported there; false while the database could not be reached to record it.
        var inOutbox = false
        /// The sink's name in the outbox (``CallbackDispatcher/outboxNames(_:)``), when the journal is the outbox.
        var outboxName: String? = nil

        /// The sink's name in the outbox's rows.
        var outboxSink: String { outboxName ?? sink.name }

        var outboxDelivery: OutboxDelivery {
            OutboxDelivery(id: delivery.id, sink: outboxSink, outcome: delivery.outcome, document: delivery.document, attemptsMade: attempts)
        }
    }

    private(set) var sinks: [any CallbackSink]
    private let observer: (@Sendable (CompletionOutcome) async -> Void)?
    private var settings: CallbackDeliverySettings
    /// Where deliveries not done yet are kept beyond this process: nowhere, the spool file or the outbox.
    private var journal: CallbackJournal
    private let metrics: GatewayMetrics?
    private let logger: Logger
    /// Deliveries waiting for their next attempt, by key.
    private var waiting: [String: Entry] = [:]
    /// Deliveries whose attempt is under way, by key.
    private var inFlight: [String: Entry] = [:]
    /// The sinks' attempts under way, by key: cancelled by a shutdown that waited for them long enough.
    private var sinkAttempts: [String: Task<Void, any Error>] = [:]
    /// Spooled deliveries for sinks no longer configured: kept in the spool, never attempted.
    private var orphans: [SpooledDelivery] = []
    private var worker: Task<Void, Never>?
    private var stopping = false
    /// The outbox's claimer (outbox journal only), from ``start()`` until shutdown.
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

    /// A dispatcher journaling in the outbox when `outbox` is given, else in the spool file at `spoolPath`, else in
    /// memory only.
    init(
        sinks: [any CallbackSink],
        settings: CallbackDeliverySettings = .init(),
        logger: Logger,
        observer: (@Sendable (CompletionOutcome) async -> Void)? = nil,
        spoolPath: String? = nil,
        outbox: CallbackOutbox? = nil,
        metrics: GatewayMetrics? = nil
    ) {
        self.sinks = sinks
        self.settings = settings
        self.journal = outbox.map(CallbackJournal.outbox) ?? spoolPath.map { .spoolFile(CallbackSpool(path: $0)) } ?? .memoryOnly
        self.metrics = metrics
        self.logger = logger
        self.observer = observer
    }

    init(
        configurations: [CallbackSinkConfiguration],
        settings: CallbackDeliverySettings = .init(),
        logger: Logger,
        observer: (@Sendable (CompletionOutcome) async -> Void)? = nil,
        spoolPath: String? = nil,
        outbox: CallbackOutbox? = nil,
        metrics: GatewayMetrics? = nil
    ) {
        self.init(
            sinks: Self.sinks(for: configurations),
            settings: settings,
            logger: logger,
            observer: observer,
            spoolPath: spoolPath,
            outbox: outbox,
            metrics: metrics
        )
    }

    private static func sinks(for configurations: [CallbackSinkConfiguration]) -> [any CallbackSink] {
        configurations.map { configuration -> any CallbackSink in
            switch configuration {
            case .file(let path): FileCallbackSink(path: path)
            case .webhook(let url, let secret, let previous): WebhookCallbackSink(url: url, secret: secret, previousSecret: previous)
            case .exec(let program): ExecCallbackSink(program: program)
            }
        }
    }

    /// Uses new sinks and settings for outcomes from now on (a reload); deliveries under way keep their sinks.
    func replace(configurations: [CallbackSinkConfiguration], settings: CallbackDeliverySettings) {
        sinks = Self.sinks(for: configurations)
        self.settings = settings
    }

    /// The least a page waits for the sinks when its budget is spent: a quick sink still confirms.
    static let leastHandOverWait = Duration.milliseconds(500)

    /// Hands `outcome` to every sink: all at once, waiting at most `callbacks.handOverSeconds`, and no longer than the
    /// page that completes the sign-in has left of its budget (``HAAPIDeadline``; a page is bounded as a whole), but at
    /// least ``leastHandOverWait``.
    /// - Returns: Whether every sink accepted it within that time (else the rest goes on in the background).
    @discardableResult
    func deliver(_ outcome: CompletionOutcome) async -> Bool {
        let document: [UInt8]
        do {
            document = try outcome.encoded()
        } catch {
            logger.error("callback outcome could not be encoded", metadata: ["outcome": "\(outcome.outcome)"])
            return false
        }
        let delivery = CallbackDelivery(id: SecureToken.make(byteCount: 16), document: document, outcome: outcome.outcome)
        let now = ContinuousClock.now
        let outboxNames = Self.outboxNames(sinks)
        let entries = sinks.enumerated().map { index, sink in
            Entry(
                key: "\(delivery.id)|\(index)",
                sink: sink,
                delivery: delivery,
                giveUpAt: now + .seconds(settings.retryForSeconds),
                attempts: 0,
                nextAttempt: now,
                backoff: initialBackoff,
                outboxName: outboxNames[index]
            )
        }
        for entry in entries { inFlight[entry.key] = entry }
        switch journal {
        case .memoryOnly: break
        case .spoolFile:
            let spooled = entries.map { SpooledDelivery(sink: $0.sink.name, delivery: $0.delivery) }
            spool { file throws(GatewayError) in try file.add(spooled) }
        case .outbox(let outbox):
            await record(entries.map(\.key), in: outbox, firstTime: true)
        }
        var wait = Duration.seconds(settings.handOverSeconds)
        if let deadline = HAAPIDeadline.current { wait = min(wait, max(Self.leastHandOverWait, deadline - .now)) }
        let accepted = await attemptAll(entries.map(\.key), waitingAtMost: wait)
        await observer?(outcome)
        return accepted == entries.count
    }

    /// How many deliveries are not done yet (waiting or under way).
    var pendingCount: Int { waiting.count + inFlight.count }

    /// Waits until no delivery is waiting or under way (tests; a sink that never recovers makes this wait until it is
    /// given up).
    func drained() async {
        while worker != nil || !inFlight.isEmpty || !waiting.isEmpty {
            if let current = worker {
                await current.value
            } else {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// At shutdown: one last attempt for every waiting delivery, and attempts under way awaited, all together at most
    /// `callbacks.handOverSeconds`; attempts still under way then are cancelled (an exec sink's program is ended with
    /// its process group) and awaited a few seconds more. What is still not delivered stays in the spool for the next
    /// start, or in the outbox for the other replicas (its claims released at once), or without either is logged as
    /// lost, naming the sink.
    func flushAtShutdown() async {
        stopping = true
        worker?.cancel()
        worker = nil
        let deadline = ContinuousClock.now + .seconds(settings.handOverSeconds)
        // The claimer stops claiming; a claim it is making ends first, so that what it claims is released below.
        claimerNap?.cancel()
        if let claimer { await claimer.value }
        claimer = nil
        for (key, entry) in waiting {
            inFlight[key] = entry
            Task { _ = await self.attempt(key, atShutdown: true) }
        }
        waiting = [:]
        // Every attempt under way is awaited, not only those started here: one that succeeds now must not stay spooled.
        while !inFlight.isEmpty, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        // Those still under way are ended (an exec sink's program with its whole process group), so that none of them
        // delivers after the gateway has left the delivery to the next start or another replica; they end as failed.
        if !sinkAttempts.isEmpty {
            for attempt in sinkAttempts.values { attempt.cancel() }
            let ending = ContinuousClock.now + .seconds(5)
            while !sinkAttempts.isEmpty, ContinuousClock.now < ending { try? await Task.sleep(for: .milliseconds(20)) }
        }
        let remaining = Array(inFlight.values) + Array(waiting.values)
        switch journal {
        case .outbox(let outbox):
            await leaveInOutbox(remaining, outbox)
        case .spoolFile(let file):
            guard !remaining.isEmpty else { return }
            compactSpool()
            for _ in remaining { metrics?.callbackDelivery(result: "spooled") }
            logger.warning("callback deliveries spooled for the next start", metadata: ["count": "\(remaining.count)", "spool": "\(file.path)"])
        case .memoryOnly:
            for entry in remaining {
                abandon(
                    entry,
                    error: GatewayError(.internalError, "the gateway stopped before the sink accepted it, and callbacks.spoolFile is not set")
                )
            }
            waiting = [:]
            inFlight = [:]
        }
    }

    /// Starts the background work of the gateway's journal: the spool file's deliveries left by a previous run are
    /// taken in (``restoreSpool()``); the outbox's claimer starts asking for due deliveries.
    func start() {
        switch journal {
        case .memoryOnly: break
        case .spoolFile: restoreSpool()
        case .outbox: startClaimer()
        }
    }

    /// Takes in the deliveries a previous run left in the spool (they are retried at once); those for sinks no longer
    /// configured stay in the spool.
    func restoreSpool() {
        guard case .spoolFile(let file) = journal, FileManager.default.fileExists(atPath: file.path) else { return }
        let spoolPath = file.path
        let spooled: [SpooledDelivery]
        do {
            spooled = try CallbackSpool.read(spoolPath)
        } catch {
            // Kept for the operator beside a fresh spool, so that new deliveries are safe again.
            let aside = "\(spoolPath).unreadable-\(Int(Date().timeIntervalSince1970))"
            let moved = rename(spoolPath, aside) == 0
            logger.error(
                "the callback spool file cannot be read; its deliveries are not attempted",
                metadata: ["spool": "\(moved ? aside : spoolPath)"]
            )
            return
        }
        let now = ContinuousClock.now
        var restored = 0
        for entry in spooled {
            guard let index = sinks.firstIndex(where: { $0.name == entry.sink }) else {
                logger.error(
                    "a spooled callback delivery names a sink that is no longer configured; it stays in the spool",
                    metadata: ["sink": "\(entry.sink)"]
                )
                orphans.append(entry)
                continue
            }
            let restoredEntry = Entry(
                key: "\(entry.id)|\(index)",
                sink: sinks[index],
                delivery: entry.delivery,
                giveUpAt: now + .seconds(max(1, settings.retryForSeconds)),
                attempts: 0,
                nextAttempt: now,
                backoff: initialBackoff
            )
            waiting[restoredEntry.key] = restoredEntry
            restored += 1
        }
        compactSpool()
        logger.notice("spooled callback deliveries restored", metadata: ["count": "\(restored)"])
        startWorker()
    }

    // MARK: - Attempts

    private var initialBackoff: Duration { .milliseconds(Int64(max(0.001, settings.initialBackoffSeconds) * 1000)) }

    /// Attempts the in-flight deliveries `keys` at once and waits for them at most `limit`.
    /// - Returns: How many were accepted within the limit.
    private func attemptAll(_ keys: [String], waitingAtMost limit: Duration) async -> Int {
        guard !keys.isEmpty else { return 0 }
        let (results, continuation) = AsyncStream.makeStream(of: Bool.self)
        for key in keys {
            Task { continuation.yield(await self.attempt(key)) }
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            continuation.finish()
        }
        var finished = 0
        var accepted = 0
        for await ok in results {
            finished += 1
            if ok { accepted += 1 }
            if finished == keys.count { break }
        }
        timer.cancel()
        continuation.finish()
        return accepted
    }

    /// One attempt of the in-flight delivery `key`: done when the sink accepts it; otherwise it waits for its next
    /// attempt (or is given up past its retry period). It leaves the spool only when done or given up; in the outbox its
    /// result is reported before it leaves the attempts under way (a shutdown awaits that).
    private func attempt(_ key: String, atShutdown: Bool = false) async -> Bool {
        guard var entry = inFlight[key] else { return false }
        entry.attempts += 1
        let sinkAttempt = Task { [entry] in try await entry.sink.deliver(entry.delivery) }
        sinkAttempts[key] = sinkAttempt
        let outcome = await withTaskCancellationHandler {
            await sinkAttempt.result
        } onCancel: {
            sinkAttempt.cancel()
        }
        sinkAttempts[key] = nil
        // Recorded in the outbox meanwhile (at shutdown, while the database had been unreachable): reported there.
        if let current = inFlight[key] { entry.inOutbox = current.inOutbox }
        if case .failure(let error) = outcome {
            await attemptFailed(entry, error: error)
            return false
        }
        if entry.inOutbox, case .outbox(let outbox) = journal { await reportDelivered(entry, to: outbox) }
        inFlight[key] = nil
        spoolDone(entry)
        metrics?.callbackDelivery(result: "delivered")
        let message: Logger.Message =
            atShutdown ? "callback delivered at shutdown" : entry.attempts == 1 ? "callback delivered" : "callback delivered after retries"
        logger.info(
            message,
            metadata: [
                "sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)",
                "attempts": "\(entry.attempts)",
            ]
        )
        return true
    }

    /// The sink refused an attempt (`entry` counts it): the next one waits for the backoff. In the outbox the
    /// delivery is rescheduled there (any replica makes the next attempt) or given up there; when the database
    /// cannot be reached, or the outbox does not hold it, it waits in memory (and is given up past its retry period).
    private func attemptFailed(_ failed: Entry, error: any Error) async {
        var entry = failed
        let key = entry.key
        let now = ContinuousClock.now
        if entry.attempts == 1 {
            entry.giveUpAt = now + .seconds(settings.retryForSeconds)
        } else {
            entry.backoff = min(entry.backoff * 2, .seconds(60))
        }
        entry.nextAttempt = now + entry.backoff
        // An attempt the shutdown ended is not the sink's refusal: its claim is released with the others, due at once.
        let endedByShutdown = stopping && error is CancellationError
        if entry.inOutbox, !endedByShutdown, case .outbox(let outbox) = journal, await rescheduled(entry, in: outbox, error: error) {
            inFlight[key] = nil
            return
        }
        inFlight[key] = nil
        if stopping {
            // Shutting down: it stays (spooled, or lost without a spool) for flushAtShutdown to decide.
            waiting[key] = entry
        } else if settings.retryForSeconds <= 0 || entry.nextAttempt > entry.giveUpAt {
            abandon(entry, error: error)
            spoolDone(entry)
        } else {
            waiting[key] = entry
            if entry.attempts == 1 { noteRetrying(entry, error: error) }
            startWorker()
        }
    }

    /// The first failure of a delivery that is retried: counted and logged once.
    private func noteRetrying(_ entry: Entry, error: any Error) {
        metrics?.callbackDelivery(result: "retried")
        logger.warning(
            "callback delivery failed; retrying",
            metadata: [
                "sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)",
                "error": "\(Self.describe(error))",
            ]
        )
    }

    private func startWorker() {
        guard worker == nil, !stopping, !waiting.isEmpty else { return }
        worker = Task { await self.work() }
    }

    /// Retries waiting deliveries when they are due, until none waits (or shutdown). With the outbox, those it does not
    /// hold yet (the database could not be reached) are recorded first.
    private func work() async {
        while !waiting.isEmpty, !Task.isCancelled, !stopping {
            let next = waiting.values.map(\.nextAttempt).min()!
            try? await Task.sleep(until: next, clock: .continuous)
            guard !Task.isCancelled, !stopping else { break }
            let now = ContinuousClock.now
            let due = waiting.filter { $0.value.nextAttempt <= now }
            for (key, entry) in due {
                waiting[key] = nil
                inFlight[key] = entry
            }
            if case .outbox(let outbox) = journal {
                let unrecorded = due.values.filter { !$0.inOutbox }.map(\.key)
                if !unrecorded.isEmpty { await record(unrecorded, in: outbox, firstTime: false) }
            }
            _ = await attemptAll(Array(due.keys), waitingAtMost: .seconds(max(settings.handOverSeconds, 60)))
        }
        worker = nil
        startWorker()
    }

    private func abandon(_ entry: Entry, error: any Error) {
        metrics?.callbackDelivery(result: "given_up")
        logger.error(
            "callback delivery given up; this outcome is lost for the sink",
            metadata: [
                "sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)",
                "attempts": "\(entry.attempts)",
                "error": "\(Self.describe(error))",
            ]
        )
    }

    /// Applies a change to the spool file, when there is one; a failure is logged (the deliveries go on in memory).
    private func spool(_ change: (inout CallbackSpool) throws(GatewayError) -> Void) {
        guard case .spoolFile(var file) = journal else { return }
        do throws(GatewayError) {
            try change(&file)
        } catch {
            logger.error(
                "the callback spool file cannot be written; deliveries under way are not safe from a crash",
                metadata: ["spool": "\(file.path)"]
            )
        }
        journal = .spoolFile(file)
    }

    /// Notes in the spool that a delivery is done for its sink, rewriting the file when done lines outnumber the rest.
    private func spoolDone(_ entry: Entry) {
        var due = false
        spool { file throws(GatewayError) in due = try file.markDone(id: entry.delivery.id, sink: entry.sink.name) }
        if due { compactSpool() }
    }

    /// Rewrites the spool file with every delivery not done yet (or removes it when there is none).
    private func compactSpool() {
        let entries =
            (Array(inFlight.values) + Array(waiting.values)).sorted { $0.key < $1.key }.map {
                SpooledDelivery(sink: $0.sink.name, delivery: $0.delivery)
            } + orphans
        spool { file throws(GatewayError) in try file.rewrite(entries) }
    }

    // MARK: - The outbox

    /// Records the deliveries `keys` (under way or waiting) in the outbox, claimed by this replica for their attempt.
    /// A database that cannot be reached loses nothing: they go on in memory (logged as an error the first time, and
    /// recorded again before their next attempt).
    private func record(_ keys: [String], in outbox: CallbackOutbox, firstTime: Bool) async {
        let entries = keys.compactMap { inFlight[$0] ?? waiting[$0] }
        guard !entries.isEmpty else { return }
        do throws(PostgresStorageError) {
            try await outbox.table.enqueue(entries.map(\.outboxDelivery), claimingFor: outbox.attemptLease)
        } catch {
            if firstTime {
                logger.error(
                    "the callback outbox cannot be written; these deliveries are kept in this replica's memory only, retried from there and recorded when the database answers",
                    metadata: ["delivery": "\(entries[0].delivery.id)", "count": "\(entries.count)", "error": "\(error.message)"]
                )
            }
            return
        }
        for key in keys {
            inFlight[key]?.inOutbox = true
            waiting[key]?.inOutbox = true
        }
        if !firstTime {
            logger.notice("callback deliveries kept in memory are now in the outbox", metadata: ["count": "\(entries.count)"])
        }
    }

    /// The sink accepted a delivery the outbox holds: it leaves the outbox. When that cannot be written the delivery
    /// stays there, and another replica delivers it again once the claim's lease ends (same delivery id).
    private func reportDelivered(_ entry: Entry, to outbox: CallbackOutbox) async {
        do throws(PostgresStorageError) {
            try await outbox.table.markDelivered(id: entry.delivery.id, sink: entry.outboxSink)
        } catch {
            logger.warning(
                "a delivered callback could not be removed from the outbox; it may be delivered again, with the same delivery id",
                metadata: ["sink": "\(entry.sink.name)", "delivery": "\(entry.delivery.id)", "error": "\(error.message)"]
            )
        }
    }

    /// Reschedules a failed attempt in the outbox with the entry's backoff, unclaimed, so that any replica makes the
    /// next attempt; the outbox gives it up once that would come `callbacks.retryForSeconds` after its first failure.
    /// - Returns: Whether the outbox took the result (else the delivery waits in memory).
    private func rescheduled(_ entry: Entry, in outbox: CallbackOutbox, error: any Error) async -> Bool {
        let result: OutboxReschedule
        do throws(PostgresStorageError) {
            result = try await outbox.table.reschedule(
                id: entry.delivery.id,
                sink: entry.outboxSink,
                attempt: entry.attempts,
                retryAfter: entry.backoff,
                retryFor: max(.zero, entry.giveUpAt - .now)
            )
        } catch let failure {
            logger.error(
                "the callback outbox cannot be written; the delivery is retried from this replica's memory",
                metadata: ["sink": "\(entry.sink.name)", "delivery": "\(entry.delivery.id)", "error": "\(failure.message)"]
            )
            return false
        }
        switch result {
        case .willRetry:
            if entry.attempts == 1 { noteRetrying(entry, error: error) }
            claimAgain(at: .now + entry.backoff)
        case .givenUp:
            abandon(entry, error: error)
        case .notClaimed:
            // This replica's claim ended during the attempt (its lease ran out, or it was released at shutdown): another
            // replica has the delivery, or has delivered it. A first attempt that failed is still a delivery retried.
            if entry.attempts == 1 { noteRetrying(entry, error: error) }
            logger.notice(
                "a callback delivery's claim ended during its attempt; another replica has it",
                metadata: ["sink": "\(entry.sink.name)", "delivery": "\(entry.delivery.id)"]
            )
        }
        return true
    }

    /// At shutdown: deliveries the outbox does not hold yet are recorded there unclaimed (or, when it cannot be written,
    /// logged as lost); then every claim of this replica is released, so that another replica attempts those deliveries
    /// at once rather than when their leases end.
    private func leaveInOutbox(_ remaining: [Entry], _ outbox: CallbackOutbox) async {
        var kept = remaining
        let unrecorded = remaining.filter { !$0.inOutbox }
        if !unrecorded.isEmpty {
            do throws(PostgresStorageError) {
                try await outbox.table.enqueue(unrecorded.map(\.outboxDelivery), claimingFor: nil)
                for entry in unrecorded { inFlight[entry.key]?.inOutbox = true }
            } catch {
                for entry in unrecorded {
                    abandon(
                        entry,
                        error: GatewayError(
                            .internalError,
                            "the gateway stopped before the sink accepted it, and the callback outbox cannot be written (\(error.message))"
                        )
                    )
                    inFlight[entry.key] = nil
                    waiting[entry.key] = nil
                }
                kept.removeAll { !$0.inOutbox }
            }
        }
        do throws(PostgresStorageError) {
            try await outbox.table.releaseClaims()
        } catch {
            logger.error(
                "callback delivery claims could not be released at shutdown; the other replicas take them over when their leases end",
                metadata: ["lease": "\(outbox.attemptLease)", "error": "\(error.message)"]
            )
        }
        guard !kept.isEmpty else { return }
        for _ in kept { metrics?.callbackDelivery(result: "spooled") }
        logger.warning("callback deliveries left in the outbox for the other replicas", metadata: ["count": "\(kept.count)"])
    }

    private func startClaimer() {
        guard case .outbox(let outbox) = journal, claimer == nil, !stopping else { return }
        logger.notice(
            "callback deliveries are kept in the PostgreSQL outbox; this replica delivers those due for its sinks",
            metadata: ["pollInterval": "\(outbox.pollInterval)", "attemptLease": "\(outbox.attemptLease)"]
        )
        claimer = Task { await self.claimLoop(outbox) }
    }

    /// Until shutdown: claims due deliveries for this replica's sinks and attempts them, then waits for the poll
    /// interval, or less when a delivery this replica rescheduled is due sooner, or not at all after a full batch.
    private func claimLoop(_ outbox: CallbackOutbox) async {
        while !stopping {
            let now = ContinuousClock.now
            retriesDue.removeAll { $0 <= now }
            let room = outbox.claimBatch - claimedAttempts
            let claimed = outbox.table.database.tablesPrepared && room > 0 ? await claimDue(outbox, limit: room) : 0
            guard !stopping else { break }
            nextClaim = claimed == room && room > 0 ? .now : min(.now + outbox.pollInterval, retriesDue.min() ?? .now + outbox.pollInterval)
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
    private func claimDue(_ outbox: CallbackOutbox, limit: Int) async -> Int {
        let claims: [OutboxClaim]
        do throws(PostgresStorageError) {
            claims = try await outbox.table.claimDue(sinks: Self.outboxNames(sinks), limit: limit, lease: outbox.attemptLease)
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
        for claim in claims { await take(claim, from: outbox) }
        return claims.count
    }

    /// Attempts a delivery this replica claimed, or gives it up when its document cannot be opened (its key was
    /// removed from `sessions.encryptionKeysFile`).
    private func take(_ claim: OutboxClaim, from outbox: CallbackOutbox) async {
        // A sink removed by a reload meanwhile: the claim ends with its lease, for a replica that has the sink.
        guard let index = Self.outboxNames(sinks).firstIndex(of: claim.sink) else { return }
        let key = "\(claim.id)|\(index)"
        // Still attempted here (an attempt that outlasted its lease): that attempt reports its result.
        guard inFlight[key] == nil, waiting[key] == nil else { return }
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
            metrics?.callbackDelivery(result: "given_up")
            logger.error(
                "callback delivery given up: its document in the outbox cannot be opened; this outcome is lost for the sink",
                metadata: [
                    "sink": "\(claim.sink)", "outcome": "\(claim.outcome)", "delivery": "\(claim.id)", "attempts": "\(claim.attempts)",
                    "error": "\(reason)",
                ]
            )
            return
        }
        let now = ContinuousClock.now
        inFlight[key] = Entry(
            key: key,
            sink: sinks[index],
            delivery: CallbackDelivery(id: claim.id, document: document, outcome: claim.outcome),
            giveUpAt: now + .seconds(settings.retryForSeconds),
            attempts: claim.attempts - 1,
            nextAttempt: now,
            backoff: backoff(afterFailures: claim.attempts - 1),
            inOutbox: true,
            outboxName: claim.sink
        )
        claimedAttempts += 1
        Task {
            _ = await self.attempt(key)
            self.claimedAttemptEnded()
        }
    }

    private func claimedAttemptEnded() {
        claimedAttempts -= 1
    }

    /// The name each sink's deliveries have in the outbox: its own, or for the second and later of sinks sharing one
    /// `name #2`, `#3`, … (two webhooks whose URLs differ only in their query, which names leave out, are two
    /// receivers), so that each sink has rows of its own. Replicas with the same sinks name them alike.
    private static func outboxNames(_ sinks: [any CallbackSink]) -> [String] {
        var seen: [String: Int] = [:]
        return sinks.map { sink in
            let count = (seen[sink.name] ?? 0) + 1
            seen[sink.name] = count
            return count == 1 ? sink.name : "\(sink.name) #\(count)"
        }
    }

    /// The wait after `failures` failed attempts (the first `initialBackoffSeconds`, 1 s, then doubling, at most a
    /// minute): what an entry that failed that often in memory would wait.
    private func backoff(afterFailures failures: Int) -> Duration {
        var backoff = initialBackoff
        for _ in 1..<min(max(failures, 1), 64) { backoff = min(backoff * 2, .seconds(60)) }
        return backoff
    }

    private static func describe(_ error: any Error) -> String {
        (error as? GatewayError)?.message ?? "\(type(of: error))"
    }
}
