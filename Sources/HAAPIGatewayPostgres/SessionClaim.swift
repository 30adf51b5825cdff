import HAAPIGateway

/// What ``PostgresSessionStorage/claim(id:claim:lease:knownVersion:)`` found.
package enum SessionClaim: Sendable, Equatable {
    /// A live session, now held by the caller's claim.
    case claimed(StoredSession)
    /// A live session still at the version the caller holds (`knownVersion`), now held by the caller's claim; its
    /// document was not read again.
    case claimedCurrent(version: Int64)
    /// A live session another request holds (on this replica or another): try again when it is released.
    case busy
    /// No live session with that id.
    case absent
    /// A live row whose document cannot be opened; the claim was released.
    case unreadable(SessionCipherError)
}
