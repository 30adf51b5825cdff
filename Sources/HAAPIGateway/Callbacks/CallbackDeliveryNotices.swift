import Logging

/// What the dispatcher says of a delivery that fails: counted in the metrics and logged once when it is first retried,
/// and when it is given up (the outcome is then lost for that sink). Never the document: the sink, the outcome's kind,
/// the delivery's id and why.
struct CallbackDeliveryNotices: Sendable {
    let metrics: GatewayMetrics?
    let logger: Logger

    /// The first failure of a delivery that is retried.
    func retrying(_ entry: CallbackEntry, error: any Error) {
        metrics?.callbackDelivery(.retried)
        logger.warning("callback delivery failed; retrying", metadata: Self.metadata(entry, error: error))
    }

    /// A delivery given up.
    func givenUp(_ entry: CallbackEntry, error: any Error) {
        metrics?.callbackDelivery(.givenUp)
        var metadata = Self.metadata(entry, error: error)
        metadata["attempts"] = .stringConvertible(entry.attempts)
        logger.error("callback delivery given up; this outcome is lost for the sink", metadata: metadata)
    }

    private static func metadata(_ entry: CallbackEntry, error: any Error) -> Logger.Metadata {
        [
            "sink": "\(entry.sink.name)", "outcome": "\(entry.delivery.outcome)", "delivery": "\(entry.delivery.id)",
            "error": "\((error as? GatewayError)?.message ?? "\(type(of: error))")",
        ]
    }
}
