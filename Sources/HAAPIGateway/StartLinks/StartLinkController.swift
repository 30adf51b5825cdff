import Foundation
import Hummingbird

/// A signed start link (``StartLinkVerifier``) starts a sign-in with the application's reference and the link's
/// authorize parameters. `GET /start?…` checks it and shows a button, using nothing: a link scanner or a chat's preview
/// fetches (or `HEAD`s) it before the person, and must leave it working; `POST /start?…` (the button, the same address)
/// uses it up and starts the sign-in. A link that is not valid, has expired or was used gets a clear page and never a
/// flow. The post needs no session's CSRF token: the link's signature is in its address, and cross-site posts are
/// refused (``RequestOriginGuard``).
struct StartLinkController: Sendable {
    let services: GatewayServices
    let signIns: BrowserSignIns
    let verifier: StartLinkVerifier

    func register(on router: Router<GatewayRequestContext>) {
        router.get("/start") { request, context in
            let renderer = services.settings(for: context).renderer
            switch pairs(of: request) {
            case .success(let pairs):
                if case .failure(let refusal) = verifier.check(pairs) { return refused(refusal, request: request, context: context) }
                return PageRenderer.response(
                    renderer.startLinkPage(action: "/start?" + (request.uri.query ?? ""), language: renderer.language(for: request))
                )
            case .failure(let refusal):
                return refused(refusal, request: request, context: context)
            }
        }
        router.post("/start") { request, context in
            try services.originGuard.check(request)
            switch pairs(of: request) {
            case .success(let pairs):
                switch try await verifier.redeem(pairs) {
                case .success(let link):
                    guard !services.drain.isDraining else { throw GatewayError(.overloaded, .restarting).retrying(after: 5) }
                    services.logger.info("start link redeemed")
                    return try await signIns.start(request, context: context, link: link)
                case .failure(let refusal):
                    return refused(refusal, request: request, context: context)
                }
            case .failure(let refusal):
                return refused(refusal, request: request, context: context)
            }
        }
    }

    /// The query's decoded pairs (decoded as a form: `+` as space, percent escapes; the signature is over the decoded
    /// values), or the refusal of a name given twice.
    private func pairs(of request: Request) -> Result<[(name: String, value: String)], StartLinkRefusal> {
        let query = FormBody(parsing: request.uri.query ?? "")
        if let repeated = query.repeatedNames.sorted().first { return .failure(.parameterNotAllowed(repeated)) }
        return .success(query.values.map { (name: $0.key, value: $0.value) })
    }

    private func refused(_ refusal: StartLinkRefusal, request: Request, context: GatewayRequestContext) -> Response {
        let renderer = services.settings(for: context).renderer
        services.logger.notice("start link refused", metadata: ["reason": .untrusted(refusal.reason)])
        return PageRenderer.response(
            renderer.messagePage(
                title: .gateway(.sessionExpiredTitle),
                message: .gateway(refusal.isStale ? .startLinkExpired : .startLinkInvalid),
                language: renderer.language(for: request)
            ),
            status: refusal.isStale ? .gone : .forbidden
        )
    }
}
