/// What one operation of a PostgreSQL store does while the database is down, said by every store for every operation
/// it runs (``PostgresDatabase/storeCall(_:whileDown:refusal:logger:failure:_:)``).
enum WhileDatabaseDown: Sendable {
    /// A person's page or a device's request waits for it: refused at once while the database is known to be down or
    /// suspect, or its tables are not prepared (``PostgresDatabase/pageRefusal``), rather than wait out the operation's
    /// limit again (the outage's probe finds when it answers).
    case refuseAtOnce
    /// Work whose result must land, and which its caller bounds and retries itself (a device's tokens handed over, the
    /// end of a hand-over): asked whatever is known of the database, each time within the operation's limit.
    case askAnyway
}
