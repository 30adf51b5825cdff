import Foundation
import HTTPTypes
import Hummingbird

/// The HAAPI endpoints: the authorize endpoint and every `/authn` step.
///
/// Each request must accept `application/vnd.auth+json`, present the DPoP-bound HAAPI token as
/// `Authorization: DPoP <token>` with a proof carrying `ath`, and (after authorize) the flow's `Session-Id`
/// request header, from the DPoP key that started the flow. Responses name the flow in `Set-Session-Id`.
struct HAAPIController: Sendable {
    let context: DemoServerContext
    var engine: LoginFlowEngine { LoginFlowEngine(context: context) }

    /// A flow step handler: runs under the flow store's lock.
    typealias StepHandler = @Sendable (LoginFlowEngine, inout LoginFlow, FormParameters) -> FlowOutcome

    /// Registers the authorize endpoint and the `/authn` steps.
    func register(on router: Router<BasicRequestContext>) {
        router.get(RouterPath(DemoPaths.authorize)) { request, _ in await authorize(request) }

        let steps: [(HTTPRequest.Method, String, StepHandler)] = [
            (.get, DemoPaths.authenticate, { engine, flow, _ in engine.selector(&flow) }),
            (.get, DemoPaths.htmlForm, { engine, flow, _ in engine.passwordForm(&flow, authenticatorPath: DemoPaths.htmlForm) }),
            (.post, DemoPaths.htmlForm, { engine, flow, form in engine.submitPassword(&flow, authenticatorPath: DemoPaths.htmlForm, form: form) }),
            (.get, DemoPaths.email, { engine, flow, _ in engine.passwordForm(&flow, authenticatorPath: DemoPaths.email) }),
            (.post, DemoPaths.email, { engine, flow, form in engine.submitPassword(&flow, authenticatorPath: DemoPaths.email, form: form) }),
            (.get, DemoPaths.approval, { engine, flow, _ in engine.passwordForm(&flow, authenticatorPath: DemoPaths.approval) }),
            (.post, DemoPaths.approval, { engine, flow, form in engine.submitPassword(&flow, authenticatorPath: DemoPaths.approval, form: form) }),
            (.get, DemoPaths.forgotPassword, { engine, flow, _ in engine.forgotPassword(&flow) }),
            (.get, DemoPaths.registerCreate, { engine, flow, _ in engine.registerCreate(&flow) }),
            (.post, DemoPaths.cancel, { engine, flow, _ in engine.cancel(&flow) }),
            (.get, DemoPaths.notice, { engine, flow, _ in engine.notice(&flow) }),
            (.post, DemoPaths.notice, { engine, flow, form in engine.continueAfterNotice(&flow, form: form) }),
            (.post, DemoPaths.noticeEmailCopy, { engine, flow, form in engine.emailNoticeCopy(&flow, form: form) }),
            (.post, DemoPaths.enterOTP, { engine, flow, form in engine.submitCode(&flow, form: form) }),
            (.post, DemoPaths.smsSendCode, { engine, flow, form in engine.sendSMSCode(&flow, form: form) }),
            (.post, DemoPaths.smsVerifyCode, { engine, flow, form in engine.verifySMSCode(&flow, form: form) }),
            (.get, DemoPaths.approvalPoller, { engine, flow, _ in engine.poll(&flow) }),
            (.post, DemoPaths.approvalPoller, { engine, flow, form in engine.moveOnAfterApproval(&flow, form: form) }),
            (.post, DemoPaths.approvalCancel, { engine, flow, _ in engine.cancelApproval(&flow) }),
            (.get, DemoPaths.externalBrowser, { engine, flow, _ in engine.externalBrowser(&flow) }),
            (.get, DemoPaths.bankID, { engine, flow, _ in engine.bankID(&flow) }),
            (.post, DemoPaths.externalBrowser, { engine, flow, form in engine.resumeAfterExternalBrowser(&flow, form: form) }),
            (.get, DemoPaths.passkey, { engine, flow, _ in engine.passkeyForm(&flow) }),
            (.post, DemoPaths.passkey, { engine, flow, form in engine.submitPasskeyUsername(&flow, form: form) }),
            (.post, DemoPaths.passkeyRegistration, { engine, flow, form in engine.submitPasskeyRegistration(&flow, form: form) }),
            (.post, DemoPaths.passkeyAssertion, { engine, flow, form in engine.submitPasskeyAssertion(&flow, form: form) }),
            (.post, DemoPaths.consent, { engine, flow, form in engine.submitConsent(&flow, form: form) }),
        ]
        router.get(RouterPath(DemoPaths.waitingImage)) { request, _ in await waitingImage(request) }
        for (method, path, handler) in steps {
            router.on(RouterPath(path), method: method) { request, _ in await step(request, path: path, handler: handler) }
        }
    }

