extension PostgresDatabase {
    /// How a statement's transaction commits, which picks its pool.
    enum Commit: Sendable {
        /// Waiting until its change is on the database's disk (PostgreSQL's default): every delivery of the outbox (the
        /// tokens on their way to the callbacks must never be lost); the tables.
        case durable
        /// Without waiting for the disk (PostgreSQL's asynchronous commit: `synchronous_commit = off` on the connections
        /// of this pool): what a sign-in is and who holds it, new, saved, held and used. Its other sessions see the change
        /// at once, as any commit, and a gateway that is killed loses nothing; only a database server that crashes may
        /// forget the last of these changes (about 0.6 s of them at PostgreSQL's default `wal_writer_delay`; never half of
        /// one, never a later one without those before it). A sign-in then goes back to an earlier page with its
        /// earlier version (every replica reads that page again, the version check makes a post of the later page
        /// stale; a replica that kept the forgotten version decoded may take a later write of the same version number
        /// for it), which the upstream may no longer accept (the person starts again); a hold ends early, which the save's
        /// check on the holder turns into "changed meanwhile"; a sign-in that had just started is gone. Waiting for the
        /// disk made each save 0.15 ms slower on the benchmark machine (0.39 against 0.24 ms at the median).
        /// `sessions.synchronousCommit: true` (``Options/synchronousCommit``) makes these wait for the disk as well.
        case asynchronous
    }
}
