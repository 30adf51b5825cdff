/// Receives the outcome of a sign-in. One call is one attempt; ``CallbackDispatcher`` retries failures.
package protocol CallbackSink: Sendable {
    /// A secret-free description for logs (e.g. `file:/path`).
    var name: String { get }
    /// Delivers the outcome once; throws when it was not accepted.
    func deliver(_ delivery: CallbackDelivery) async throws
}
