import Foundation
import HAAPI
import Logging
import Synchronization

/// Hands each sign-in's outcome to every configured sink, exactly once per sink as far as the gateway can tell.
///
/// A delivery (one outcome for one sink) leaves the dispatcher only once it succeeded or was given up after
/// `callbacks.retryForSeconds`: while its attempt is under way it is *in flight*, between attempts it *waits* with
/// exponential backoff. What survives the process is the journal's (``CallbackJournal``): nothing (``MemoryJournal``),
/// `callbacks.spoolFile` for this replica's next start (``SpoolJournal``), or the PostgreSQL outbox for any replica
/// (``OutboxJournal``, which may also take a failed delivery's retries over). The dispatcher attempts and backs off the
/// same way whichever it is.
///
/// The first attempts to all sinks run at once; the person's page waits for them at most `callbacks.pageWaitSeconds`,
/// and a slower sink goes on in the background (the page then says the hand-over is still being retried).
package actor CallbackDispatcher {
    /// The sinks outcomes go to.
    private var sinks: CallbackSinkSet
    private let observer: (@Sendable (CompletionOutcome) async -> Void)?
    private let settings: SettingsSource<CallbackDeliverySettings>
    /// Where deliveries not done yet are kept beyond this process.
    private let journal: any CallbackJournal
    private let metrics: GatewayMetrics?
    private let logger: Logger
    /// What is counted and logged of deliveries that fail.
    private let notices: CallbackDeliveryNotices
    /// Deliveries waiting for their next attempt, by key.
    private var waiting: [String: CallbackEntry] = [:]
    /// Deliveries whose attempt is under way, by key.
    private var inFlight: [String: CallbackEntry] = [:]
    /// The sinks' attempts under way, by key: cancelled by a shutdown that waited for them long enough.
    private var sinkAttempts: [String: Task<Void, any Error>] = [:]
    private var worker: Task<Void, Never>?
    private var stopping = false
    /// While a shutdown flushes: how many deliveries are not done yet, for a stop cut short at its deadline
    /// (``stopReport``), which cannot wait for this actor.
    private nonisolated let flushing = Mutex<Int?>(nil)
    /// What becomes of the deliveries not done when the process ends: the journal's words.
    private nonisolated let keptAfterStop: String

    /// A dispatcher handing outcomes to `sinks` and keeping deliveries not done yet in `journal` (by default in memory
    /// only: ``MemoryJournal``).
    init(
        sinks: CallbackSinkSet,
        settings: SettingsSource<CallbackDeliverySettings> = .fixed(.init()),
        logger: Logger,
        observer: (@Sendable (CompletionOutcome) async -> Void)? = nil,
        journal: any CallbackJournal = MemoryJournal(),
        metrics: GatewayMetrics? = nil
    ) {
        self.sinks = sinks
        self.settings = settings
        self.journal = journal
        self.keptAfterStop = journal.keptAfterStop
        self.metrics = metrics
        self.logger = logger
        self.notices = CallbackDeliveryNotices(metrics: metrics, logger: logger)
        self.observer = observer
    }

    /// The least a page waits for the sinks when its budget is spent: a quick sink still confirms.
    static let leastHandOverWait = Duration.milliseconds(500)

    /// Hands `outcome` to every sink (``hand(_:)``).
    /// - Returns: Whether nothing of it is left to retry: every sink accepted it within the page's wait, or it was not
    ///   handed over because its sign-in had ended already.
    @discardableResult
    func deliver(_ outcome: CompletionOutcome) async -> Bool {
        await hand(outcome) != .retrying
    }

    /// Hands `outcome` to every sink: all at once, waiting at most `callbacks.pageWaitSeconds`, and no longer than the
    /// page that completes the sign-in has left of its budget (``HAAPIDeadline``; a page is bounded as a whole), but at
    /// least ``leastHandOverWait``. Kept by the journal first; a journal that replicas share refuses an `error` or
    /// `cancelled` outcome of a sign-in that already had one (``CallbackJournal/keepOutcome(_:)``), and a sign-in has
    /// one outcome, so that one is not handed over.
    func hand(_ outcome: CompletionOutcome) async -> OutcomeHandOver {
        guard let entries = prepare(outcome) else { return .retrying }
        return await hand(entries, outcome: outcome, keptAlready: false)
    }

    /// The deliveries of `outcome`, one per sink, not kept or attempted yet: for a store that keeps them in the same
    /// change as what the outcome reports (``DeviceAuthorizationStore/approve(reference:tokens:keepingOutcome:)``), before
    /// ``hand(_:outcome:keptAlready:)``. Nil when the outcome could not be encoded (logged).
    func prepare(_ outcome: CompletionOutcome) -> [CallbackEntry]? {
        let document: [UInt8]
        do {
            document = try outcome.encoded()
        } catch {
            logger.error("callback outcome could not be encoded", metadata: ["outcome": "\(outcome.outcome)"])
            return nil
        }
        let delivery = CallbackDelivery(
            id: SecureToken.make(byteCount: 16),
            document: document,
            outcome: outcome.outcome,
            signIn: outcome.signIn?.id
        )
        let now = ContinuousClock.now
        let settings = settings.current
        let sinks = self.sinks.current()
        let names = CallbackSinkSet.journalNames(of: sinks)
        return sinks.enumerated().map { index, sink in
            CallbackEntry(
                key: "\(delivery.id)|\(index)",
                sink: sink,
                delivery: delivery,
                giveUpAt: now + .seconds(settings.retryForSeconds),
                attempts: 0,
                nextAttempt: now,
                backoff: settings.initialBackoff,
                journalName: names[index]
            )
        }
    }

    /// Hands the deliveries ``prepare(_:)`` made of `outcome` to their sinks, as ``hand(_:)`` does; `keptAlready` when the
    /// journal holds them already, claimed by this replica (kept with a device's approval, in the journal's database):
    /// they are not kept again.
    func hand(_ entries: [CallbackEntry], outcome: CompletionOutcome, keptAlready: Bool) async -> OutcomeHandOver {
        for entry in entries { inFlight[entry.key] = entry }
        if keptAlready {
            markJournaled(Set(entries.map(\.key)))
            return await attemptNow(entries, outcome: outcome)
        }
        let signIn = entries.first?.delivery.signIn ?? ""
        let (kept, earlier) = await journal.keepOutcome(entries)
        if let earlier {
            guard outcome.outcome == "success" else {
                for entry in entries { inFlight[entry.key] = nil }
                logger.notice(
                    "this sign-in had an outcome already; this one is not handed over (a sign-in has one outcome)",
                    metadata: ["signIn": "\(signIn)", "outcome": "\(outcome.outcome)", "earlier": "\(earlier)"]
                )
                return .alreadyEnded(earlier)
            }
            logger.notice(
                "this sign-in had an outcome already; a success is handed over all the same, so that no token is dropped",
                metadata: ["signIn": "\(signIn)", "earlier": "\(earlier)"]
            )
        }
        markJournaled(kept)
        return await attemptNow(entries, outcome: outcome)
    }

    /// Attempts an outcome's deliveries in flight at once, waiting for them as long as the page may.
    private func attemptNow(_ entries: [CallbackEntry], outcome: CompletionOutcome) async -> OutcomeHandOver {
        var wait = settings.current.pageWait
        if let deadline = HAAPIDeadline.current { wait = min(wait, max(Self.leastHandOverWait, deadline - .now)) }
        let accepted = await attemptAll(entries.map(\.key), waitingAtMost: wait)
        await observer?(outcome)
        return accepted == entries.count ? .accepted : .retrying
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
    /// `callbacks.handOverSeconds` (and 10 s before the stop's deadline, `finishingBy`); attempts still under way then
    /// are cancelled (an exec sink's program is ended with
    /// its process group) and awaited a few seconds more. What is still not delivered stays in the spool for the next
    /// start, or in the outbox for the other replicas (its claims released at once), or without either is logged as
    /// lost, naming the sink.
    func flushAtShutdown(finishingBy stopDeadline: ContinuousClock.Instant? = nil) async {
        stopping = true
        worker?.cancel()
        worker = nil
        // Within a stop's deadline, the attempts leave 10 s for ending those still under way and for the journal.
        let deadline = Self.earlier(.now + .seconds(settings.current.handOverSeconds), stopDeadline.map { $0 - .seconds(10) })
        defer { flushing.withLock { $0 = nil } }
        flushing.withLock { $0 = pendingCount }
        // Nothing more is handed over; a claim being made ends first, so that what it claims is released below.
        await journal.stopHandingOver()
        for (key, entry) in waiting {
            inFlight[key] = entry
            Task { _ = await self.attempt(key, atShutdown: true) }
        }
        waiting = [:]
        // Every attempt under way is awaited, not only those started here: one that succeeds now must not stay spooled.
        while !inFlight.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            flushing.withLock { $0 = pendingCount }
        }
        // Those still under way are ended (an exec sink's program with its whole process group), so that none of them
        // delivers after the gateway has left the delivery to the next start or another replica; they end as failed.
        if !sinkAttempts.isEmpty {
            for attempt in sinkAttempts.values { attempt.cancel() }
            let ending = Self.earlier(.now + .seconds(5), stopDeadline.map { $0 - .seconds(5) })
            while !sinkAttempts.isEmpty, ContinuousClock.now < ending { try? await Task.sleep(for: .milliseconds(20)) }
        }
        flushing.withLock { $0 = pendingCount }
        let remaining = Array(inFlight.values) + Array(waiting.values)
        for (entry, reason) in await journal.leave(remaining) {
            notices.givenUp(entry, error: reason)
            inFlight[entry.key] = nil
            waiting[entry.key] = nil
        }
    }

    /// For a stop cut short at its deadline (``StopDeadline``): the deliveries a shutdown had not finished, and what
    /// becomes of them; nil when no shutdown is flushing or nothing is left.
    nonisolated var stopReport: String? {
        guard let count = flushing.withLock({ $0 }), count > 0 else { return nil }
        return "\(count) callback deliver\(count == 1 ? "y" : "ies") not accepted by their sinks yet: \(keptAfterStop)"
    }

    private static func earlier(_ instant: ContinuousClock.Instant, _ other: ContinuousClock.Instant?) -> ContinuousClock.Instant {
        other.map { min(instant, $0) } ?? instant
    }

    /// Starts the journal's work: deliveries a previous run left in the spool are taken in; the outbox's claimer starts
    /// asking for due deliveries.
    func start() async {
        await journal.start(for: self)
    }

    /// Takes a delivery the journal hands over: left by a previous run (attempted as soon as the worker runs), or
    /// claimed in the outbox (`attemptNow`: attempted now, and awaited). `sink` is the sink's name in the journal
    /// (``journalNames``).
    /// - Returns: The delivery's key here, or nil when no configured sink has that name (a reload removed it).
    @discardableResult
    package func take(_ delivery: CallbackDelivery, sink name: String, attemptsMade: Int, attemptNow: Bool) async -> String? {
        let sinks = self.sinks.current()
        guard let index = CallbackSinkSet.journalNames(of: sinks).firstIndex(of: name) else { return nil }
        let key = "\(delivery.id)|\(index)"
        // Still attempted here (an attempt that outlasted its lease): that attempt reports its result.
        guard inFlight[key] == nil, waiting[key] == nil else { return key }
        let now = ContinuousClock.now
        let settings = settings.current
        let entry = CallbackEntry(
            key: key,
            sink: sinks[index],
            delivery: delivery,
            giveUpAt: now + .seconds(attemptNow ? settings.retryForSeconds : max(1, settings.retryForSeconds)),
            attempts: attemptsMade,
            nextAttempt: now,
            backoff: settings.backoff(afterFailures: attemptsMade),
            journaled: true,
            journalName: name
        )
        if attemptNow {
            inFlight[key] = entry
            _ = await attempt(key)
        } else {
            waiting[key] = entry
            startWorker()
        }
        return key
    }

    /// The name each sink's deliveries have in the journal (``CallbackSinkSet/journalNames(of:)``).
    package var journalNames: [String] { CallbackSinkSet.journalNames(of: sinks.current()) }

    private func markJournaled(_ keys: Set<String>) {
        for key in keys {
            inFlight[key]?.journaled = true
            waiting[key]?.journaled = true
        }
    }

    // MARK: - Attempts

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
        let sinkAttempt = Task { [entry] in try await CallbackDeliverySpan.attempt(entry.delivery, to: entry.sink, number: entry.attempts) }
        sinkAttempts[key] = sinkAttempt
        let outcome = await withTaskCancellationHandler {
            await sinkAttempt.result
        } onCancel: {
            sinkAttempt.cancel()
        }
        sinkAttempts[key] = nil
        // Kept by the journal meanwhile (at shutdown, while the database had been unreachable): reported there.
        if let current = inFlight[key] { entry.journaled = current.journaled }
        if case .failure(let error) = outcome {
            await attemptFailed(entry, error: error)
            return false
        }
        await journal.done(entry, delivered: true)
        inFlight[key] = nil
        metrics?.callbackDelivery(.delivered)
        let message: Logger.Message =
            atShutdown ? "callback delivered at shutdown" : entry.attempts == 1 ? "callback delivered" : "callback delivered after retries"
        logger.info(
            message,
            metadata: [
                "sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)",
                "attempts": .stringConvertible(entry.attempts),
            ]
        )
        return true
    }

    /// The sink refused an attempt (`entry` counts it): the next one waits for the backoff. A journal that holds it may
    /// take the rest over (the outbox reschedules it for any replica, or gives it up); otherwise it waits in memory (and
    /// is given up past its retry period).
    private func attemptFailed(_ failed: CallbackEntry, error: any Error) async {
        var entry = failed
        let key = entry.key
        let now = ContinuousClock.now
        let settings = settings.current
        if entry.attempts == 1 {
            entry.giveUpAt = now + .seconds(settings.retryForSeconds)
        } else {
            entry.backoff = min(entry.backoff * 2, .seconds(60))
        }
        entry.nextAttempt = now + entry.backoff
        // An attempt the shutdown ended is not the sink's refusal: its claim is released with the others, due at once.
        let endedByShutdown = stopping && error is CancellationError
        if entry.journaled, !endedByShutdown, let retry = await journal.failed(entry, error: error) {
            inFlight[key] = nil
            switch retry {
            case .rescheduled, .heldElsewhere:
                if entry.attempts == 1 { notices.retrying(entry, error: error) }
            case .givenUp:
                notices.givenUp(entry, error: error)
            }
            return
        }
        inFlight[key] = nil
        if stopping {
            // Shutting down: it stays (spooled, or lost without a spool) for flushAtShutdown to decide.
            waiting[key] = entry
        } else if settings.retryForSeconds <= 0 || entry.nextAttempt > entry.giveUpAt {
            notices.givenUp(entry, error: error)
            await journal.done(entry, delivered: false)
        } else {
            waiting[key] = entry
            if entry.attempts == 1 { notices.retrying(entry, error: error) }
            startWorker()
        }
    }

    private func startWorker() {
        guard worker == nil, !stopping, !waiting.isEmpty else { return }
        worker = Task { await self.work() }
    }

    /// Retries waiting deliveries when they are due, until none waits (or shutdown). Those the journal does not hold yet
    /// (the database could not be reached) are given to it first.
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
            let unkept = due.values.filter { !$0.journaled }
            if !unkept.isEmpty { markJournaled(await journal.keep(Array(unkept), firstTime: false)) }
            _ = await attemptAll(Array(due.keys), waitingAtMost: .seconds(max(settings.current.handOverSeconds, 60)))
        }
        worker = nil
        startWorker()
    }
}
