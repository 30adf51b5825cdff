/// One outcome document on its way to the sinks. `id` is the same for every attempt and every sink, so a receiver
/// can drop duplicates (the webhook sends it as `X-HAAPI-Gateway-Delivery`).
package struct CallbackDelivery: Sendable {
    /// A random id of this outcome.
    package let id: String
    /// The JSON document.
    package let document: [UInt8]
    /// `success`, `error` or `cancelled` (for logs).
    package let outcome: String
    /// The sign-in it is the outcome of (`signInId`), when known.
    package var signIn: String? = nil

    package init(id: String, document: [UInt8], outcome: String, signIn: String? = nil) {
        self.id = id
        self.document = document
        self.outcome = outcome
        self.signIn = signIn
    }
}
