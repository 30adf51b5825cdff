import HAAPI
import Logging

/// Makes the live ``SignInSession`` of a stored ``SignInDocument``: its flow restored by the upstream's client (the
/// DPoP key, HAAPI token and upstream session of the replica that stored it), with this replica's dispatcher, settings
/// in effect and metrics.
package struct SignInRestorer: Sendable {
    let upstream: UpstreamConnection
    let dispatcher: CallbackDispatcher
    let live: LiveSettings
    let devices: (any DeviceAuthorizationStore)?
    let metrics: GatewayMetrics
    let logger: Logger

    /// The live session of a stored document, or nil when it does not decode (another format) or its flow's state does
    /// not load here (another client id or upstream, a DPoP key or step that does not load). Its steps are decoded
    /// through the client's shared step cache: the record's step is most often the flow's, decoded once for both.
    /// - Throws: ``GatewayError`` "sign-in is unavailable" (503) while the gateway has not reached its upstream.
    package func session(from bytes: [UInt8]) throws(GatewayError) -> SignInSession? {
        guard let client = upstream.client else { throw GatewayError(.upstreamNotReady, .signInUnavailable).retrying(after: 5) }
        let document: SignInDocument
        do {
            document = try SignInDocument.decode(
                bytes,
                decodingSteps: { (text: String) throws(HAAPIError) -> Representation in try client.decodeStep(jsonText: text) }
            )
        } catch {
            logger.warning("a stored sign-in does not decode; it starts again", metadata: ["error": "\(type(of: error))"])
            return nil
        }
        let flow: HAAPIFlow
        do {
            flow = try client.restoreFlow(document.flow, currentStep: document.flowStep)
        } catch {
            logger.warning("a stored sign-in's flow does not load here", metadata: ["error": "\(error.message)"])
            return nil
        }
        let configuration = live.configuration
        return SignInSession(
            record: document.record,
            flow: flow,
            dispatcher: dispatcher,
            polling: configuration.polling,
            outcome: configuration.outcome,
            logger: logger,
            device: DeviceSignIn(document.record.device, store: devices),
            metrics: metrics,
            facts: upstream.facts
        )
    }
}
