import Foundation
import Logging

/// Hands each sign-in outcome to every configured sink. Each sink is tried at once; a sink that fails is retried in the
/// background with exponential backoff (``CallbackDeliverySettings``) until it accepts or the retry period ends, so a
/// receiver that is down for a while loses nothing. Giving up is logged as an error naming the sink — never silent.
/// With a spool file, deliveries still pending at shutdown are written there (0600) and retried after the next start.
actor CallbackDispatcher {
    private struct Pending {
        let sink: any CallbackSink
        let delivery: CallbackDelivery
        let giveUpAt: ContinuousClock.Instant
        var attempts: Int
        var nextAttempt: ContinuousClock.Instant
        var backoff: Duration
    }

    private(set) var sinks: [any CallbackSink]
    /// Told of every outcome after its first delivery attempt (the `login` command waits on it).
    private let observer: (@Sendable (CompletionOutcome) async -> Void)?
    private var settings: CallbackDeliverySettings
    private let spoolPath: String?
    private let metrics: GatewayMetrics?
    private let logger: Logger
    private var pending: [Pending] = []
    private var worker: Task<Void, Never>?

    init(
        sinks: [any CallbackSink], settings: CallbackDeliverySettings = .init(), logger: Logger,
        observer: (@Sendable (CompletionOutcome) async -> Void)? = nil, spoolPath: String? = nil, metrics: GatewayMetrics? = nil
    ) {
        self.sinks = sinks
        self.settings = settings
        self.spoolPath = spoolPath
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

    /// A reload: outcomes from now on go to these sinks, with these retries. Deliveries already waiting for a retry
    /// keep their sink (nothing is dropped because the configuration changed).
    func replace(configurations: [CallbackSinkConfiguration], settings: CallbackDeliverySettings) {
        sinks = Self.sinks(for: configurations)
        self.settings = settings
    }

    /// Delivers the outcome to all sinks, one attempt each now; failures are queued for retries.
    /// - Returns: Whether every sink accepted it on this first attempt.
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
        var allDelivered = true
        for sink in sinks {
            do {
                try await sink.deliver(delivery)
                metrics?.callbackDelivery(result: "delivered")
                logger.info("callback delivered", metadata: ["sink": "\(sink.name)", "outcome": "\(delivery.outcome)", "delivery": "\(delivery.id)"])
            } catch {
                allDelivered = false
                enqueue(sink: sink, delivery: delivery, error: error)
            }
        }
        await observer?(outcome)
        return allDelivered
    }

    /// The number of deliveries waiting for a retry.
    var pendingCount: Int { pending.count }

    /// Waits until no delivery is pending (delivered or given up).
    func drained() async {
        while let current = worker { await current.value }
    }

    /// At shutdown: one last attempt for every pending delivery; those still refused go to the spool file (or, without
    /// one, are logged as lost).
    func flushAtShutdown() async {
        worker?.cancel()
        let remaining = pending
        pending = []
        var unsent: [SpooledDelivery] = []
        for entry in remaining {
            do {
                try await entry.sink.deliver(entry.delivery)
                logger.info("callback delivered at shutdown", metadata: ["sink": "\(entry.sink.name)", "delivery": "\(entry.delivery.id)"])
            } catch {
                if spoolPath == nil {
                    abandon(sink: entry.sink, delivery: entry.delivery, attempts: entry.attempts + 1, error: error)
                } else {
                    unsent.append(SpooledDelivery(sink: entry.sink.name, delivery: entry.delivery))
                }
            }
        }
        guard let spoolPath, !unsent.isEmpty else { return }
        do {
            try SpooledDelivery.write(unsent, to: spoolPath)
            for _ in unsent { metrics?.callbackDelivery(result: "spooled") }
            logger.warning("callback deliveries spooled for the next start", metadata: ["count": "\(unsent.count)", "spool": "\(spoolPath)"])
        } catch {
            for entry in unsent {
                logger.error("callback delivery lost: the spool file cannot be written", metadata: ["sink": "\(entry.sink)", "delivery": "\(entry.delivery.id)"])
            }
        }
    }

    /// At start: takes the deliveries of the spool file into the retry queue (for sinks still configured) and removes
    /// the file; deliveries for sinks no longer configured stay in the file, with an error in the log.
    func restoreSpool() {
        guard let spoolPath, FileManager.default.fileExists(atPath: spoolPath) else { return }
        let spooled: [SpooledDelivery]
        do {
            spooled = try SpooledDelivery.read(spoolPath)
        } catch {
            logger.error("the callback spool file cannot be read; it is left in place", metadata: ["spool": "\(spoolPath)"])
            return
        }
        var orphans: [SpooledDelivery] = []
        for entry in spooled {
            guard let sink = sinks.first(where: { $0.name == entry.sink }) else {
                logger.error("a spooled callback delivery names a sink that is no longer configured; it stays in the spool", metadata: ["sink": "\(entry.sink)"])
                orphans.append(entry)
                continue
            }
            let now = ContinuousClock.now
            let backoff = Duration.milliseconds(Int64(max(0.001, settings.initialBackoffSeconds) * 1000))
            pending.append(Pending(sink: sink, delivery: entry.delivery, giveUpAt: now + .seconds(max(1, settings.retryForSeconds)), attempts: 0, nextAttempt: now, backoff: backoff))
        }
        do {
            if orphans.isEmpty { try FileManager.default.removeItem(atPath: spoolPath) } else { try SpooledDelivery.write(orphans, to: spoolPath) }
        } catch {
            logger.error("the callback spool file cannot be updated", metadata: ["spool": "\(spoolPath)"])
        }
        logger.notice("spooled callback deliveries restored", metadata: ["count": "\(spooled.count - orphans.count)"])
        if !pending.isEmpty, worker == nil { worker = Task { await self.work() } }
    }

    // MARK: - Retries

    private func enqueue(sink: any CallbackSink, delivery: CallbackDelivery, error: any Error) {
        let now = ContinuousClock.now
        let backoff = Duration.milliseconds(Int64(max(0.001, settings.initialBackoffSeconds) * 1000))
        guard settings.retryForSeconds > 0 else {
            abandon(sink: sink, delivery: delivery, attempts: 1, error: error)
            return
        }
        metrics?.callbackDelivery(result: "retried")
        logger.warning(
            "callback delivery failed; retrying",
            metadata: ["sink": "\(sink.name)", "outcome": "\(delivery.outcome)", "delivery": "\(delivery.id)", "error": "\(Self.describe(error))"])
        pending.append(
            Pending(sink: sink, delivery: delivery, giveUpAt: now + .seconds(settings.retryForSeconds), attempts: 1, nextAttempt: now + backoff, backoff: backoff))
        if worker == nil {
            worker = Task { await self.work() }
        }
    }

    private func work() async {
        while !pending.isEmpty, !Task.isCancelled {
            let next = pending.map(\.nextAttempt).min()!
            try? await Task.sleep(until: next, clock: .continuous)
            guard !Task.isCancelled else { break }
            // Take the due entries out first: the list may change while an attempt is awaited.
            let now = ContinuousClock.now
            let due = pending.filter { $0.nextAttempt <= now }
            pending.removeAll { $0.nextAttempt <= now }
            for var entry in due {
                entry.attempts += 1
                do {
                    try await entry.sink.deliver(entry.delivery)
                    metrics?.callbackDelivery(result: "delivered")
                    logger.info(
                        "callback delivered after retries",
                        metadata: ["sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)", "attempts": "\(entry.attempts)"])
                } catch {
                    entry.backoff = min(entry.backoff * 2, .seconds(60))
                    entry.nextAttempt = ContinuousClock.now + entry.backoff
                    if entry.nextAttempt > entry.giveUpAt || Task.isCancelled {
                        abandon(sink: entry.sink, delivery: entry.delivery, attempts: entry.attempts, error: error)
                    } else {
                        pending.append(entry)
                    }
                }
            }
        }
        worker = nil
    }

    private func abandon(sink: any CallbackSink, delivery: CallbackDelivery, attempts: Int, error: any Error) {
        metrics?.callbackDelivery(result: "given_up")
        logger.error(
            "callback delivery given up; this outcome is lost for the sink",
            metadata: [
                "sink": "\(sink.name)", "outcome": "\(delivery.outcome)", "delivery": "\(delivery.id)", "attempts": "\(attempts)",
                "error": "\(Self.describe(error))",
            ])
    }

    /// A secret-free error description (gateway errors carry safe messages; anything else is named by type).
    private static func describe(_ error: any Error) -> String {
        (error as? GatewayError)?.message ?? "\(type(of: error))"
    }
}
