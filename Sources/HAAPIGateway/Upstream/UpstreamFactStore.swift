import HAAPI

/// Where the gateway keeps what it learned about its upstream that outlives a process: whether the upstream issues
/// token-bound authorization codes (``CodeExchangeFinding``), by issuer and client id. Kept where the gateway keeps
/// state: the PostgreSQL database of `sessions.store: postgres` (``PostgresUpstreamFacts``), a file beside
/// `callbacks.spoolFile`, or for `login` a file beside its token file (``UpstreamFactFile``). Nothing secret is in it.
package protocol UpstreamFactStore: Sendable {
    /// Where it is, for log lines (a path; a database's URL without its password).
    var place: String { get }
    /// Whether other processes write it while this one runs (replicas sharing a database): read again before an exchange
    /// as long as the finding is unknown, so that what one replica learned spares the others.
    var isShared: Bool { get }
    /// Whether it can be read now (a database's tables are prepared once it runs).
    var isReady: Bool { get }
    /// What is kept for `key`; ``CodeExchangeFinding/unknown`` when nothing is.
    func finding(for key: UpstreamFactKey) async throws(UpstreamFactError) -> CodeExchangeFinding
    /// Keeps `finding` for `key` (``CodeExchangeFinding/unknown`` forgets it).
    func record(_ finding: CodeExchangeFinding, for key: UpstreamFactKey) async throws(UpstreamFactError)
}
