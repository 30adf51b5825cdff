import Foundation
import HAAPI
import HTTPTypes
import Hummingbird
import Logging

/// The sign-in pages: `GET /` renders the session's current step (starting a sign-in when there is no session),
/// form posts name an action or link of the current step by step version and address, then redirect back (PRG).
/// What differs between a person's own browser, a kiosk and `login`'s pairing is asked of ``SignInMode``.
struct SignInController: Sendable {
    let services: GatewayServices
    let signIns: BrowserSignIns
    /// Browser, kiosk or pairing, as the gateway started.
    let mode: SignInMode
    /// The kiosk's final-page tickets: only the browser that finished a sign-in is told how it ended.
    let kioskTickets: HMACToken

    init(services: GatewayServices, kioskTickets: HMACToken) {
        self.services = services
        self.signIns = BrowserSignIns(services: services)
        self.mode = services.signInMode
        self.kioskTickets = kioskTickets
    }

    private var store: any SessionStore<SignInSession> { services.store }
    private var cookieName: String { signIns.cookieName }

    func register(on router: Router<GatewayRequestContext>) {
        router.get("/") { request, context in try await self.show(request, context: context) }
        registerActions(on: router)
        registerWaiting(on: router)
        registerEnding(on: router)
        if mode.isSharedScreen { registerKiosk(on: router) }
    }

    /// A step's form posts and links, and a problem's links.
    private func registerActions(on router: Router<GatewayRequestContext>) {
        router.post("/step/:version/action/:path") { request, context in
            try await self.act(request, context: context) { session, version, form, language throws(GatewayError) in
                guard let path = context.parameters.get("path"), let address = ActionAddress(path: path) else {
                    throw GatewayError(.badRequest, .unknownButton)
                }
                return try await session.submit(version: version, address: address, form: form, acceptLanguage: language)
            }
        }
        router.post("/step/:version/link/:index") { request, context in
            try await self.act(request, context: context) { session, version, _, language throws(GatewayError) in
                guard let index = context.parameters.get("index", as: Int.self) else {
                    throw GatewayError(.badRequest, .unknownLink)
                }
                return try await session.followLink(version: version, index: index, acceptLanguage: language)
            }
        }
        // A problem that ended the sign-in keeps its links (a `restart`) usable (notes 3.9).
        router.post("/problem/link/:index") { request, context in
            let (checkout, _) = try await signIns.verifiedSession(request, context: context)
            guard let index = context.parameters.get("index", as: Int.self) else { throw GatewayError(.badRequest, .unknownLink) }
            let result = try await checkout.session.followProblemLink(index: index, acceptLanguage: request.headers[.acceptLanguage])
            return try await afterAction(checkout, result: result, request: request, context: context)
        }
    }

