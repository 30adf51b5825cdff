/// Receives the outcome of a sign-in.
protocol CallbackSink: Sendable {
    /// A secret-free description for logs (e.g. `file:/path`).
    var name: String { get }
    /// Delivers the encoded outcome.
    func deliver(_ document: [UInt8]) async throws
}
