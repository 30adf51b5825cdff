import Foundation

/// A callback delivery kept across a restart: the sink's name, the delivery id and the outcome document. The spool file
/// is a JSON array of these, written with mode 0600 (it may hold tokens) through an atomic rename.
struct SpooledDelivery: Codable, Sendable {
    let sink: String
    let id: String
    let outcome: String
    /// The outcome document (JSON text).
    let document: String

    init(sink: String, delivery: CallbackDelivery) {
        self.sink = sink
        self.id = delivery.id
        self.outcome = delivery.outcome
        self.document = String(decoding: delivery.document, as: UTF8.self)
    }

    var delivery: CallbackDelivery { CallbackDelivery(id: id, document: Array(document.utf8), outcome: outcome) }

    static func write(_ entries: [SpooledDelivery], to path: String) throws {
        try AtomicFile.write(Array(try JSONEncoder().encode(entries)), to: path)
    }

    static func read(_ path: String) throws -> [SpooledDelivery] {
        try JSONDecoder().decode([SpooledDelivery].self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
