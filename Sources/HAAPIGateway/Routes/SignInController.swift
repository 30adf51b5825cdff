import Foundation
import HAAPI
import HTTPTypes
import Hummingbird
import Logging

/// The sign-in pages: `GET /` renders the session's current step (starting a sign-in when there is no session),
/// form posts name an action or link of the current step by step version and address, then redirect back (PRG).
/// In `login` mode (``GatewayConfiguration/pairing``) only the single-use link starts the one sign-in and the final
/// page comes with the last post; in kiosk mode finished sessions are destroyed and every page returns to the start.
struct SignInController: Sendable {
    /// The upstream's client, once reached (``UpstreamConnection``).
    let upstream: UpstreamConnection
    let store: any SessionStore<SignInSession>
    let limiter: FailedPostLimiter
    /// The bound on sign-ins each client address starts.
    let newSessions: any NewSessionBudget
    let dispatcher: CallbackDispatcher
    /// The configuration and renderer in effect (a reload replaces them between requests).
    let live: LiveSettings
    let drain: GatewayDrain
    let metrics: GatewayMetrics
    /// The kiosk's final-page tickets: only the browser that finished a sign-in is told how it ended.
    let kioskTickets: HMACToken
    let originGuard: RequestOriginGuard
    let logger: Logger

    var configuration: GatewayConfiguration { live.configuration }
    var renderer: PageRenderer { live.renderer }

    var cookieName: String { configuration.server.servesTLS ? "__Host-haapi-gateway" : "haapi-gateway" }

