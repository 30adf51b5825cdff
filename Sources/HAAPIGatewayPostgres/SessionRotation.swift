import HAAPIGateway

/// What ``PostgresSessionStorage/rotate(id:document:expectedVersion:claim:)`` did.
package enum SessionRotation: Sendable, Equatable {
    /// The session now has `id` (the old id finds nothing) and this version.
    case rotated(id: String, version: Int64)
    /// Another writer saved the session first, or another request holds it: nothing changed.
    case conflict
    /// No live session had the old id.
    case gone
}