    /// What a waiting step's page asks for: an upstream image, the poll and the script's status check.
    private func registerWaiting(on router: Router<GatewayRequestContext>) {
        // An image link of the step that lives on the upstream, fetched with the flow's credentials and served from here.
        router.get("/step/:version/image/:index") { request, context in
            try services.originGuard.check(request)
            guard let checkout = try? await signIns.session(request, context: context, for: .reading),
                let version = context.parameters.get("version", as: Int.self), let index = context.parameters.get("index", as: Int.self),
                let image = await checkout.session.image(version: version, index: index)
            else { return Response(status: .notFound) }
            return Response(
                status: .ok,
                headers: [.contentType: image.contentType, .contentLength: String(image.bytes.count)],
                body: .init(byteBuffer: ByteBuffer(bytes: image.bytes))
            )
        }
        router.get("/step/:version/poll") { request, context in
            try services.originGuard.check(request)
            // Another request holding the sign-in is polling it, or acting on it: the page is shown as it stands.
            guard let checkout = try await signIns.session(request, context: context, for: .polling, whenBusy: nil) else {
                return signIns.redirectHome()
            }
            // A HEAD polls nothing: it gets the page as it stands.
            let result: SignInActionResult
            if let version = context.parameters.get("version", as: Int.self), !context.answeredAsHead {
                result = try await checkout.session.poll(version: version, acceptLanguage: request.headers[.acceptLanguage])
            } else {
                result = await checkout.session.standing
            }
            return try await afterAction(checkout, result: result, request: request, context: context)
        }
        // A waiting page's script: polls upstream like the poll route, and answers whether the page should load the next step.
        router.get("/step/:version/status") { request, context in
            try services.originGuard.check(request)
            guard let version = context.parameters.get("version", as: Int.self) else { throw GatewayError(.badRequest, .unknownForm) }
            let checkout: SessionCheckout<SignInSession>?
            do {
                checkout = try await signIns.session(request, context: context, for: .polling, whenBusy: nil)
            } catch is UnreadableSignIn {
                // The page loads `/`, which starts the sign-in again.
                return Self.json(#"{"changed":true}"#)
            } catch let error as GatewayError where error.code == .sessionExpired {
                return Self.json(#"{"changed":true}"#)
            }
            // Held by another request: nothing polled now, the script asks again.
            guard let checkout else { return Self.json(#"{"changed":false}"#) }
            // A HEAD polls nothing: it is told whether the page has moved on as it stands.
            let result =
                context.answeredAsHead
                ? await checkout.session.standing
                : try await checkout.session.poll(version: version, acceptLanguage: request.headers[.acceptLanguage])
            return Self.json(result.hasMovedOn(from: version) ? #"{"changed":true}"# : #"{"changed":false}"#)
        }
    }

    /// Cancelling (with its confirmation) and starting again.
    private func registerEnding(on router: Router<GatewayRequestContext>) {
        router.post("/cancel") { request, context in
            let (checkout, _) = try await signIns.verifiedSession(request, context: context)
            let settings = services.settings(for: context)
            guard settings.configuration.completion.confirmCancel else {
                await checkout.session.cancel()
                return try await afterCancel(checkout, request: request, context: context)
            }
            return PageRenderer.response(
                settings.renderer.cancelConfirmationPage(csrfToken: checkout.session.csrfToken, language: settings.renderer.language(for: request))
            )
        }
        router.post("/cancel/confirm") { request, context in
            let (checkout, _) = try await signIns.verifiedSession(request, context: context)
            await checkout.session.cancel()
            return try await afterCancel(checkout, request: request, context: context)
        }
        router.post("/start-again") { request, _ in
            try services.originGuard.check(request)
            if let id = signIns.sessionID(of: request) {
                await signIns.remove(id: id)
            }
            return signIns.redirectHome(clearingCookie: true)
        }
    }

    private func show(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        let settings = services.settings(for: context)
        var cookie = signIns.sessionID(of: request)
        // A kiosk's sign-in left alone: whoever opens the page now is the next person, and starts afresh.
        if let id = cookie, try await signIns.endedAsLeftAlone(id: id, context: context) { cookie = nil }
        guard let id = cookie else {
            // In `login` mode only the printed single-use URL starts the one sign-in.
            guard mode.startsOnVisit else {
                return PageRenderer.response(
                    settings.renderer.messagePage(
                        title: .gateway(.signInTitle),
                        message: .gateway(.pairOpenLink),
                        language: settings.renderer.language(for: request)
                    )
                )
            }
            // A HEAD (a link checker, a preview) is told there is a page, and starts nothing.
            guard !context.answeredAsHead else { return PageRenderer.response("") }
            guard !services.drain.isDraining else {
                // Restarting: sign-ins under way go on, a new one waits for the next instance.
                return PageRenderer.response(
                    settings.renderer.messagePage(
                        title: .gateway(.upstreamUnavailableTitle),
                        message: .gateway(.restarting),
                        tryAgain: true,
                        language: settings.renderer.language(for: request)
                    ),
                    status: .serviceUnavailable,
                    headers: [.retryAfter: "5"]
                )
            }
            return try await signIns.start(request, context: context)
        }
        let checkout: SessionCheckout<SignInSession>
        do {
            let saved = request.uri.queryParameters.get(BrowserSignIns.savedVersionParameter, as: Int64.self)
            checkout = try await signIns.session(request, context: context, for: saved.map { .readingAfterPost(savedVersion: $0) } ?? .reading)
        } catch is UnreadableSignIn {
            // A stored sign-in that cannot be continued (a removed key, an older format): it starts again, saying so.
            services.logger.notice("stored sign-in cannot be continued; a new one starts")
            await signIns.remove(id: id)
            return try await signIns.start(request, context: context, notice: .gateway(.signInRestarted))
        } catch let error as GatewayError where error.code == .sessionExpired && mode.isSharedScreen {
            // A kiosk's screen belongs to the next person: where a sign-in has ended, the start page begins a new one.
            return try await signIns.start(request, context: context)
        }
        let snapshot = await checkout.session.snapshot()
        let page = PageRenderer.response(
            settings.renderer.page(for: snapshot, language: settings.renderer.language(for: request), origin: services.origin(of: request))
        )
        mode.pageServed(at: snapshot.phase)
        return page
    }

    /// `completion.redirectURL`, with a start link's reference added as `reference` to its query.
    static func completionURL(_ url: URL, reference: String?) -> String {
        guard let reference, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.percentEncodedQueryItems =
            (components.percentEncodedQueryItems ?? []) + [
                URLQueryItem(name: "reference", value: StartLinkVerifier.encode(reference))
            ]
        return components.url?.absoluteString ?? url.absoluteString
    }

    private func act(
        _ request: Request,
        context: GatewayRequestContext,
        _ body: (SignInSession, Int, [String: String], String?) async throws(GatewayError) -> SignInActionResult
    ) async throws -> Response {
        let (checkout, form) = try await signIns.verifiedSession(request, context: context)
        let id = checkout.id
        let result: SignInActionResult
        do {
            guard let version = context.parameters.get("version", as: Int.self) else {
                throw GatewayError(.badRequest, .unknownForm)
            }
            result = try await body(checkout.session, version, form.values, request.headers[.acceptLanguage])
        } catch let error as GatewayError where error.code == .badRequest {
            await services.limiter.recordFailure(session: id, address: context.clientAddress)
            throw error
        }
        if result.isFailedPost {
            await services.limiter.recordFailure(session: id, address: context.clientAddress)
        }
        return try await afterAction(checkout, result: result, request: request, context: context)
    }

    /// Redirects back to the page, as the mode has it once the sign-in ended: in a browser, signed in, with a fresh
    /// cookie (rotated id), and to `completion.redirectURL` when one is configured and every sink accepted the outcome
    /// (otherwise the page says the hand-over is being retried); in `login` mode the final page itself; in kiosk mode,
    /// signed in, the session destroyed and the final page once.
    private func afterAction(
        _ checkout: SessionCheckout<SignInSession>,
        result: SignInActionResult,
        request: Request,
        context: GatewayRequestContext
    ) async throws -> Response {
        let settings = services.settings(for: context)
        let session = checkout.session
        let id = checkout.id
        switch mode {
        case .browser where result.phase == .signedIn:
            // Kept under a fresh cookie (one write saves and moves it), before the browser is sent on.
            guard let newID = try await store.rotate(checkout) else { return signIns.redirectHome() }
            await services.limiter.forget(session: id)
            if let url = settings.configuration.completion.redirectURL, !result.deliveryDelayed, session.device == nil {
                return signIns.redirect(to: Self.completionURL(url, reference: session.startLink?.reference), cookie: signIns.cookie(newID))
            }
            return signIns.redirectHome(after: checkout, cookie: signIns.cookie(newID))
        case .pairing where result.phase != .step:
            // What the request did is kept before the page is made. `login` mode: the command stops once the final page is
            // made, so it comes with this response rather than after a redirect, made from what the action answered (such
            // a page shows no step).
            try await store.checkIn(checkout)
            let final = SessionSnapshot(
                withoutStep: result.phase,
                csrfToken: session.csrfToken,
                deliveryDelayed: result.deliveryDelayed,
                problemLinks: result.problemLinks,
                deviceName: session.device?.client.name
            )
            let page = PageRenderer.response(settings.renderer.page(for: final, language: settings.renderer.language(for: request)))
            mode.pageServed(at: result.phase)
            return page
        case .kiosk where result.phase == .signedIn:
            // A shared screen keeps nothing of a finished sign-in.
            try await store.checkIn(checkout)
            await store.remove(id: id)
            return kioskDone(result.deliveryDelayed ? "delayed" : "signed-in")
        default:
            // What the request did is kept before the browser is sent on (its next request may reach another replica).
            try await store.checkIn(checkout)
            return signIns.redirectHome(after: checkout)
        }
    }

    /// After a cancel: the cancelled page, or in kiosk mode the session destroyed and a page that returns to the start.
    private func afterCancel(_ checkout: SessionCheckout<SignInSession>, request: Request, context: GatewayRequestContext) async throws -> Response {
        let settings = services.settings(for: context)
        try await store.checkIn(checkout)
        switch mode {
        case .browser:
            return signIns.redirectHome()
        case .pairing:
            let page = PageRenderer.response(
                settings.renderer.messagePage(
                    title: .gateway(.cancelledTitle),
                    message: .gateway(.cancelledText),
                    language: settings.renderer.language(for: request)
                )
            )
            mode.pageServed(at: .cancelled)
            return page
        case .kiosk:
            await store.remove(id: checkout.id)
            return kioskDone("cancelled")
        }
    }

    /// The kiosk's way to its final page for `outcome`: the session's cookie cleared, and a ticket for that page (a
    /// minute, for `/kiosk/done` only) that says this browser is the one that finished.
    private func kioskDone(_ outcome: String) -> Response {
        var headers: HTTPFields = [.location: "/kiosk/done/\(outcome)"]
        headers.append(HTTPField(name: .setCookie, value: signIns.cookie("", maxAge: 0)))
        let ticket = services.cookie(kioskTicketCookie, kioskTickets.make(), path: "/kiosk/done", sameSite: "Strict", maxAge: 60)
        headers.append(HTTPField(name: .setCookie, value: ticket))
        return Response(status: .seeOther, headers: headers)
    }

    private var kioskTicketCookie: String { services.server.servesTLS ? "__Secure-haapi-gateway-done" : "haapi-gateway-done" }

    /// Kiosk mode: `GET /kiosk/next` (every page's timed refresh) starts over when the sign-in has ended or its page was
    /// left alone for `kiosk.idleResetSeconds`, else shows the current step; `GET /kiosk/done/{outcome}` is the final page
    /// of a destroyed session.
    private func registerKiosk(on router: Router<GatewayRequestContext>) {
        router.get("/kiosk/next") { request, context in
            let settings = services.settings(for: context)
            // A HEAD resets nothing.
            guard let id = signIns.sessionID(of: request), !context.answeredAsHead else { return signIns.redirectHome() }
            let idle = try await store.idleDuration(id: id)
            let checkout: SessionCheckout<SignInSession>
            do {
                checkout = try await signIns.session(request, context: context, for: .reading)
            } catch is UnreadableSignIn {
                return signIns.redirectHome()
            } catch let error as GatewayError where error.code == .sessionExpired {
                return signIns.redirectHome(clearingCookie: true)
            }
            let ended = await checkout.session.standing.phase.hasEnded
            if ended || (idle ?? .zero) >= .seconds(max(1, settings.configuration.kiosk.idleResetSeconds - 1)) {
                await store.remove(id: id)
                return signIns.redirectHome(clearingCookie: true)
            }
            return signIns.redirectHome()
        }
        router.get("/kiosk/done/:outcome") { request, context in
            // Only the browser that just finished is told how: anyone else opening the address gets the start.
            guard let ticket = request.cookieValue(kioskTicketCookie), kioskTickets.isOwn(ticket) else { return signIns.redirectHome() }
            let settings = services.settings(for: context)
            let language = settings.renderer.language(for: request)
            // The ticket is used up by this page. Cleared with the attributes it was set with: behind https a browser
            // ignores a __Secure- cookie without Secure, and the ticket would stay.
            let spent: HTTPFields = [.setCookie: services.cookie(kioskTicketCookie, "", path: "/kiosk/done", sameSite: "Strict", maxAge: 0)]
            switch context.parameters.get("outcome") {
            case "signed-in", "delayed":
                let snapshot = SessionSnapshot(withoutStep: .signedIn, csrfToken: "", deliveryDelayed: context.parameters.get("outcome") == "delayed")
                return PageRenderer.response(settings.renderer.page(for: snapshot, language: language), headers: spent)
            default:
                return PageRenderer.response(
                    settings.renderer.messagePage(title: .gateway(.cancelledTitle), message: .gateway(.cancelledText), language: language),
                    headers: spent
                )
            }
        }
    }

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
