import Foundation

/// Where the start links already used are noted, so that each starts one sign-in: in this process's memory
/// (``MemoryStartLinkLedger``), or with `sessions.store: postgres` in the database (``PostgresStartLinkLedger``), where a
/// link used on one replica is used on all.
package protocol StartLinkLedger: Sendable {
    /// Notes the link with `signature` as used until it expires (`expiry`); one call at a time wins.
    /// - Parameter now: The wall clock's reading, for forgetting links that have expired.
    /// - Returns: Whether this call used it (false: it was used already).
    func use(signature: String, expiry: Date, now: Date) async throws(GatewayError) -> Bool
}
