import Foundation
import HAAPI
import HTTPTypes
import Hummingbird

/// The person's side of the device authorization grant (RFC 8628 §3.3): `GET /device` asks for the code (prefilled from
/// `verification_uri_complete`), `POST /device` looks it up and shows which device asks and the code to compare
/// (§5.4, remote phishing), `POST /device/confirm` starts the HAAPI sign-in for that device (then every page is the
/// gateway's usual one, and the last says "You can go back to your device"), `POST /device/deny` refuses the device.
///
/// Before a sign-in exists the forms are protected by a double-submit token (a `SameSite=Strict` cookie and the same value
/// in the form) besides the origin check. A code that matches no waiting device, on any of the three posts, counts
/// against the wrong-code bounds (``UserCodeAttemptLimiter``).
struct DeviceVerificationController: Sendable {
    let services: GatewayServices
    let signIns: BrowserSignIns
    let store: any DeviceAuthorizationStore
    let limiter: any UserCodeAttemptLimiter
    /// Makes and checks the forms' double-submit tokens (of the gateway's own making, not a planted value).
    let formTokens: HMACToken

    private var cookieName: String { services.server.servesTLS ? "__Host-haapi-gateway-device" : "haapi-gateway-device" }

    func register(on router: Router<GatewayRequestContext>) {
        let path = DeviceAuthorizationController.verificationPath
        router.get(RouterPath(path)) { request, context in
            let renderer = services.settings(for: context).renderer
            // Decoded as a form (`+` as a space, percent escapes): `?user_code=WDJB+MJHT` is the code with a space.
            let typed = FormBody(parsing: request.uri.query ?? "").values["user_code"] ?? ""
            let prefill = UserCode.normalize(typed).map(UserCode.display) ?? String(typed.prefix(32))
            let (token, cookie) = formToken(request)
            return PageRenderer.response(
                renderer.deviceCodeEntryPage(userCode: prefill, csrfToken: token, language: renderer.language(for: request)),
                headers: cookie.map { [.setCookie: $0] } ?? [:]
            )
        }
        router.post(RouterPath(path)) { request, context in try await enter(request, context: context) }
        router.post(RouterPath(path + "/confirm")) { request, context in
            let (form, userCode) = try await verifiedForm(request, context: context)
            let renderer = services.settings(for: context).renderer
            guard let userCode, let authorization = try await store.beginSignIn(userCode: userCode) else {
                // A code that exists (confirmed already: a double click, a second tab) is no guess.
                if try await !isKnown(userCode) { try await recordWrongCode(context) }
                return PageRenderer.response(
                    renderer.deviceCodeEntryPage(
                        userCode: "",
                        csrfToken: form.values["_csrf"] ?? "",
                        notice: .gateway(.deviceCodeUsed),
                        language: renderer.language(for: request)
                    ),
                    status: .badRequest
                )
            }
            return try await startSignIn(for: authorization, request: request, context: context)
        }
        router.post(RouterPath(path + "/deny")) { request, context in
            let (_, userCode) = try await verifiedForm(request, context: context)
            guard let userCode, try await store.refuse(userCode: userCode) else {
                if try await !isKnown(userCode) { try await recordWrongCode(context) }
                throw GatewayError(.badRequest, .deviceCodeUsed)
            }
            services.logger.info("device refused on the verification page")
            let renderer = services.settings(for: context).renderer
            return PageRenderer.response(
                renderer.messagePage(
                    title: .gateway(.deviceRefusedTitle),
                    message: .gateway(.deviceRefused),
                    language: renderer.language(for: request)
                )
            )
        }
    }

