import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// A webhook receiver on a loopback port. While held, a delivery that arrives waits until the receiver is released and
/// is then refused (503): an attempt under way that never completes for the replica making it. Otherwise it is
/// accepted (200). Delivery ids (`X-HAAPI-Gateway-Delivery`) are recorded as they arrive and as they are accepted.
final class WebhookReceiver: Sendable {
    private let held = Mutex(false)
    private let arrived = Mutex<[String]>([])
    private let acceptedIDs = Mutex<[String]>([])
    private let traceparentsSent = Mutex<[String]>([])

    /// The delivery ids of every request, in order of arrival.
    var arrivals: [String] { arrived.withLock { $0 } }
    /// The delivery ids of the requests answered 200.
    var accepted: [String] { acceptedIDs.withLock { $0 } }
    /// The `traceparent` of every request that carried one, in order of arrival.
    var traceparents: [String] { traceparentsSent.withLock { $0 } }

    /// Holds (or releases) the deliveries that arrive from now on.
    func hold(_ holding: Bool) {
        held.withLock { $0 = holding }
    }

    /// Serves on a free loopback port while `body` runs, with the receiver's URL.
    func serving<T: Sendable>(_ body: (URL) async throws -> T) async throws -> T {
        let router = Router()
        router.post("/hook") { request, _ in
            _ = try await request.body.collect(upTo: 1 << 20)
            let id = request.headers[HTTPField.Name("X-HAAPI-Gateway-Delivery")!] ?? ""
            self.arrived.withLock { $0.append(id) }
            if let traceparent = request.headers[HTTPField.Name("traceparent")!] { self.traceparentsSent.withLock { $0.append(traceparent) } }
            guard self.held.withLock({ $0 }) else {
                self.acceptedIDs.withLock { $0.append(id) }
                return Response(status: .ok)
            }
            while self.held.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(50)) }
            return Response(status: .serviceUnavailable)
        }
        return try await LoopbackServer.serving(router, label: "webhook-receiver") { port in
            // Released before the server stops, so that no held request keeps it waiting.
            defer { hold(false) }
            return try await body(URL(string: "http://127.0.0.1:\(port)/hook")!)
        }
    }
}
