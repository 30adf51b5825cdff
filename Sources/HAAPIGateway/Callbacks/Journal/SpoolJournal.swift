import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `callbacks.spoolFile` (the memory store) as the dispatcher's journal: every delivery not done yet is in the spool
/// (``CallbackSpool``, 0600), written before its first attempt and marked done after it, so that neither a shutdown in
/// the middle of an attempt nor a SIGKILL loses it: this replica's next start delivers it. (A sink that accepted a
/// delivery just before the process was killed may see it again, with the same delivery id, which is what receivers
/// deduplicate on.)
///
/// A spool file that cannot be written is logged, and the deliveries go on in memory; the next change that rewrites the
/// file writes them all.
actor SpoolJournal: CallbackJournal {
    private var spool: CallbackSpool
    /// What the spool holds: every delivery not done yet, by the dispatcher's key (``CallbackEntry/key``), and those
    /// for sinks no longer configured (kept in the spool, never attempted).
    private var held: [String: SpooledDelivery] = [:]
    private let metrics: GatewayMetrics?
    private let logger: Logger

    nonisolated var keptAfterStop: String { "they stay in the spool file, and the next start delivers them" }

    init(path: String, metrics: GatewayMetrics?, logger: Logger) {
        self.spool = CallbackSpool(path: path)
        self.metrics = metrics
        self.logger = logger
    }

    /// Hands the deliveries a previous run left in the spool to `dispatcher` (attempted at once); those for sinks no
    /// longer configured stay in the spool.
    func start(for dispatcher: CallbackDispatcher) async {
        let path = spool.path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let spooled: [SpooledDelivery]
        do {
            spooled = try CallbackSpool.read(path)
        } catch {
            // Kept for the operator beside a fresh spool, so that new deliveries are safe again.
            let aside = "\(path).unreadable-\(Int(Date().timeIntervalSince1970))"
            let moved = rename(path, aside) == 0
            logger.error(
                "the callback spool file cannot be read; its deliveries are not attempted",
                metadata: ["spool": "\(moved ? aside : path)"]
            )
            return
        }
        var restored = 0
        for (index, entry) in spooled.enumerated() {
            if let key = await dispatcher.take(entry.delivery, sink: entry.sink, attemptsMade: 0, attemptNow: false) {
                held[key] = entry
                restored += 1
            } else {
                held["orphan \(index)"] = entry
                logger.error(
                    "a spooled callback delivery names a sink that is no longer configured; it stays in the spool",
                    metadata: ["sink": "\(entry.sink)"]
                )
            }
        }
        compact()
        logger.notice("spooled callback deliveries restored", metadata: ["count": .stringConvertible(restored)])
    }

    func keep(_ entries: [CallbackEntry], firstTime: Bool) async -> Set<String> {
        let fresh = entries.filter { held[$0.key] == nil }
        let spooled = fresh.map { SpooledDelivery(sink: $0.sink.name, delivery: $0.delivery) }
        for (entry, line) in zip(fresh, spooled) { held[entry.key] = line }
        write { spool throws(GatewayError) in try spool.add(spooled) }
        return Set(entries.map(\.key))
    }

    /// Marks the delivery done in the spool, rewriting the file when done lines outnumber the rest.
    func done(_ entry: CallbackEntry, delivered: Bool) async {
        held[entry.key] = nil
        var due = false
        write { spool throws(GatewayError) in due = try spool.markDone(id: entry.delivery.id, sink: entry.sink.name) }
        if due { compact() }
    }

    func failed(_ entry: CallbackEntry, error: any Error) async -> CallbackJournalRetry? { nil }

    func stopHandingOver() async {}

    /// Everything left stays in the spool for the next start.
    func leave(_ remaining: [CallbackEntry]) async -> [(entry: CallbackEntry, reason: GatewayError)] {
        guard !remaining.isEmpty else { return [] }
        compact()
        for _ in remaining { metrics?.callbackDelivery(.spooled) }
        logger.warning(
            "callback deliveries spooled for the next start",
            metadata: ["count": .stringConvertible(remaining.count), "spool": "\(spool.path)"]
        )
        return []
    }

    /// Rewrites the spool file with every delivery not done yet (or removes it when there is none).
    private func compact() {
        let entries = held.sorted { $0.key < $1.key }.map(\.value)
        write { spool throws(GatewayError) in try spool.rewrite(entries) }
    }

    /// Applies a change to the spool file; a failure is logged (the deliveries go on in memory).
    private func write(_ change: (inout CallbackSpool) throws(GatewayError) -> Void) {
        do throws(GatewayError) {
            try change(&spool)
        } catch {
            logger.error(
                "the callback spool file cannot be written; deliveries under way are not safe from a crash",
                metadata: ["spool": "\(spool.path)"]
            )
        }
    }
}