    /// A code typed on the entry page: the confirmation page for a device waiting with it, the entry page again for a
    /// code used already, and for an unknown one a wrong code counted and the entry page with the code as typed.
    private func enter(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        let (form, userCode) = try await verifiedForm(request, context: context)
        let renderer = services.settings(for: context).renderer
        let language = renderer.language(for: request)
        let token = form.values["_csrf"] ?? ""
        let entry: UserCodeEntry = if let userCode { try await store.enter(userCode: userCode) } else { .unknown }
        switch entry {
        case .found(let authorization):
            return PageRenderer.response(
                renderer.deviceConfirmationPage(
                    deviceName: authorization.client.name,
                    userCode: UserCode.display(authorization.userCode),
                    csrfToken: token,
                    language: language
                )
            )
        case .alreadyUsed:
            return PageRenderer.response(
                renderer.deviceCodeEntryPage(userCode: "", csrfToken: token, notice: .gateway(.deviceCodeUsed), language: language)
            )
        case .unknown:
            try await recordWrongCode(context)
            return PageRenderer.response(
                renderer.deviceCodeEntryPage(
                    userCode: String((form.values["user_code"] ?? "").prefix(32)),
                    csrfToken: token,
                    notice: .gateway(.deviceCodeUnknown),
                    language: language
                ),
                status: .badRequest
            )
        }
    }

    /// Whether `userCode` is a code of a device authorization that has not expired (a repeated decision, not a guess).
    private func isKnown(_ userCode: String?) async throws -> Bool {
        guard let userCode else { return false }
        return try await store.knows(userCode: userCode)
    }

    /// Counts a wrong user code against the bounds and in the metrics, and logs it with the client address (as the logs
    /// treat addresses: behind `server.trustedProxies`, the forwarded client's).
    /// - Throws: ``GatewayError`` (503) when the bounds cannot count it: the page says nothing about the code.
    private func recordWrongCode(_ context: GatewayRequestContext) async throws(GatewayError) {
        services.logger.notice("wrong device user code entered", metadata: ["address": .untrusted(context.clientAddress ?? "")])
        try await limiter.recordWrongCode(address: context.clientAddress)
        services.metrics.deviceGrant(.wrongCode)
    }

    /// Starts the HAAPI sign-in of a confirmed device authorization and sends the browser to its first page. When it cannot
    /// start (the upstream is unreachable, the gateway is full), the code waits again for "Try again".
    private func startSignIn(for authorization: DeviceAuthorization, request: Request, context: GatewayRequestContext) async throws -> Response {
        do {
            guard try await services.store.hasRoom() else { throw BrowserSignIns.sessionsFull }
            let device = DeviceSignIn(reference: authorization.reference, client: authorization.client, store: store)
            let session = signIns.makeSession(flow: try services.newFlow(scopes: authorization.scopes), context: context, device: device)
            services.logger.info(
                "device sign-in started",
                metadata: ["client": "\(authorization.client.id)", "device": "\(authorization.reference)"]
            )
            return try await signIns.inNewSignInTrace(context: context) {
                try await session.begin(acceptLanguage: request.headers[.acceptLanguage])
                guard let checkout = try await signIns.add(session, context: context) else { throw BrowserSignIns.sessionsFull }
                return signIns.redirectHome(cookie: signIns.cookie(checkout.id))
            }
        } catch {
            try? await store.reopen(reference: authorization.reference)
            throw error
        }
    }

    /// The form of a post after the wrong-code bound, the origin check and the double-submit token, with its user code
    /// normalized (nil when it cannot be one).
    private func verifiedForm(_ request: Request, context: GatewayRequestContext) async throws -> (FormBody, String?) {
        if let wait = try await limiter.retryAfter(address: context.clientAddress) {
            services.logger.notice("device code refused: too many wrong codes", metadata: ["address": .untrusted(context.clientAddress ?? "")])
            throw GatewayError(.tooManyAttempts, .tooManyWrongCodes).retrying(after: wait)
        }
        try services.originGuard.check(request)
        let form = try await FormBody.read(request, limit: services.server.maximumRequestBodyBytes)
        // The cookie must be one of the gateway's own making (not a value a sibling host planted) and the form's copy of it.
        guard let cookie = request.cookieValue(cookieName), formTokens.isOwn(cookie),
            SecureToken.constantTimeEquals(form.values["_csrf"] ?? "", cookie)
        else {
            throw GatewayError(.forbidden, .formNotVerified)
        }
        return (form, form.values["user_code"].flatMap(UserCode.normalize))
    }

    /// The double-submit token of this browser: its cookie's, or a new one with the cookie to set.
    private func formToken(_ request: Request) -> (token: String, cookie: String?) {
        if let existing = request.cookieValue(cookieName), formTokens.isOwn(existing) { return (existing, nil) }
        let token = formTokens.make()
        return (token, services.cookie(cookieName, token, sameSite: "Strict"))
    }
}
