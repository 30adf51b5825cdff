import Foundation
import Synchronization

/// The steps a client's flows decoded, by the exact response that carried them: a step whose response (status,
/// content type and body, byte for byte) was decoded before is taken from here instead of decoded again. A server
/// holding many flows at the same step (everyone's first page, the password form) then keeps one copy of it, since
/// decoded steps are values whose arrays and strings are shared between copies. The oldest entry makes room for a new
/// one; problems and bodies over 64 KiB are never kept.
final class SharedStepCache: Sendable {
    /// A response, hashed once over all of its bytes.
    struct Key: Hashable, Sendable {
        let status: Int
        let contentType: String?
        let body: Data
        private let bodyHash: Int

        init(status: Int, contentType: String?, body: Data) {
            self.status = status
            self.contentType = contentType
            self.body = body
            var hasher = Hasher()
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
            self.bodyHash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bodyHash)
        }

        static func == (left: Key, right: Key) -> Bool {
            left.bodyHash == right.bodyHash && left.status == right.status && left.contentType == right.contentType && left.body == right.body
        }
    }

    private struct Entries {
        var steps: [Key: Representation] = [:]
        /// Keys in the order they came, a ring: `next` is the oldest once it is full.
        var order: [Key] = []
        var next = 0
    }

    /// Bodies larger than this are decoded every time (nothing in the HAAPI samples comes near it).
    static let maximumBodyBytes = 64 * 1024

    let capacity: Int
    private let entries = Mutex(Entries())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The response decoded, from this cache when an identical one was decoded before.
    func decode(status: Int, contentType: String?, body: Data, keepingRawJSON: Bool) throws(HAAPIError) -> HAAPIResponse {
        guard capacity > 0, body.count <= Self.maximumBodyBytes else {
            return try HAAPIResponse.decode(status: status, contentType: contentType, body: body, keepingRawJSON: keepingRawJSON)
        }
        let key = Key(status: status, contentType: contentType, body: body)
        if let step = entries.withLock({ $0.steps[key] }) { return .representation(step) }
        let decoded = try HAAPIResponse.decode(status: status, contentType: contentType, body: body, keepingRawJSON: keepingRawJSON)
        if case .representation(let step) = decoded { insert(step, for: key) }
        return decoded
    }

    /// How many steps are kept now.
    var count: Int { entries.withLock { $0.steps.count } }

    private func insert(_ step: Representation, for key: Key) {
        entries.withLock { entries in
            guard entries.steps[key] == nil else { return }
            if entries.order.count < capacity {
                entries.order.append(key)
            } else {
                entries.steps[entries.order[entries.next]] = nil
                entries.order[entries.next] = key
                entries.next = (entries.next + 1) % capacity
            }
            entries.steps[key] = step
        }
    }
}
