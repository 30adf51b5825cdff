import Foundation
import HAAPI
import HTTPTypes
import Hummingbird
import Logging

/// `login` mode: `GET /pair/{token}` shows the code the terminal shows and asks whether it matches, using nothing (a
/// link preview or scanner may fetch it, or `HEAD` it, before the person does); `POST /pair/{token}` redeems the
/// single-use URL once, creating the one sign-in, and starts it; `POST /pair/{token}/refuse` redeems it to cancel (the
/// terminal is told). Any later use of the URL, or a wrong or expired token, gets the same "already used or expired"
/// page. The posts need no session's CSRF token: the link's own secret is in their address, and cross-site posts are
/// refused (``RequestOriginGuard``). A sign-in that holds the link asks again through `POST /pair/confirm`.
struct PairingController: Sendable {
    let services: GatewayServices
    let signIns: BrowserSignIns
    let gate: PairingGate
    let hostName: String

    func register(on router: Router<GatewayRequestContext>) {
        router.get("/pair/:token") { request, context in
            let renderer = services.settings(for: context).renderer
            guard let token = context.parameters.get("token"), let ticket = await gate.check(token) else { return refused(request, context: context) }
            let action = "/pair/\(token)"
            return PageRenderer.response(
                renderer.pairingPage(
                    code: ticket.code,
                    hostName: hostName,
                    actions: (confirm: action, cancel: action + "/refuse"),
                    csrfToken: "",
                    language: renderer.language(for: request)
                )
            )
        }
        router.post("/pair/:token") { request, context in
            try services.originGuard.check(request)
            // The flow first: while the upstream is not reached this answers "try again" and leaves the link usable.
            let flow = try services.newFlow()
            return try await signIns.inNewSignInTrace(context: context) {
                guard let checkout = try await redeem(request, context: context, flow: flow) else { return refused(request, context: context) }
                let cookie = signIns.cookie(checkout.id)
                do throws(GatewayError) {
                    try await checkout.session.confirmPairing(acceptLanguage: request.headers[.acceptLanguage])
                } catch {
                    // The sign-in holds the link now: its page asks again, and "Try again" reaches it by this cookie.
                    throw error.settingCookie(cookie)
                }
                try await services.store.checkIn(checkout)
                return signIns.redirectHome(cookie: cookie)
            }
        }
        router.post("/pair/:token/refuse") { request, context in
            try services.originGuard.check(request)
            guard let checkout = try await redeem(request, context: context, flow: try services.newFlow()) else {
                return refused(request, context: context)
            }
            await checkout.session.cancel()
            return signIns.redirectHome(cookie: signIns.cookie(checkout.id))
        }
        router.post("/pair/confirm") { request, context in
            let (checkout, _) = try await signIns.verifiedSession(request, context: context)
            try await checkout.session.confirmPairing(acceptLanguage: request.headers[.acceptLanguage])
            try await services.store.checkIn(checkout)
            return signIns.redirectHome()
        }
    }

    /// The one sign-in of the link the request names, on its one redemption; nil when the link was used, has expired or
    /// is wrong.
    private func redeem(_ request: Request, context: GatewayRequestContext, flow: HAAPIFlow) async throws -> SessionCheckout<SignInSession>? {
        guard let token = context.parameters.get("token"), let ticket = await gate.redeem(token) else { return nil }
        let session = signIns.makeSession(flow: flow, context: context, pairing: (ticket.code, hostName))
        guard let checkout = try await signIns.add(session, context: context) else { throw BrowserSignIns.sessionsFull }
        services.logger.info("pairing link redeemed")
        return checkout
    }

    private func refused(_ request: Request, context: GatewayRequestContext) -> Response {
        services.logger.info("pairing link refused (used, expired or wrong)")
        let renderer = services.settings(for: context).renderer
        return PageRenderer.response(
            renderer.messagePage(title: .gateway(.sessionExpiredTitle), message: .gateway(.pairLinkUsed), language: renderer.language(for: request)),
            status: .gone
        )
    }
}
