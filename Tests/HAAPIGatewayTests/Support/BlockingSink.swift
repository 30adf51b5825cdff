import Foundation

@testable import HAAPIGateway

/// A sink whose deliveries hang until the test opens it: a receiver that is slow, or stuck at the moment the gateway
/// stops.
final class BlockingSink: CallbackSink, @unchecked Sendable {
    private let lock = NSLock()
    private var open = false
    private var started: [String] = []
    private var accepted: [CallbackDelivery] = []
    let name: String

    init(name: String = "blocking:test") { self.name = name }

    /// The delivery ids whose attempt has begun.
    var attemptsStarted: [String] { lock.withLock { started } }
    /// The deliveries it accepted.
    var deliveries: [CallbackDelivery] { lock.withLock { accepted } }

    /// Lets every waiting and later delivery through.
    func release() { lock.withLock { open = true } }

    func deliver(_ delivery: CallbackDelivery) async throws {
        lock.withLock { started.append(delivery.id) }
        while !(lock.withLock { open }) { try await Task.sleep(for: .milliseconds(20)) }
        lock.withLock { accepted.append(delivery) }
    }
}
