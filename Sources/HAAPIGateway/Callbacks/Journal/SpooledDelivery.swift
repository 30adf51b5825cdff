import Foundation

/// A callback delivery kept across a restart: the sink's name, the delivery id and the outcome document (a line of the
/// spool, ``CallbackSpool``).
package struct SpooledDelivery: Codable, Sendable {
    package let sink: String
    package let id: String
    package let outcome: String
    /// The outcome document (JSON text).
    package let document: String

    init(sink: String, delivery: CallbackDelivery) {
        self.sink = sink
        self.id = delivery.id
        self.outcome = delivery.outcome
        self.document = String(decoding: delivery.document, as: UTF8.self)
    }

    var delivery: CallbackDelivery { CallbackDelivery(id: id, document: Array(document.utf8), outcome: outcome) }
}
