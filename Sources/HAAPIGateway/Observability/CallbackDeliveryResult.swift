/// How a callback delivery's attempt ended, or where it was left: the `result` of
/// `haapi_gateway_callback_deliveries_total`.
package enum CallbackDeliveryResult: String, CaseIterable, Sendable {
    /// A sink accepted it.
    case delivered
    /// An attempt failed; another follows after the backoff.
    case retried
    /// `callbacks.retryForSeconds` passed without a sink accepting it.
    case givenUp = "given_up"
    /// Left at shutdown in the spool file or the PostgreSQL outbox, for the next start or another replica.
    case spooled
}
