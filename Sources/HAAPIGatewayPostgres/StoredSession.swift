import HAAPIGateway

/// A session document as loaded: the bytes the caller stored, and the version a save must name
/// (``PostgresSessionStorage/save(id:document:expectedVersion:claim:)``).
public struct StoredSession: Sendable, Equatable {
    /// The document, opened.
    public let document: [UInt8]
    /// The row's version: 1 when inserted, one more with every save.
    public let version: Int64
}
