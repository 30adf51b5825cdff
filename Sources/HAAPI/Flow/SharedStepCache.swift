import Foundation
import Synchronization

/// The steps a client's flows decoded, by the exact response that carried them: a step whose response (status,
/// content type and body, byte for byte) was decoded before is taken from here instead of decoded again. A server
/// holding many flows at the same step (everyone's first page, the password form) then keeps one copy of it, since
/// decoded steps are values whose arrays and strings are shared between copies. When it is full, the oldest step not
/// reused since the ring last passed over it makes room (a second-chance ring, so the steps everyone meets stay);
/// problems, authorization responses (each one unique, with its code) and bodies over 64 KiB are never kept.
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

    private struct Entry {
        let step: Representation
        /// Reused since the ring last passed over it.
        var reused = false
    }

    private struct Entries {
        var steps: [Key: Entry] = [:]
        /// Keys in the order they came, a ring: `next` is the next to consider once it is full.
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
        let kept: Representation? = entries.withLock { entries in
            entries.steps[key]?.reused = true
            return entries.steps[key]?.step
        }
        if let kept { return .representation(kept) }
        let decoded = try HAAPIResponse.decode(status: status, contentType: contentType, body: body, keepingRawJSON: keepingRawJSON)
        if case .representation(let step) = decoded, step.type != .oauthAuthorizationResponse { insert(step, for: key) }
        return decoded
    }

    /// How many steps are kept now.
    var count: Int { entries.withLock { $0.steps.count } }

    /// Whether the step of this response is kept.
    func contains(status: Int, contentType: String?, body: Data) -> Bool {
        entries.withLock { $0.steps[Key(status: status, contentType: contentType, body: body)] != nil }
    }

    private func insert(_ step: Representation, for key: Key) {
        entries.withLock { entries in
            guard entries.steps[key] == nil else { return }
            if entries.order.count < capacity {
                entries.order.append(key)
            } else {
                // Each reused step gets a second chance (its mark cleared); at most one round passes before a step goes.
                while entries.steps[entries.order[entries.next]]?.reused == true {
                    entries.steps[entries.order[entries.next]]?.reused = false
                    entries.next = (entries.next + 1) % capacity
                }
                entries.steps[entries.order[entries.next]] = nil
                entries.order[entries.next] = key
                entries.next = (entries.next + 1) % capacity
            }
            entries.steps[key] = Entry(step: step)
        }
    }
}