    // MARK: Authorize

    private func authorize(_ request: Request) async -> Response {
        let caller: HAAPICaller
        switch authenticateCaller(request, path: DemoPaths.authorize) {
        case .refused(let response): return response
        case .accepted(let value): caller = value
        }
        let query = FormParameters(encoded: request.uri.query ?? "")
        switch validateAuthorizeRequest(query, tokenClientID: caller.token.clientID) {
        case .failure(let problem):
            return DemoResponse.problem(problem, headers: commonHeaders(sessionID: nil, caller: caller))
        case .success(let authorizationRequest):
            let stickiness = context.configuration.requiresStickinessCookie ? RandomToken.make(byteCount: 16) : nil
            let flow = context.flows.start(request: authorizationRequest, keyThumbprint: caller.keyThumbprint, stickinessCookie: stickiness)
            context.logger.debug("HAAPI flow started")
            var headers = commonHeaders(sessionID: flow.sessionID, caller: caller)
            for value in stickiness.map(StickinessCookie.setCookieValues) ?? [] { headers.append(HTTPField(name: .setCookie, value: value)) }
            return DemoResponse.representation(FlowSteps.redirection(to: context.url(DemoPaths.authenticate)), headers: headers)
        }
    }

    private func validateAuthorizeRequest(_ query: FormParameters, tokenClientID: String) -> Result<AuthorizationRequest, Problem> {
        func fail(_ error: String, _ description: String) -> Result<AuthorizationRequest, Problem> {
            .failure(.errorAuthorizationResponse(error: error, description: description, issuer: context.issuer))
        }
        guard query.isWellFormed else { return fail("invalid_request", "The query is not well-formed") }
        if let repeated = query.repeatedNames.sorted().first { return fail("invalid_request", "Repeated parameter: \(repeated)") }
        guard let clientID = query.nonEmpty("client_id") else { return fail("invalid_request", "client_id is missing") }
        guard clientID == context.client.clientID, clientID == tokenClientID else {
            return fail("unauthorized_client", "Unknown client or not the client of the HAAPI token")
        }
        guard let redirectURI = query.nonEmpty("redirect_uri") else { return fail("invalid_request", "redirect_uri is missing") }
        guard context.client.redirectURIs.contains(redirectURI) else {
            switch context.configuration.redirectURIRefusal {
            case .errorAuthorizationResponse: return fail("invalid_request", "redirect_uri is not registered for the client")
            case .invalidRequestProblem: return .failure(.invalidRequest)
            }
        }
        guard let responseType = query.nonEmpty("response_type") else { return fail("invalid_request", "response_type is missing") }
        guard responseType == "code" else { return fail("unsupported_response_type", "Only response_type=code is supported") }
        let scopes = (query["scope"] ?? "").split(separator: " ").map(String.init)
        guard !scopes.isEmpty else { return fail("invalid_scope", "scope is missing") }
        guard scopes.allSatisfy(context.client.scopes.contains) else { return fail("invalid_scope", "A requested scope is not allowed") }
        guard let challenge = query.nonEmpty("code_challenge") else {
            return fail("invalid_request", "PKCE is required: code_challenge is missing")
        }
        guard query["code_challenge_method"] == "S256" else {
            return fail("invalid_request", "PKCE code_challenge_method must be S256")
        }
        guard challenge.count == 43, Base64URL.decode(challenge)?.count == 32 else {
            return fail("invalid_request", "code_challenge is not a base64url SHA-256 value")
        }
        let dpopJKT = query["dpop_jkt"]
        if let dpopJKT, dpopJKT.count != 43 || Base64URL.decode(dpopJKT)?.count != 32 {
            return fail("invalid_request", "dpop_jkt is not a base64url SHA-256 JWK thumbprint")
        }
        if dpopJKT == nil, context.configuration.authorizationCodeDPoPBinding == .required {
            return fail("invalid_request", "dpop_jkt is required: the client's authorization codes are bound to a DPoP key")
        }
        var uniqueScopes: [String] = []
        for scope in scopes where !uniqueScopes.contains(scope) { uniqueScopes.append(scope) }
        return .success(
            AuthorizationRequest(
                clientID: clientID,
                redirectURI: redirectURI,
                scopes: uniqueScopes,
                state: query["state"],
                codeChallenge: challenge,
                nonce: query["nonce"],
                dpopJKT: dpopJKT
            )
        )
    }

