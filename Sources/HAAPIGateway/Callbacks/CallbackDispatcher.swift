import Foundation
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
        var attempts: Int
        var nextAttempt: ContinuousClock.Instant
        var backoff: Duration
    }

    private(set) var sinks: [any CallbackSink]
    private let observer: (@Sendable (CompletionOutcome) async -> Void)?
    private var settings: CallbackDeliverySettings
    /// The spool file's journal, when `callbacks.spoolFile` is set.
    private var spoolFile: CallbackSpool?
    private let metrics: GatewayMetrics?
    private let logger: Logger
    /// Deliveries waiting for their next attempt, by key.
    private var waiting: [String: Entry] = [:]
    /// Deliveries whose attempt is under way, by key.
    private var inFlight: [String: Entry] = [:]
    /// Spooled deliveries for sinks no longer configured: kept in the spool, never attempted.
    private var orphans: [SpooledDelivery] = []
    private var worker: Task<Void, Never>?
    private var stopping = false

    init(
        sinks: [any CallbackSink], settings: CallbackDeliverySettings = .init(), logger: Logger,
        observer: (@Sendable (CompletionOutcome) async -> Void)? = nil, spoolPath: String? = nil, metrics: GatewayMetrics? = nil
    ) {
        self.sinks = sinks
        self.settings = settings
        self.spoolFile = spoolPath.map(CallbackSpool.init(path:))
        self.metrics = metrics
        self.logger = logger
        self.observer = observer
    }

    init(
        configurations: [CallbackSinkConfiguration], settings: CallbackDeliverySettings = .init(), logger: Logger,
        observer: (@Sendable (CompletionOutcome) async -> Void)? = nil, spoolPath: String? = nil, metrics: GatewayMetrics? = nil
    ) {
        self.init(
            sinks: Self.sinks(for: configurations), settings: settings, logger: logger, observer: observer, spoolPath: spoolPath, metrics: metrics)
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

    /// Hands `outcome` to every sink: all at once, waiting at most `callbacks.handOverSeconds`.
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
        let entries = sinks.enumerated().map { index, sink in
            Entry(
                key: "\(delivery.id)|\(index)", sink: sink, delivery: delivery, giveUpAt: now + .seconds(settings.retryForSeconds), attempts: 0, nextAttempt: now,
                backoff: initialBackoff)
        }
        for entry in entries { inFlight[entry.key] = entry }
        let spooled = entries.map { SpooledDelivery(sink: $0.sink.name, delivery: $0.delivery) }
        spool { file throws(GatewayError) in try file.add(spooled) }
        let accepted = await attemptAll(entries.map(\.key), waitingAtMost: .seconds(settings.handOverSeconds))
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
    /// `callbacks.handOverSeconds`. What is still not delivered stays in the spool for the next start, or without a
    /// spool file is logged as lost, naming the sink.
    func flushAtShutdown() async {
        stopping = true
        worker?.cancel()
        worker = nil
        for (key, entry) in waiting {
            inFlight[key] = entry
            Task { _ = await self.attempt(key, atShutdown: true) }
        }
        waiting = [:]
        // Every attempt under way is awaited, not only those started here: one that succeeds now must not stay spooled.
        let deadline = ContinuousClock.now + .seconds(settings.handOverSeconds)
        while !inFlight.isEmpty, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        let remaining = Array(inFlight.values) + Array(waiting.values)
        guard !remaining.isEmpty else { return }
        if let spoolPath = spoolFile?.path {
            compactSpool()
            for _ in remaining { metrics?.callbackDelivery(result: "spooled") }
            logger.warning("callback deliveries spooled for the next start", metadata: ["count": "\(remaining.count)", "spool": "\(spoolPath)"])
        } else {
            for entry in remaining {
                abandon(entry, error: GatewayError(.internalError, "the gateway stopped before the sink accepted it, and callbacks.spoolFile is not set"))
            }
            waiting = [:]
            inFlight = [:]
        }
    }

    /// Takes in the deliveries a previous run left in the spool (they are retried at once); those for sinks no longer
    /// configured stay in the spool.
    func restoreSpool() {
        guard let spoolPath = spoolFile?.path, FileManager.default.fileExists(atPath: spoolPath) else { return }
        let spooled: [SpooledDelivery]
        do {
            spooled = try CallbackSpool.read(spoolPath)
        } catch {
            // Kept for the operator beside a fresh spool, so that new deliveries are safe again.
            let aside = "\(spoolPath).unreadable-\(Int(Date().timeIntervalSince1970))"
            let moved = rename(spoolPath, aside) == 0
            logger.error(
                "the callback spool file cannot be read; its deliveries are not attempted", metadata: ["spool": "\(moved ? aside : spoolPath)"])
            return
        }
        let now = ContinuousClock.now
        var restored = 0
        for entry in spooled {
            guard let index = sinks.firstIndex(where: { $0.name == entry.sink }) else {
                logger.error("a spooled callback delivery names a sink that is no longer configured; it stays in the spool", metadata: ["sink": "\(entry.sink)"])
                orphans.append(entry)
                continue
            }
            let restoredEntry = Entry(
                key: "\(entry.id)|\(index)", sink: sinks[index], delivery: entry.delivery, giveUpAt: now + .seconds(max(1, settings.retryForSeconds)), attempts: 0, nextAttempt: now,
                backoff: initialBackoff)
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
    /// attempt (or is given up past its retry period). It leaves the spool only when done or given up.
    private func attempt(_ key: String, atShutdown: Bool = false) async -> Bool {
        guard var entry = inFlight[key] else { return false }
        entry.attempts += 1
        do {
            try await entry.sink.deliver(entry.delivery)
            inFlight[key] = nil
            spoolDone(entry)
            metrics?.callbackDelivery(result: "delivered")
            let message: Logger.Message =
                atShutdown ? "callback delivered at shutdown" : entry.attempts == 1 ? "callback delivered" : "callback delivered after retries"
            logger.info(
                message,
                metadata: ["sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)", "attempts": "\(entry.attempts)"])
            return true
        } catch {
            inFlight[key] = nil
            let now = ContinuousClock.now
            if entry.attempts == 1 { entry.giveUpAt = now + .seconds(settings.retryForSeconds) } else { entry.backoff = min(entry.backoff * 2, .seconds(60)) }
            entry.nextAttempt = now + entry.backoff
            if stopping {
                // Shutting down: it stays (spooled, or lost without a spool) for flushAtShutdown to decide.
                waiting[key] = entry
            } else if settings.retryForSeconds <= 0 || entry.nextAttempt > entry.giveUpAt {
                abandon(entry, error: error)
                spoolDone(entry)
            } else {
                waiting[key] = entry
                if entry.attempts == 1 {
                    metrics?.callbackDelivery(result: "retried")
                    logger.warning(
                        "callback delivery failed; retrying",
                        metadata: [
                            "sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)",
                            "error": "\(Self.describe(error))",
                        ])
                }
                startWorker()
            }
            return false
        }
    }

    private func startWorker() {
        guard worker == nil, !stopping, !waiting.isEmpty else { return }
        worker = Task { await self.work() }
    }

    /// Retries waiting deliveries when they are due, until none waits (or shutdown).
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
                "sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)", "attempts": "\(entry.attempts)",
                "error": "\(Self.describe(error))",
            ])
    }

    /// Applies a change to the spool file, when there is one; a failure is logged (the deliveries go on in memory).
    private func spool(_ change: (inout CallbackSpool) throws(GatewayError) -> Void) {
        guard var file = spoolFile else { return }
        do throws(GatewayError) {
            try change(&file)
        } catch {
            logger.error("the callback spool file cannot be written; deliveries under way are not safe from a crash", metadata: ["spool": "\(file.path)"])
        }
        spoolFile = file
    }

    /// Notes in the spool that a delivery is done for its sink, rewriting the file when done lines outnumber the rest.
    private func spoolDone(_ entry: Entry) {
        var due = false
        spool { file throws(GatewayError) in due = try file.markDone(id: entry.delivery.id, sink: entry.sink.name) }
        if due { compactSpool() }
    }

    /// Rewrites the spool file with every delivery not done yet (or removes it when there is none).
    private func compactSpool() {
        let entries = (Array(inFlight.values) + Array(waiting.values)).sorted { $0.key < $1.key }.map {
            SpooledDelivery(sink: $0.sink.name, delivery: $0.delivery)
        } + orphans
        spool { file throws(GatewayError) in try file.rewrite(entries) }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? GatewayError)?.message ?? "\(type(of: error))"
    }
}
