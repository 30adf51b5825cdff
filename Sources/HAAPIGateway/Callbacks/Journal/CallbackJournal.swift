/// Where ``CallbackDispatcher`` keeps the deliveries it has not done yet, so that a stop or a crash does not lose them.
/// The dispatcher attempts and backs off the same way whichever it is; only what survives the process differs.
enum CallbackJournal {
    /// Memory only (no `callbacks.spoolFile`, memory store): a delivery not done when the gateway stops is logged as
    /// lost, naming the sink.
    case memoryOnly
    /// `callbacks.spoolFile` (memory store): written before the first attempt and after every change; this replica's
    /// next start delivers what is left.
    case spoolFile(CallbackSpool)
    /// The PostgreSQL outbox (`sessions.store: postgres`): recorded before the first attempt, each result reported
    /// there, and any replica delivers what is left.
    case outbox(CallbackOutbox)
}
