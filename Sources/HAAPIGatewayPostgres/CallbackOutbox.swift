import HAAPIGateway

/// The PostgreSQL outbox (``PostgresOutbox``) with the figures ``OutboxJournal`` claims by.
///
/// Every replica's dispatcher records a new delivery claimed for its first attempt, reports each attempt there
/// (delivered, or rescheduled with its backoff, or given up), and asks every ``pollInterval`` for deliveries that are
/// due and that nobody holds, for the sinks it has: so a delivery whose replica stopped or was killed is delivered by
/// another.
struct CallbackOutbox: Sendable {
    /// The table.
    let table: PostgresOutbox
    /// How long a claim keeps other replicas off a delivery while this one attempts it (default 60 s). It must outlast
    /// an attempt and the report of its result: twice the exec sink's 30 s limit, well past the webhook's 5 s, with the
    /// database's 5 s to record the result. It is also how long a delivery whose replica was killed in the middle of an
    /// attempt waits before another replica takes it over (a stop releases its claims at once).
    var attemptLease: Duration = .seconds(60)
    /// How often the dispatcher asks for due deliveries when it knows of none due sooner (default 1 s): one indexed
    /// query that returns no row while nothing is due, so it costs each replica a query a second; the backoff's first
    /// step is 1 s, so a retry another replica scheduled is at most that late. A retry this replica scheduled is
    /// claimed when it is due, and after a full batch the next is claimed at once.
    var pollInterval: Duration = .seconds(1)
    /// The most claimed deliveries this replica attempts at once (default 16): a backlog is worked off in batches of
    /// this many, so that one replica does not claim everything and hold it behind a slow sink.
    var claimBatch = 16

    /// The outbox in `table`, with the default figures.
    init(table: PostgresOutbox) {
        self.table = table
    }

    /// The outbox in `table`, with other figures (tests: short leases and polls).
    init(table: PostgresOutbox, attemptLease: Duration, pollInterval: Duration, claimBatch: Int = 16) {
        self.table = table
        self.attemptLease = attemptLease
        self.pollInterval = pollInterval
        self.claimBatch = claimBatch
    }
}
