extension PostgresDatabase {
    /// Time limits and the pool's size.
    package struct Options: Sendable {
        /// The most one operation may take, waiting for a connection included (default 5 s).
        package var operationTimeout: Duration = .seconds(5)
        /// The most preparing the tables may take, each of its steps (default 30 s): at start, not while a person waits.
        package var preparationTimeout: Duration = .seconds(30)
        /// The most the readiness query may take (default 2 s).
        package var readinessTimeout: Duration = .seconds(2)
        /// The most opening a connection may take (default 5 s).
        package var connectTimeout: Duration = .seconds(5)
        /// The most connections open at once (default 20), half for each of the two pools (``Commit``).
        package var maximumConnections = 20
        /// How long a readiness answer is reused (default 1 s): `/readyz` may be asked by anyone, and must not turn a
        /// flood of probes into a flood of queries.
        package var readinessReuse: Duration = .seconds(1)
        /// Whether ``Commit/asynchronous`` statements wait for the disk too (`sessions.synchronousCommit`; default
        /// false: they do not).
        package var synchronousCommit = false

        /// The defaults.
        package init() {}
    }
}
