/// Where ``CallbackDispatcher`` keeps the deliveries it has not done yet, so that a stop or a crash does not lose them.
/// The dispatcher attempts and backs off the same way whichever it is; only what survives the process differs:
/// ``MemoryJournal`` (nothing), ``SpoolJournal`` (`callbacks.spoolFile`: this replica's next start), ``OutboxJournal``
/// (the PostgreSQL outbox: any replica).
package protocol CallbackJournal: Sendable {
    /// What becomes of the deliveries not done when the process ends, in words that end a sentence of the stop's report.
    nonisolated var keptAfterStop: String { get }

    /// Starts the journal's own work: deliveries it holds from before, or that are due for this replica, are handed to
    /// `dispatcher` (``CallbackDispatcher/take(_:sink:attemptsMade:attemptNow:)``).
    func start(for dispatcher: CallbackDispatcher) async

    /// Keeps deliveries before their attempt: new ones (`firstTime`), or ones it could not keep before.
    /// - Returns: The keys of those it holds now.
    func keep(_ entries: [CallbackEntry], firstTime: Bool) async -> Set<String>

    /// Keeps a sign-in's outcome before its first attempt, as ``keep(_:firstTime:)`` does new deliveries; a journal
    /// that replicas share also notes it as the sign-in's one outcome (``OutboxJournal``).
    /// - Returns: The keys of those it holds now, and the outcome the sign-in had before when one was noted (an `error`
    ///   or `cancelled` outcome is then not kept, and is not to be delivered).
    func keepOutcome(_ entries: [CallbackEntry]) async -> (kept: Set<String>, earlier: String?)

    /// A delivery it holds is done for its sink: accepted (`delivered`), or given up by the dispatcher.
    func done(_ entry: CallbackEntry, delivered: Bool) async

    /// An attempt of a delivery it holds failed: whether the journal takes the rest over (the outbox reschedules it for
    /// any replica), and how; nil when the dispatcher retries it from memory.
    func failed(_ entry: CallbackEntry, error: any Error) async -> CallbackJournalRetry?

    /// The dispatcher is stopping: nothing more is handed to it.
    func stopHandingOver() async

    /// At shutdown, the deliveries not done: what the journal keeps for later, it keeps and says so.
    /// - Returns: Those it cannot keep, each with why (the dispatcher logs them as lost, naming the sink).
    func leave(_ remaining: [CallbackEntry]) async -> [(entry: CallbackEntry, reason: GatewayError)]
}

extension CallbackJournal {
    /// A journal of one process notes no outcome: a sign-in that process ended cannot go on elsewhere.
    func keepOutcome(_ entries: [CallbackEntry]) async -> (kept: Set<String>, earlier: String?) {
        (await keep(entries, firstTime: true), nil)
    }
}
