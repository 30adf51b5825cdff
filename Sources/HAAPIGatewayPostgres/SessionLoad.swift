import HAAPIGateway

/// What ``PostgresSessionStorage/load(id:knownVersion:)`` found.
package enum SessionLoad: Sendable, Equatable {
    /// A live session.
    case found(StoredSession)
    /// A live session still at the version the caller holds (`knownVersion`): its document was not read again.
    case current(version: Int64)
    /// No live session with that id: never stored, removed, or expired.
    case absent
    /// A live row whose document cannot be opened (sealed under a key no longer configured, altered, or moved from
    /// another row): the caller starts the sign-in again with a notice.
    case unreadable(SessionCipherError)
}
