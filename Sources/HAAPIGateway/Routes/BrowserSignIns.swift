import Foundation
import HAAPI
import HTTPTypes
import Hummingbird
import Tracing

/// The sign-ins browsers hold by cookie, for every controller that starts or continues one (the sign-in pages, start
/// links, the device verification page, `login`'s pairing link, the external browser's return): starting one, storing
/// it, finding the request's own, checking a post, and the cookie and redirects that go with them.
struct BrowserSignIns: Sendable {
    let services: GatewayServices

    /// The session cookie's name: `__Host-` where the gateway serves HTTPS itself.
    var cookieName: String { services.server.servesTLS ? "__Host-haapi-gateway" : "haapi-gateway" }

    static let sessionsFull = GatewayError(.overloaded, .sessionsFull).retrying(after: 5)
    /// Another request holds the sign-in (a shared store's claim) for longer than an acting request waits.
    static let signInBusy = GatewayError(.overloaded, .signInBusy).retrying(after: 2)
    /// The query parameter of ``redirectHome(after:cookie:)``.
    static let savedVersionParameter = "saved"

    /// A new sign-in session over `flow`, with the request's polling and outcome settings.
    func makeSession(
        flow: HAAPIFlow,
        context: GatewayRequestContext,
        pairing: (code: String, hostName: String)? = nil,
        device: DeviceSignIn? = nil,
        startLink: StartLink? = nil
    ) -> SignInSession {
        let configuration = services.settings(for: context).configuration
        let session = SignInSession(
            record: SignInRecord(pairing: pairing, device: device, startLink: startLink),
            flow: flow,
            dispatcher: services.dispatcher,
            polling: configuration.polling,
            outcome: configuration.outcome,
            logger: services.logger,
            device: device,
            metrics: services.metrics,
            facts: services.upstream.facts
        )
        context.flow.belongs(to: session.flowID)
        return session
    }

    /// Runs `body`, which starts a sign-in, in the trace the new sign-in is to have: the request's, or a trace of its own
    /// (a root span `sign-in`, linked to the request's span) when the request continues an earlier sign-in's trace (its
    /// cookie's mark: a kiosk's next person, a sign-in that cannot be continued, a device's or `login`'s sign-in in a
    /// browser that had one). The new sign-in's cookie is marked with the trace current when it is made.
    func inNewSignInTrace<Result>(context: GatewayRequestContext, _ body: () async throws -> Result) async throws -> Result {
        guard context.continuesSignInTrace, let request = ServiceContext.current else { return try await body() }
        return try await withSpan("sign-in", context: .topLevel, ofKind: .internal) { span in
            span.addLink(SpanLink(context: request, attributes: [:]))
            return try await body()
        }
    }

    /// Starts a sign-in for a browser without a session. Before any upstream call: past its address's bound on new
    /// sign-ins it gets 429, and at the cap, when no session can be pushed out, 503; the sign-ins under way go on.
    /// - Parameters:
    ///   - link: The signed start link this sign-in was started by, if any.
    ///   - notice: A message for its first page.
    func start(_ request: Request, context: GatewayRequestContext, link: StartLink? = nil, notice: PageText? = nil) async throws -> Response {
        try await inNewSignInTrace(context: context) { try await begin(request, context: context, link: link, notice: notice) }
    }

    /// ``start(_:context:link:notice:)`` in the new sign-in's trace.
    private func begin(_ request: Request, context: GatewayRequestContext, link: StartLink?, notice: PageText?) async throws -> Response {
        let address = context.clientAddress
        guard try await services.store.hasRoom() else {
            services.metrics.signInRefused(.sessionsFull)
            throw Self.sessionsFull
        }
        if let wait = await services.newSessions.admit(address: address) {
            services.metrics.signInRefused(.addressBudget)
            services.logger.debug("new sign-in refused: too many from the client address", metadata: ["address": .untrusted(address ?? "")])
            throw GatewayError(.tooManyAttempts, .tooManyNewSignIns).retrying(after: wait)
        }
        let session = makeSession(flow: try services.newFlow(link: link), context: context, startLink: link)
        // The first page comes with this response: the start answers it.
        let firstPage = try await session.beginPage(acceptLanguage: request.headers[.acceptLanguage], notice: notice)
        guard let checkout = try await add(session, context: context) else {
            services.metrics.signInRefused(.sessionsFull)
            throw Self.sessionsFull
        }
        let renderer = services.settings(for: context).renderer
        return PageRenderer.response(
            renderer.page(for: firstPage, language: renderer.language(for: request), origin: services.origin(of: request)),
            headers: [.setCookie: cookie(checkout.id)]
        )
    }

