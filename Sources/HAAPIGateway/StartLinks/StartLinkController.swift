import Foundation
import Hummingbird

/// `GET /start?…`: a signed start link (``StartLinkVerifier``) starts a sign-in with the application's reference and the
/// link's authorize parameters. A link that is not valid, has expired or was used gets a clear page and never a flow.
struct StartLinkController: Sendable {
    let services: GatewayServices
    let signIns: BrowserSignIns
    let verifier: StartLinkVerifier

    func register(on router: Router<GatewayRequestContext>) {
        router.get("/start") { request, context in
            let renderer = services.settings(for: context).renderer
            let language = renderer.language(for: request)
            // Decoded as a form (`+` as space, percent escapes); the signature is over the decoded values.
            let query = FormBody(parsing: request.uri.query ?? "")
            let refusal: StartLinkRefusal
            if let repeated = query.repeatedNames.sorted().first {
                refusal = .parameterNotAllowed(repeated)
            } else {
                switch try await verifier.redeem(query.values.map { (name: $0.key, value: $0.value) }) {
                case .success(let link):
                    guard !services.drain.isDraining else { throw GatewayError(.overloaded, .restarting).retrying(after: 5) }
                    services.logger.info("start link redeemed")
                    return try await signIns.start(request, context: context, link: link)
                case .failure(let reason):
                    refusal = reason
                }
            }
            services.logger.notice("start link refused", metadata: ["reason": "\(refusal.reason)"])
            return PageRenderer.response(
                renderer.messagePage(
                    title: .gateway(.sessionExpiredTitle),
                    message: .gateway(refusal.isStale ? .startLinkExpired : .startLinkInvalid),
                    language: language
                ),
                status: refusal.isStale ? .gone : .forbidden
            )
        }
    }
}
