import Foundation
import Synchronization

/// Messages the demo server "sends" (one-time codes, approval links, notice copies), listed at `/demo/outbox`.
final class DemoOutbox: Sendable {
    /// One sent message.
    struct Entry: Encodable, Sendable {
        let id: Int
        let sentAt: String
        let to: String
        let kind: String
        let subject: String
        let code: String?
        let link: String?
    }

    private struct State {
        var entries: [Entry] = []
        var nextID = 1
    }

    private let state = Mutex(State())
    private let capacity = 200

    /// Appends a message; the oldest are dropped beyond the capacity.
    func send(to: String, kind: String, subject: String, code: String? = nil, link: String? = nil) {
        state.withLock { state in
            let entry = Entry(
                id: state.nextID,
                sentAt: ISO8601DateFormatter().string(from: Date()),
                to: to,
                kind: kind,
                subject: subject,
                code: code,
                link: link
            )
            state.nextID += 1
            state.entries.append(entry)
            if state.entries.count > capacity { state.entries.removeFirst(state.entries.count - capacity) }
        }
    }

    /// All messages, newest first.
    var entries: [Entry] { state.withLock { $0.entries.reversed() } }

    /// The `/demo/outbox` document of `entries`: `{"messages":[…]}`, keys sorted, as ``DemoResponse/json(_:status:contentType:headers:)``
    /// writes it.
    static func document(_ entries: [Entry]) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(["messages": entries])) ?? Data(#"{"messages":[]}"#.utf8))
    }
}
