/// What ``PostgresSessionStorage/rotate(id:)`` did.
public enum SessionRotation: Sendable, Equatable {
    /// The session now has `id` (the old id finds nothing) and this version.
    case rotated(id: String, version: Int64)
    /// No live session had the old id.
    case gone
    /// The session's document cannot be opened, so it cannot be sealed for its new id; nothing changed.
    case unreadable(SessionCipherError)
}
