@testable import HAAPIGateway

/// A sink under another name (the spool matches deliveries to sinks by name).
struct ReceiverNamed: CallbackSink {
    let name: String
    let sink: any CallbackSink

    func deliver(_ delivery: CallbackDelivery) async throws { try await sink.deliver(delivery) }
}
