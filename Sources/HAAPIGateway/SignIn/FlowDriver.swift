import Foundation
import HAAPI
import Logging

/// Drives a sign-in's HAAPI flow for one person's request: the call and every automatic advance behind it (redirections,
/// continue-same-step, a finished polling step: the flow's own ``HAAPIFlow/followAutomaticSteps(from:acceptLanguage:)``)
/// within one upstream timeout as a whole, not each call; counted in the metrics; any failure is the person's "try
/// again" page, the sign-in kept.
struct FlowDriver: Sendable {
    let flow: HAAPIFlow
    let metrics: GatewayMetrics
    let logger: FlowLogger

    /// The largest upstream image the gateway serves.
    static let maximumImageBytes = 512 * 1024

    /// A page's upstream budget: twice `upstream.timeoutSeconds`. The steps behind one request take at most one
    /// timeout; the completion that may follow (the code exchange, the ID token's keys, userinfo, handing the tokens to
    /// a device, and waiting for the sinks) has what is left, at least the other one: a page never waits on the
    /// upstream longer than this, and the exchange never fails for the steps' slowness.
    var pageBudget: Duration { flow.requestTimeout * 2 }

    /// Runs `page` (a request's steps and what follows them) within ``pageBudget``; running out of it is the upstream's
    /// failure for the person.
    func withinPageBudget<Value>(
        isolation: isolated (any Actor)? = #isolation,
        _ page: () async throws(GatewayError) -> Value
    ) async throws(GatewayError) -> Value {
        do {
            return try await HAAPIDeadline.within(pageBudget, isolation: isolation) { () async throws -> Value in try await page() }
        } catch let error as GatewayError {
            throw error
        } catch {
            throw GatewayError(.upstreamUnavailable, .upstreamUnavailable)
        }
    }

    /// The upstream's answer to `call` and the automatic steps behind it, within one upstream timeout.
    /// - Parameter endpoint: How the metrics name the call.
    /// - Throws: "sign-in is unavailable, try again" for any failure (its kind is logged and counted).
    func response(
        endpoint: UpstreamEndpoint,
        isolation: isolated (any Actor)? = #isolation,
        _ call: (HAAPIFlow) async throws(HAAPIError) -> HAAPIResponse
    ) async throws(GatewayError) -> HAAPIResponse {
        let started = ContinuousClock.now
        do {
            let response = try await HAAPIDeadline.within(flow.requestTimeout, isolation: isolation) { () async throws(HAAPIError) -> HAAPIResponse in
                try await call(flow)
            }
            metrics.upstreamCall(endpoint, took: ContinuousClock.now - started)
            return response
        } catch {
            let code = (error as? HAAPIError)?.code ?? .transport
            metrics.upstreamError(kind: "\(code)")
            logger.warning("upstream call failed", metadata: ["error": "\(code)"])
            throw GatewayError(.upstreamUnavailable, .upstreamUnavailable)
        }
    }

    /// The image at `link` on the upstream, fetched with the flow's credentials; nil when the upstream gives no
    /// acceptable image (PNG, JPEG, GIF or WebP of at most ``maximumImageBytes``), which is logged.
    func image(_ link: Link) async -> (contentType: String, bytes: Data)? {
        do {
            return try await flow.fetchImage(link, maximumBytes: Self.maximumImageBytes)
        } catch {
            logger.warning("upstream image not served", metadata: ["error": "\(error.code)"])
            return nil
        }
    }
}