    // MARK: Steps

    private func step(_ request: Request, path: String, handler: StepHandler) async -> Response {
        let caller: HAAPICaller
        switch authenticateCaller(request, path: path) {
        case .refused(let response): return response
        case .accepted(let value): caller = value
        }
        guard let sessionID = Self.sessionID(of: request) else { return Self.missingSession(headers: commonHeaders(sessionID: nil, caller: caller)) }
        let form: FormParameters
        switch await parameters(of: request) {
        case .failure(let problem): return DemoResponse.problem(problem, headers: commonHeaders(sessionID: nil, caller: caller))
        case .success(let value): form = value
        }
        let engine = self.engine
        let cookies = request.headers[values: .cookie]
        let (lookup, result) = context.flows.withFlow(sessionID) { flow -> FlowOutcome in
            if let refusal = Self.refusal(of: flow, caller: caller, cookies: cookies) { return .problem(refusal) }
            return handler(engine, &flow, form)
        }
        switch (lookup, result) {
        case (.found, .step(let representation)?):
            let step = context.configuration.writesAbsoluteHrefs ? representation.withAbsoluteHrefs(on: context.baseURL) : representation
            return DemoResponse.representation(step, headers: commonHeaders(sessionID: sessionID, caller: caller))
        case (.found, .problem(let problem)?):
            return flowProblem(problem, sessionID: sessionID, caller: caller)
        default:
            return lostFlow(lookup, caller: caller)
        }
    }

    /// `GET` the approval waiting step's `illustration` image: served like a HAAPI resource of the flow (DPoP-bound
    /// HAAPI token with a proof for this URL, the flow's `Session-Id`, and in strict mode its cookie), but with an
    /// `Accept` that allows `image/png`. Curity's image links may point at the server rather than a `data:` URI.
    private func waitingImage(_ request: Request) async -> Response {
        let caller: HAAPICaller
        switch HAAPIRequestGuard(context: context).authenticate(request, url: context.proofURL(DemoPaths.waitingImage), mediaType: "image/png") {
        case .refused(let response): return response
        case .accepted(let value): caller = value
        }
        guard let sessionID = Self.sessionID(of: request) else { return Self.missingSession(headers: commonHeaders(sessionID: nil, caller: caller)) }
        let cookies = request.headers[values: .cookie]
        let (lookup, refusal) = context.flows.withFlow(sessionID) { flow in Self.refusal(of: flow, caller: caller, cookies: cookies) }
        switch (lookup, refusal) {
        case (.found, .some(let problem)?): return flowProblem(problem, sessionID: sessionID, caller: caller)
        case (.found, _): return DemoResponse.png(Self.waitingPNG, headers: commonHeaders(sessionID: nil, caller: caller))
        default: return lostFlow(lookup, caller: caller)
        }
    }

    private static let waitingPNG = PNGImage.waiting()

    /// The one `Session-Id` request header, or nil when it is missing, empty or repeated.
    private static func sessionID(of request: Request) -> String? {
        let sessionIDs = request.headers[values: .sessionID]
        guard sessionIDs.count == 1, let sessionID = sessionIDs.first, !sessionID.isEmpty else { return nil }
        return sessionID
    }

    private static func missingSession(headers: HTTPFields) -> Response {
        DemoResponse.problem(
            .unexpected(code: "missing_session", messages: ["The Session-Id header is missing; start with the authorize request."]),
            headers: headers
        )
    }

