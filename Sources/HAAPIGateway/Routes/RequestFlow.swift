import Synchronization

/// The sign-in a request belongs to, once a route has found its session: the request's log line carries its flow id,
/// so that one sign-in's lines (requests and events) can be joined.
final class RequestFlow: Sendable {
    private let flowID = Mutex<String?>(nil)

    /// The flow id, nil when the request belongs to no sign-in.
    var id: String? { flowID.withLock { $0 } }

    /// Marks the request as one of the sign-in with `id`.
    func belongs(to id: String) {
        flowID.withLock { $0 = id }
    }
}
