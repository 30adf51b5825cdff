/// What ``PostgresSessionStorage/claim(id:claim:lease:)`` found.
public enum SessionClaim: Sendable, Equatable {
    /// A live session, now held by the caller's claim.
    case claimed(StoredSession)
    /// A live session another request holds (on this replica or another): try again when it is released.
    case busy
    /// No live session with that id.
    case absent
    /// A live row whose document cannot be opened; the claim was released.
    case unreadable(SessionCipherError)
}
