import Foundation
import HAAPI
import HTTPTypes
import Hummingbird
import Logging

/// `login` mode: `GET /pair/{token}` redeems the single-use URL once, creating the one session, which first asks the
/// person to confirm the code their terminal shows; `POST /pair/confirm` starts the flow. Any later use of the URL, or a
/// wrong or expired token, gets the same "already used or expired" page.
struct PairingController: Sendable {
    let services: GatewayServices
    let signIns: BrowserSignIns
    let gate: PairingGate
    let hostName: String

    func register(on router: Router<GatewayRequestContext>) {
        router.get("/pair/:token") { request, context in
            // The flow first: while the upstream is not reached this answers "try again" and leaves the link usable.
            let flow = try services.newFlow()
            guard let token = context.parameters.get("token"), let ticket = await gate.redeem(token) else {
                services.logger.info("pairing link refused (used, expired or wrong)")
                let renderer = services.settings(for: context).renderer
                return PageRenderer.response(
                    renderer.messagePage(
                        title: .gateway(.sessionExpiredTitle),
                        message: .gateway(.pairLinkUsed),
                        language: renderer.language(for: request)
                    ),
                    status: .gone
                )
            }
            let session = signIns.makeSession(flow: flow, context: context, pairing: (ticket.code, hostName))
            guard let checkout = try await signIns.add(session, context: context) else { throw BrowserSignIns.sessionsFull }
            services.logger.info("pairing link redeemed")
            // Redirect so that the single-use URL leaves the address bar and the history entry.
            return signIns.redirectHome(cookie: signIns.cookie(checkout.id))
        }
        router.post("/pair/confirm") { request, context in
            let (checkout, _) = try await signIns.verifiedSession(request, context: context)
            try await checkout.session.confirmPairing(acceptLanguage: request.headers[.acceptLanguage])
            try await services.store.checkIn(checkout)
            return signIns.redirectHome()
        }
    }
}
