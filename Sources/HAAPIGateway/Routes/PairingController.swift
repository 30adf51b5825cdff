import Foundation
import HAAPI
import HTTPTypes
import Hummingbird
import Logging

/// `login` mode: `GET /pair/{token}` redeems the single-use URL once, creating the one session, which first asks the
/// person to confirm the code their terminal shows; `POST /pair/confirm` starts the flow. Any later use of the URL, or a
/// wrong or expired token, gets the same "already used or expired" page.
struct PairingController: Sendable {
    let signIn: SignInController
    let gate: PairingGate
    let hostName: String

    func register(on router: Router<GatewayRequestContext>) {
        router.get("/pair/:token") { request, context in
            // The flow first: while the upstream is not reached this answers "try again" and leaves the link usable.
            let flow = try signIn.newFlow()
            guard let token = context.parameters.get("token"), let ticket = await gate.redeem(token) else {
                signIn.logger.info("pairing link refused (used, expired or wrong)")
                return PageRenderer.response(
                    signIn.renderer.messagePage(
                        title: .gateway(.sessionExpiredTitle), message: .gateway(.pairLinkUsed), language: signIn.renderer.language(for: request)),
                    status: .gone)
            }
            let session = SignInSession(
                flow: flow, dispatcher: signIn.dispatcher, polling: signIn.configuration.polling, outcome: signIn.configuration.outcome,
                logger: signIn.logger,
                pairing: (ticket.code, hostName), metrics: signIn.metrics, facts: signIn.upstream.facts)
            context.flow.belongs(to: session.flowID)
            guard let checkout = try await signIn.add(session, context: context) else {
                throw GatewayError(.overloaded, .sessionsFull).retrying(after: 5)
            }
            signIn.logger.info("pairing link redeemed")
            // Redirect so that the single-use URL leaves the address bar and the history entry.
            return signIn.redirectHome(cookie: signIn.cookie(checkout.id))
        }
        router.post("/pair/confirm") { request, context in
            let (checkout, _) = try await signIn.verifiedSession(request, context: context)
            try await checkout.session.confirmPairing(acceptLanguage: request.headers[.acceptLanguage])
            try await signIn.store.checkIn(checkout)
            return signIn.redirectHome()
        }
    }
}