    /// Why `caller` may not use `flow`: another DPoP key, or (strict mode) cookies that a load balancer would not
    /// route to the flow's node.
    private static func refusal(of flow: LoginFlow, caller: HAAPICaller, cookies: [String]) -> Problem? {
        guard flow.keyThumbprint == caller.keyThumbprint else { return dpopSessionMismatch }
        if let expected = flow.stickinessCookie { return StickinessCookie.problem(cookieHeaders: cookies, expected: expected) }
        return nil
    }

    private func flowProblem(_ problem: Problem, sessionID: String, caller: HAAPICaller) -> Response {
        let echo = problem.code == Self.dpopSessionMismatch.code ? nil : sessionID
        return DemoResponse.problem(problem, headers: commonHeaders(sessionID: echo, caller: caller))
    }

    private func lostFlow(_ lookup: FlowStore.Lookup, caller: HAAPICaller) -> Response {
        if lookup == .expired {
            return DemoResponse.problem(
                .unexpected(code: "session_expired", title: "Session Expired", messages: ["The login took too long; please start again."]),
                headers: commonHeaders(sessionID: nil, caller: caller)
            )
        }
        return DemoResponse.problem(
            .unexpected(code: "unknown_session", messages: ["The session is unknown or has ended; please start again."]),
            headers: commonHeaders(sessionID: nil, caller: caller)
        )
    }

    /// The `unexpected` problem for a flow accessed with another DPoP key (as Curity answers).
    static let dpopSessionMismatch = Problem.unexpected(
        code: "authorization_failed",
        messages: ["You are not authorized to execute this request.", "A session can only be accessed using the original DPoP keys."],
        status: 403,
        links: [Link(href: DemoPaths.authenticate, rel: "restart", title: "Try again")]
    )

    /// Query parameters of a GET, or the URL-encoded body of a POST.
    private func parameters(of request: Request) async -> Result<FormParameters, Problem> {
        guard request.method == .post else {
            return .success(FormParameters(encoded: request.uri.query ?? ""))
        }
        let text: String
        switch await RequestBodyReader(maximumBytes: context.configuration.maximumRequestBodyBytes).text(of: request) {
        case .failure(.tooLarge):
            return .failure(
                .unexpected(code: "request_too_large", title: "Request Too Large", messages: ["The request body is too large."], status: 413)
            )
        case .failure(.unreadable):
            return .failure(.unexpected(code: "invalid_request", messages: ["The request body could not be read."]))
        case .success(let value): text = value
        }
        let contentType = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        if contentType == FormModel.json {
            // JSON forms (WebAuthn credentials): an object whose members are the fields; nested values kept as JSON.
            guard let object = JSONValue.object(from: Data(text.utf8)) else {
                return .failure(.invalidInput([Problem.InvalidField(name: "body", reason: "invalidValue", detail: "The body is not a JSON object")]))
            }
            return .success(FormParameters(jsonObject: object))
        }
        guard contentType == FormModel.urlEncoded || (contentType == nil && text.isEmpty) else {
            return .failure(
                .unexpected(
                    code: "invalid_request",
                    messages: ["Forms must be posted as application/x-www-form-urlencoded or application/json."],
                    status: 415
                )
            )
        }
        let form = FormParameters(encoded: text)
        guard form.isWellFormed, form.repeatedNames.isEmpty else {
            return .failure(
                .invalidInput(
                    form.repeatedNames.sorted().map {
                        Problem.InvalidField(name: $0, reason: "invalidValue", detail: "The field was sent more than once")
                    }
                        + (form.isWellFormed
                            ? [] : [Problem.InvalidField(name: "body", reason: "invalidValue", detail: "The body is not well-formed")])
                )
            )
        }
        return .success(form)
    }

    // MARK: Caller authentication

    private func authenticateCaller(_ request: Request, path: String) -> HAAPIRequestGuard.Outcome {
        let guardian = HAAPIRequestGuard(context: context)
        return guardian.authenticate(request, url: context.proofURL(path))
    }

    private func commonHeaders(sessionID: String?, caller: HAAPICaller) -> HTTPFields {
        var fields = context.nonceHeaders(for: caller.keyThumbprint)
        // The session id goes out only as `Set-Session-Id` (notes 2.3, [DRIVER][SRVCLIENT]); requests send it back as `Session-Id`.
        if let sessionID { fields[.setSessionID] = sessionID }
        return fields
    }
}
