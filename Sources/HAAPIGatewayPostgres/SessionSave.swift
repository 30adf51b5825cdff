import HAAPIGateway

/// What ``PostgresSessionStorage/save(id:document:expectedVersion:claim:)`` did.
package enum SessionSave: Sendable, Equatable {
    /// The document is stored, with this new version.
    case saved(version: Int64)
    /// The session was saved by someone else since the caller loaded it (another request, another replica): nothing
    /// was written. Load it again.
    case conflict
    /// The session is gone (expired or removed): nothing was written.
    case gone
}
