import HAAPIGateway

/// A session document as loaded: the bytes the caller stored, and the version a save must name
/// (``PostgresSessionStorage/save(id:document:expectedVersion:claim:)``).
package struct StoredSession: Sendable, Equatable {
    /// The document, opened.
    package let document: [UInt8]
    /// The row's version: 1 when inserted, one more with every save.
    package let version: Int64
}