    func register(on router: Router<GatewayRequestContext>) {
        router.get("/") { request, context in try await self.show(request, context: context) }
        router.post("/step/:version/action/:path") { request, context in
            try await self.act(request, context: context) { session, version, form, language throws(GatewayError) in
                guard let path = context.parameters.get("path"), let address = ActionAddress(path: path) else {
                    throw GatewayError(.badRequest, .unknownButton)
                }
                try await session.submit(version: version, address: address, form: form, acceptLanguage: language)
            }
        }
        router.post("/step/:version/link/:index") { request, context in
            try await self.act(request, context: context) { session, version, _, language throws(GatewayError) in
                guard let index = context.parameters.get("index", as: Int.self) else {
                    throw GatewayError(.badRequest, .unknownLink)
                }
                try await session.followLink(version: version, index: index, acceptLanguage: language)
            }
        }
        // A problem that ended the sign-in keeps its links (a `restart`) usable (notes 3.9).
        router.post("/problem/link/:index") { request, context in
            let (checkout, _) = try await verifiedSession(request, context: context)
            guard let index = context.parameters.get("index", as: Int.self) else { throw GatewayError(.badRequest, .unknownLink) }
            try await checkout.session.followProblemLink(index: index, acceptLanguage: request.headers[.acceptLanguage])
            return try await afterAction(checkout, request: request)
        }
        // An image link of the step that lives on the upstream, fetched with the flow's credentials and served from here.
        router.get("/step/:version/image/:index") { request, context in
            try originGuard.check(request)
            guard let checkout = try? await session(request, context: context, for: .reading),
                let version = context.parameters.get("version", as: Int.self), let index = context.parameters.get("index", as: Int.self),
                let image = await checkout.session.image(version: version, index: index)
            else { return Response(status: .notFound) }
            return Response(
                status: .ok, headers: [.contentType: image.contentType, .contentLength: String(image.bytes.count)],
                body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
        }
        router.get("/step/:version/poll") { request, context in
            try originGuard.check(request)
            // Another request holding the sign-in is polling it, or acting on it: the page is shown as it stands.
            guard let checkout = try await session(request, context: context, for: .polling, whenBusy: nil) else { return redirectHome() }
            if let version = context.parameters.get("version", as: Int.self) {
                try await checkout.session.poll(version: version, acceptLanguage: request.headers[.acceptLanguage])
            }
            return try await afterAction(checkout, request: request)
        }
        // A waiting page's script: polls upstream like the poll route, and answers whether the page should load the next step.
        router.get("/step/:version/status") { request, context in
            try originGuard.check(request)
            guard let version = context.parameters.get("version", as: Int.self) else { throw GatewayError(.badRequest, .unknownForm) }
            let checkout: SessionCheckout<SignInSession>?
            do {
                checkout = try await session(request, context: context, for: .polling, whenBusy: nil)
            } catch is UnreadableSignIn {
                // The page loads `/`, which starts the sign-in again.
                return Self.json(#"{"changed":true}"#)
            } catch let error as GatewayError where error.code == .sessionExpired {
                return Self.json(#"{"changed":true}"#)
            }
            // Held by another request: nothing polled now, the script asks again.
            guard let checkout else { return Self.json(#"{"changed":false}"#) }
            try await checkout.session.poll(version: version, acceptLanguage: request.headers[.acceptLanguage])
            return Self.json(await checkout.session.hasMovedOn(from: version) ? #"{"changed":true}"# : #"{"changed":false}"#)
        }
        router.post("/cancel") { request, context in
            let (checkout, _) = try await verifiedSession(request, context: context)
            guard configuration.completion.confirmCancel else {
                await checkout.session.cancel()
                return try await afterCancel(checkout, request: request)
            }
            return PageRenderer.response(renderer.cancelConfirmationPage(csrfToken: checkout.session.csrfToken, language: renderer.language(for: request)))
        }
        router.post("/cancel/confirm") { request, context in
            let (checkout, _) = try await verifiedSession(request, context: context)
            await checkout.session.cancel()
            return try await afterCancel(checkout, request: request)
        }
        if configuration.kiosk.enabled { registerKiosk(on: router) }
        router.post("/start-again") { request, _ in
            try originGuard.check(request)
            if let id = request.cookies[cookieName]?.value {
                await store.remove(id: id)
                await limiter.forget(session: id)
            }
            return redirectHome(clearingCookie: true)
        }
    }

    private func show(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        guard let id = request.cookies[cookieName]?.value else {
            // In `login` mode only the printed single-use URL starts the one sign-in.
            guard configuration.pairing == nil else {
                return PageRenderer.response(
                    renderer.messagePage(title: .gateway(.signInTitle), message: .gateway(.pairOpenLink), language: renderer.language(for: request)))
            }
            guard !drain.isDraining else {
                // Restarting: sign-ins under way go on, a new one waits for the next instance.
                return PageRenderer.response(
                    renderer.messagePage(
                        title: .gateway(.upstreamUnavailableTitle), message: .gateway(.restarting), tryAgain: true, language: renderer.language(for: request)),
                    status: .serviceUnavailable, headers: [.retryAfter: "5"])
            }
            return try await startSession(request, context: context)
        }
        let checkout: SessionCheckout<SignInSession>
        do {
            let saved = request.uri.queryParameters.get(Self.savedVersionParameter, as: Int64.self)
            checkout = try await session(request, context: context, for: saved.map { .readingAfterPost(savedVersion: $0) } ?? .reading)
        } catch is UnreadableSignIn {
            // A stored sign-in that cannot be continued (a removed key, an older format): it starts again, saying so.
            logger.notice("stored sign-in cannot be continued; a new one starts")
            await store.remove(id: id)
            await limiter.forget(session: id)
            return try await startSession(request, context: context, notice: .gateway(.signInRestarted))
        }
        let snapshot = await checkout.session.snapshot()
        return PageRenderer.response(renderer.page(for: snapshot, language: renderer.language(for: request), origin: origin(of: request)))
    }

    /// Starts a sign-in for a browser without a session. Before any upstream call: past its address's bound on new
    /// sign-ins it gets 429, and at the cap, when no session can be pushed out, 503; the sign-ins under way go on.
    /// - Parameters:
    ///   - link: The signed start link this sign-in was started by, if any.
    ///   - notice: A message for its first page.
    func startSession(_ request: Request, context: GatewayRequestContext, link: StartLink? = nil, notice: PageText? = nil) async throws -> Response {
        let address = context.clientAddress
        guard try await store.hasRoom() else {
            metrics.signInRefused(reason: "sessions_full")
            throw Self.sessionsFull
        }
        if let wait = await newSessions.admit(address: address) {
            metrics.signInRefused(reason: "address_budget")
            logger.debug("new sign-in refused: too many from the client address", metadata: ["address": "\(address ?? "")"])
            throw GatewayError(.tooManyAttempts, .tooManyNewSignIns).retrying(after: wait)
        }
        let session = SignInSession(
            flow: try newFlow(link: link), dispatcher: dispatcher, polling: configuration.polling, outcome: configuration.outcome, logger: logger,
            startLink: link, metrics: metrics, facts: upstream.facts)
        context.flow.belongs(to: session.flowID)
        try await session.begin(acceptLanguage: request.headers[.acceptLanguage])
        if let notice { await session.add(notice: notice) }
        guard let checkout = try await add(session, context: context) else {
            metrics.signInRefused(reason: "sessions_full")
            throw Self.sessionsFull
        }
        let snapshot = await session.snapshot()
        return PageRenderer.response(
            renderer.page(for: snapshot, language: renderer.language(for: request), origin: origin(of: request)), headers: [.setCookie: cookie(checkout.id)])
    }

    /// The gateway's origin as this browser (or device) reaches it: `server.publicURL` when configured, else `http://` (or
    /// `https://` when the gateway listens on HTTPS itself) and the request's Host (only a host name or address and port;
    /// anything else gives none).
    func origin(of request: Request) -> String? {
        if let url = configuration.server.publicBaseURL, let origin = RequestOriginGuard.origin(of: url) { return origin }
        guard let authority = request.head.authority, !authority.isEmpty, authority.count <= 255,
            authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
        else { return nil }
        return (configuration.server.tls == nil ? "http://" : "https://") + authority
    }

    /// Stores a new sign-in, checked out to this request (checked in when it ends); nil when the store is full.
    func add(_ session: SignInSession, context: GatewayRequestContext) async throws(GatewayError) -> SessionCheckout<SignInSession>? {
        guard let checkout = try await store.add(session, address: context.clientAddress) else { return nil }
        context.checkouts.add(checkout)
        return checkout
    }

    /// The session of the request's cookie, checked out for `use` (and checked in when the request ends), the request
    /// marked as one of its sign-in (its log line carries the flow id).
    /// - Throws: "session expired" without a live session; ``UnreadableSignIn`` for one that cannot be continued;
    ///   "busy, try again" (503) while another request holds it.
    func session(_ request: Request, context: GatewayRequestContext, for use: SessionUse) async throws -> SessionCheckout<SignInSession> {
        guard let checkout = try await session(request, context: context, for: use, whenBusy: Self.signInBusy) else { throw Self.signInBusy }
        return checkout
    }

    /// As ``session(_:context:for:)``, but nil while another request holds the sign-in when `busy` is nil.
    func session(_ request: Request, context: GatewayRequestContext, for use: SessionUse, whenBusy busy: GatewayError?) async throws
        -> SessionCheckout<SignInSession>?
    {
        guard let id = request.cookies[cookieName]?.value else { throw GatewayError(.sessionExpired, .sessionExpired) }
        switch try await store.checkOut(id: id, for: use) {
        case .found(let checkout):
            context.checkouts.add(checkout)
            context.flow.belongs(to: checkout.session.flowID)
            return checkout
        case .absent: throw GatewayError(.sessionExpired, .sessionExpired)
        case .unreadable: throw UnreadableSignIn()
        case .busy:
            if let busy { throw busy }
            return nil
        }
    }

    static let sessionsFull = GatewayError(.overloaded, .sessionsFull).retrying(after: 5)
    /// Another request holds the sign-in (a shared store's claim) for longer than an acting request waits.
    static let signInBusy = GatewayError(.overloaded, .signInBusy).retrying(after: 2)

    /// `completion.redirectURL`, with a start link's reference added as `reference` to its query.
    static func completionURL(_ url: URL, reference: String?) -> String {
        guard let reference, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.percentEncodedQueryItems = (components.percentEncodedQueryItems ?? []) + [
            URLQueryItem(name: "reference", value: StartLinkVerifier.encode(reference))
        ]
        return components.url?.absoluteString ?? url.absoluteString
    }

    /// A new flow of the upstream's client; "sign-in is unavailable, try again" (503) while the gateway has not reached it.
    /// - Parameters:
    ///   - scopes: Fewer scopes than the configured ones for this sign-in (a device asked for them).
    ///   - link: A signed start link whose authorize parameters replace the configured ones.
    func newFlow(scopes: [String]? = nil, link: StartLink? = nil) throws(GatewayError) -> HAAPIFlow {
        guard let client = upstream.client else { throw GatewayError(.upstreamNotReady, .signInUnavailable).retrying(after: 5) }
        return client.makeFlow(scopes: scopes, parameters: link.map { $0.applied(to: client.configuration.authorizationParameters) })
    }

    /// The session of a state-changing request after the failed-post bounds, the origin and the CSRF checks; a refusal
    /// counts as a failed post of the session and the client address.
    func verifiedSession(_ request: Request, context: GatewayRequestContext) async throws -> (SessionCheckout<SignInSession>, FormBody) {
        let id = request.cookies[cookieName]?.value
        if let wait = await limiter.retryAfter(session: id, address: context.clientAddress) {
            logger.notice("post refused: too many failed posts")
            throw GatewayError(.tooManyAttempts, .tooManyAttempts).retrying(after: wait)
        }
        do {
            try originGuard.check(request)
            guard id != nil else { throw GatewayError(.sessionExpired, .sessionExpired) }
            let form = try await FormBody.read(request, limit: configuration.server.maximumRequestBodyBytes)
            let checkout = try await session(request, context: context, for: .acting)
            guard checkout.session.acceptsCSRF(form.values["_csrf"]) else {
                throw GatewayError(.forbidden, .formNotVerified)
            }
            return (checkout, form)
        } catch let error as GatewayError where error.code == .forbidden {
            await limiter.recordFailure(session: id, address: context.clientAddress)
            throw error
        }
    }

    private func act(
        _ request: Request, context: GatewayRequestContext,
        _ body: (SignInSession, Int, [String: String], String?) async throws(GatewayError) -> Void
    ) async throws -> Response {
        let (checkout, form) = try await verifiedSession(request, context: context)
        let session = checkout.session
        let id = checkout.id
        let refusedBefore = await session.refusedSubmissions
        do {
            guard let version = context.parameters.get("version", as: Int.self) else {
                throw GatewayError(.badRequest, .unknownForm)
            }
            try await body(session, version, form.values, request.headers[.acceptLanguage])
        } catch let error as GatewayError where error.code == .badRequest {
            await limiter.recordFailure(session: id, address: context.clientAddress)
            throw error
        }
        if await session.refusedSubmissions > refusedBefore {
            await limiter.recordFailure(session: id, address: context.clientAddress)
        }
        return try await afterAction(checkout, request: request)
    }

    /// Redirects back to the page; once signed in with a fresh cookie (rotated id), and to `completion.redirectURL` when
    /// one is configured and every sink accepted the outcome (otherwise the page says the hand-over is being retried).
    func afterAction(_ checkout: SessionCheckout<SignInSession>, request: Request) async throws -> Response {
        let session = checkout.session
        let id = checkout.id
        let signedIn = await session.phase == .signedIn
        if signedIn, configuration.pairing == nil, !configuration.kiosk.enabled {
            // Kept under a fresh cookie (one write saves and moves it), before the browser is sent on.
            guard let newID = try await store.rotate(checkout) else { return redirectHome() }
            await limiter.forget(session: id)
            if let url = configuration.completion.redirectURL, await !session.deliveryDelayed, session.device == nil {
                return redirect(to: Self.completionURL(url, reference: session.startLink?.reference), cookie: cookie(newID))
            }
            return redirectHome(after: checkout, cookie: cookie(newID))
        }
        // What the request did is kept before the browser is sent on (its next request may reach another replica).
        try await store.checkIn(checkout)
        if configuration.pairing != nil, await session.phase != .step {
            // `login` mode: the command stops soon after the outcome, so the final page comes with this response
            // rather than after a redirect the browser might send too late.
            return PageRenderer.response(renderer.page(for: await session.snapshot(), language: renderer.language(for: request)))
        }
        if configuration.kiosk.enabled, signedIn {
            // A shared screen keeps nothing of a finished sign-in.
            await store.remove(id: id)
            return kioskDone(await session.deliveryDelayed ? "delayed" : "signed-in")
        }
        return redirectHome(after: checkout)
    }

    /// After a cancel: the cancelled page, or in kiosk mode the session destroyed and a page that returns to the start.
    private func afterCancel(_ checkout: SessionCheckout<SignInSession>, request: Request) async throws -> Response {
        try await store.checkIn(checkout)
        if configuration.pairing != nil {
            return PageRenderer.response(
                renderer.messagePage(title: .gateway(.cancelledTitle), message: .gateway(.cancelledText), language: renderer.language(for: request)))
        }
        guard configuration.kiosk.enabled else { return redirectHome() }
        await store.remove(id: checkout.id)
        return kioskDone("cancelled")
    }

    /// The kiosk's way to its final page for `outcome`: the session's cookie cleared, and a ticket for that page (a
    /// minute, for `/kiosk/done` only) that says this browser is the one that finished.
    private func kioskDone(_ outcome: String) -> Response {
        var headers: HTTPFields = [.location: "/kiosk/done/\(outcome)"]
        headers.append(HTTPField(name: .setCookie, value: cookie("", maxAge: 0)))
        var ticket = ["\(kioskTicketCookie)=\(kioskTickets.make())", "Path=/kiosk/done", "HttpOnly", "SameSite=Strict", "Max-Age=60"]
        if configuration.server.servesTLS { ticket.append("Secure") }
        headers.append(HTTPField(name: .setCookie, value: ticket.joined(separator: "; ")))
        return Response(status: .seeOther, headers: headers)
    }

    private var kioskTicketCookie: String { configuration.server.servesTLS ? "__Secure-haapi-gateway-done" : "haapi-gateway-done" }

    /// Kiosk mode: `GET /kiosk/next` (every page's timed refresh) starts over when the sign-in has ended or its page was
    /// left alone for `kiosk.idleResetSeconds`, else shows the current step; `GET /kiosk/done/{outcome}` is the final page
    /// of a destroyed session.
    private func registerKiosk(on router: Router<GatewayRequestContext>) {
        router.get("/kiosk/next") { request, context in
            guard let id = request.cookies[cookieName]?.value else { return redirectHome() }
            let idle = try await store.idleDuration(id: id)
            let checkout: SessionCheckout<SignInSession>
            do {
                checkout = try await session(request, context: context, for: .reading)
            } catch is UnreadableSignIn {
                return redirectHome()
            } catch let error as GatewayError where error.code == .sessionExpired {
                return redirectHome(clearingCookie: true)
            }
            let ended: Bool
            switch await checkout.session.phase {
            case .signedIn, .failed, .cancelled: ended = true
            case .step, .confirming: ended = false
            }
            if ended || (idle ?? .zero) >= .seconds(max(1, configuration.kiosk.idleResetSeconds - 1)) {
                await store.remove(id: id)
                return redirectHome(clearingCookie: true)
            }
            return redirectHome()
        }
        router.get("/kiosk/done/:outcome") { request, context in
            // Only the browser that just finished is told how: anyone else opening the address gets the start.
            guard let ticket = request.cookies[kioskTicketCookie]?.value, kioskTickets.isOwn(ticket) else { return redirectHome() }
            let language = renderer.language(for: request)
            // The ticket is used up by this page.
            let spent: HTTPFields = [.setCookie: "\(kioskTicketCookie)=; Path=/kiosk/done; HttpOnly; SameSite=Strict; Max-Age=0"]
            switch context.parameters.get("outcome") {
            case "signed-in", "delayed":
                let snapshot = SessionSnapshot(
                    phase: .signedIn, step: nil, version: 0, csrfToken: "", notices: [], fieldErrors: [:], values: [:],
                    deliveryDelayed: context.parameters.get("outcome") == "delayed")
                return PageRenderer.response(renderer.page(for: snapshot, language: language), headers: spent)
            default:
                return PageRenderer.response(
                    renderer.messagePage(title: .gateway(.cancelledTitle), message: .gateway(.cancelledText), language: language), headers: spent)
            }
        }
    }

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func redirectHome(cookie: String? = nil, clearingCookie: Bool = false) -> Response {
        redirect(to: "/", cookie: clearingCookie ? self.cookie("", maxAge: 0) : cookie)
    }

    /// Back to the page after a post that checked `checkout` in: with a store that keeps documents, naming the version
    /// it saved (`/?saved=7`), so that this replica shows the page from what it kept (``SessionUse/readingAfterPost(savedVersion:)``).
    private func redirectHome(after checkout: SessionCheckout<SignInSession>, cookie: String? = nil) -> Response {
        guard let version = checkout.storedVersion else { return redirectHome(cookie: cookie) }
        return redirect(to: "/?\(Self.savedVersionParameter)=\(version)", cookie: cookie)
    }

    /// The query parameter of ``redirectHome(after:cookie:)``.
    static let savedVersionParameter = "saved"

    private func redirect(to location: String, cookie: String?) -> Response {
        var headers: HTTPFields = [.location: location]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }

    func cookie(_ value: String, maxAge: Int? = nil) -> String {
        var attributes = ["\(cookieName)=\(value)", "Path=/", "HttpOnly", "SameSite=Lax"]
        if configuration.server.servesTLS { attributes.append("Secure") }
        if let maxAge { attributes.append("Max-Age=\(maxAge)") }
        return attributes.joined(separator: "; ")
    }
}
