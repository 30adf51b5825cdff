import HAAPIGateway

/// What storing a new session at the cap did (``PostgresSessionStorage/insert(id:document:lifetimes:address:withinCap:)``).
package enum SessionInsertion: Sendable, Equatable {
    /// Stored, below the cap.
    case inserted
    /// Stored, after pushing out a session nobody came back to.
    case insertedAfterPushingOut
    /// Not stored: the cap is reached and every session is in use.
    case full
}
