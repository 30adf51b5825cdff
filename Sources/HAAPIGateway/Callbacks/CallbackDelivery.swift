/// One outcome document on its way to the sinks. `id` is the same for every attempt and every sink, so a receiver
/// can drop duplicates (the webhook sends it as `X-HAAPI-Gateway-Delivery`).
struct CallbackDelivery: Sendable {
    /// A random id of this outcome.
    let id: String
    /// The JSON document.
    let document: [UInt8]
    /// `success`, `error` or `cancelled` (for logs).
    let outcome: String
    /// The sign-in it is the outcome of (`signInId`), when known.
    var signIn: String? = nil
}