    /// Stores a new sign-in, checked out to this request (checked in when it ends); nil when the store is full.
    func add(_ session: SignInSession, context: GatewayRequestContext) async throws(GatewayError) -> SessionCheckout<SignInSession>? {
        guard let checkout = try await services.store.add(session, address: context.clientAddress) else { return nil }
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
    func session(
        _ request: Request,
        context: GatewayRequestContext,
        for use: SessionUse,
        whenBusy busy: GatewayError?
    ) async throws
        -> SessionCheckout<SignInSession>?
    {
        guard let id = sessionID(of: request) else { throw GatewayError(.sessionExpired, .sessionExpired) }
        if try await endedAsLeftAlone(id: id, context: context) { throw GatewayError(.sessionExpired, .sessionExpired) }
        switch try await services.store.checkOut(id: id, for: use) {
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

    /// Kiosk mode: whether sign-in `id` was left alone for `kiosk.idleResetSeconds` and is now ended (removed, nothing
    /// handed over): on a shared screen the next person must never continue, or finish, the one before's, whether or
    /// not the page's own refresh (`/kiosk/next`) ever came. Every route that finds a browser's sign-in asks this first.
    func endedAsLeftAlone(id: String, context: GatewayRequestContext) async throws(GatewayError) -> Bool {
        guard services.signInMode.isSharedScreen, let idle = try await services.store.idleDuration(id: id) else { return false }
        guard idle >= .seconds(services.settings(for: context).configuration.kiosk.idleResetSeconds) else { return false }
        services.logger.info("kiosk: a sign-in left alone for \(ConfigurationKey.kioskIdleResetSeconds.path) is ended; the next person starts afresh")
        await remove(id: id)
        return true
    }

    /// The session of a state-changing request after the failed-post bounds, the origin and the CSRF checks; a refusal
    /// counts as a failed post of the session and the client address.
    func verifiedSession(_ request: Request, context: GatewayRequestContext) async throws -> (SessionCheckout<SignInSession>, FormBody) {
        let id = sessionID(of: request)
        if let wait = await services.limiter.retryAfter(session: id, address: context.clientAddress) {
            services.logger.notice("post refused: too many failed posts")
            throw GatewayError(.tooManyAttempts, .tooManyAttempts).retrying(after: wait)
        }
        do {
            try services.originGuard.check(request)
            guard id != nil else { throw GatewayError(.sessionExpired, .sessionExpired) }
            let form = try await FormBody.read(request, limit: services.server.maximumRequestBodyBytes)
            let checkout = try await session(request, context: context, for: .acting)
            guard checkout.session.acceptsCSRF(form.values["_csrf"]) else {
                throw GatewayError(.forbidden, .formNotVerified)
            }
            return (checkout, form)
        } catch let error as GatewayError where error.code == .forbidden {
            await services.limiter.recordFailure(session: id, address: context.clientAddress)
            throw error
        }
    }

    /// Removes the request's sign-in, if any, and forgets its failed posts.
    func remove(id: String) async {
        await services.store.remove(id: id)
        await services.limiter.forget(session: id)
    }

    func redirectHome(cookie: String? = nil, clearingCookie: Bool = false) -> Response {
        redirect(to: "/", cookie: clearingCookie ? self.cookie("", maxAge: 0) : cookie)
    }

    /// Back to the page after a post that checked `checkout` in: with a store that keeps documents, naming the version
    /// it saved (`/?saved=7`), so that this replica shows the page from what it kept (``SessionUse/readingAfterPost(savedVersion:)``).
    func redirectHome(after checkout: SessionCheckout<SignInSession>, cookie: String? = nil) -> Response {
        guard let version = checkout.storedVersion else { return redirectHome(cookie: cookie) }
        return redirect(to: "/?\(Self.savedVersionParameter)=\(version)", cookie: cookie)
    }

    func redirect(to location: String, cookie: String?) -> Response {
        var headers: HTTPFields = [.location: location]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }

    /// The session cookie's `Set-Cookie` value: `HttpOnly`, `SameSite=Lax`, `Secure` over HTTPS; with tracing on, the
    /// session id marked with the current trace (``SignInTraceMark``).
    func cookie(_ id: String, maxAge: Int? = nil) -> String {
        services.cookie(cookieName, services.traceMarks?.cookieValue(id: id) ?? id, sameSite: "Lax", maxAge: maxAge)
    }

    /// The session id of the request's session cookie, without its trace mark (``SignInTraceMark/sessionID(in:)``).
    func sessionID(of request: Request) -> String? {
        request.cookieValue(cookieName).map(SignInTraceMark.sessionID(in:))
    }
}
