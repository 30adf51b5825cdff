import Foundation
import Logging

/// One login flow: one DPoP key, one HAAPI token, the DPoP nonce, the `Session-Id`, the PKCE pair and the
/// `state` of one user's authentication. Create with ``HAAPIClient/makeFlow()``; never share between users.
public actor HAAPIFlow {
    let context: HAAPIClientContext
    let dpopKey: DPoPKey
    /// The DPoP key as the PEM text a saved state holds: the text it was restored from, or the one its first export
    /// wrote (a PEM of the key cost about 1 % of a PostgreSQL-store gateway's CPU when made again on every save).
    var dpopKeyPEM: String?
    let pkce: PKCE
    let state: String
    let oidcNonce: String?
    /// The scopes this flow asks for: the configuration's, or fewer for one sign-in (``HAAPIClient/makeFlow(scopes:parameters:)``).
    let scopes: [String]
    /// The extra authorize parameters of this flow: the configuration's, or others for one sign-in.
    var authorizationParameters: AuthorizationParameters { parameters.value }
    /// ``authorizationParameters``, by reference: the configuration's are shared by its flows (inline they took 88
    /// bytes in each).
    private let parameters: Boxed<AuthorizationParameters>
    /// The flow's session id, from the latest `Set-Session-Id` (sent back as `Session-Id`).
    var sessionID: String?
    /// The latest `DPoP-Nonce` the server gave this flow (its key): one per flow, never shared (notes 1.4).
    var dpopNonce: String?
    /// Cookies the upstream set for this flow (a load balancer's stickiness cookie), never given to a browser.
    var cookies = UpstreamCookieJar()
    /// The form action submitted last, whose `continueActions` a `continue-same-step` answer continues with; kept only
    /// when it has some (without, the answer is handled alike: ``followAutomaticSteps(from:acceptLanguage:)``).
    var lastSubmittedAction: Action? {
        get { lastSubmitted?.value }
        set { lastSubmitted = newValue.map(Boxed.init) }
    }
    /// ``lastSubmittedAction``, by reference (inline, an action took 193 bytes in every flow).
    private var lastSubmitted: Boxed<Action>?
    var tokenMachine: HAAPITokenStateMachine
    var started = false
    var codeExchanged = false
    /// Whether this flow's code exchange was refused for a missing DPoP proof and sent again with one (the server issues
    /// token-bound authorization codes, and this client did not know it yet). A server that used the code up on the
    /// refusal answers that second exchange `invalid_grant`; a caller can tell the person why (Curity does not document
    /// whether it does, [TOKENBIND]).
    public internal(set) var codeExchangeProvedAfterRefusal = false
    /// Whether this flow's authorize request carried `dpop_jkt`, the RFC 7638 thumbprint of the flow's key (RFC 9449
    /// §10): the code is then bound to the key, and the exchange is proved with it.
    public internal(set) var authorizeCarriedDPoPJKT = false
    /// Whether this flow's authorize request was refused without `dpop_jkt` and accepted with it, so that this flow
    /// showed the server binds codes to a DPoP key (Curity 11.4's `authorization-code-dpop-binding` = `required`,
    /// [DPOP114]); `doctor` names the setting from it.
    public internal(set) var authorizeNeededDPoPJKT = false
    let clock = ContinuousClock()
    let logger: FlowLogger

    /// The latest step received (not replaced by problems or `continue-same-step`).
    public internal(set) var currentStep: Representation?

    init(context: HAAPIClientContext, scopes: [String]? = nil, parameters: AuthorizationParameters? = nil) {
        self.context = context
        self.dpopKey = DPoPKey()
        self.pkce = PKCE()
        self.state = RandomToken.make(byteCount: 24)
        self.scopes = scopes ?? context.configuration.scopes
        self.parameters = parameters.map(Boxed.init) ?? context.authorizationParameters
        self.oidcNonce = self.scopes.contains("openid") ? RandomToken.make(byteCount: 24) : nil
        self.tokenMachine = HAAPITokenStateMachine(refreshMargin: context.configuration.haapiTokenRefreshMargin)
        self.logger = FlowLogger(context.logger, key: "haapi.flow", value: RandomToken.make(byteCount: 6))
    }

    /// A flow as saved in `saved`, with its key, step and last submitted action already loaded from it
    /// (``HAAPIFlow/restore(_:context:)``); the HAAPI token's wall-clock expiry becomes an instant of this process's clock.
    init(context: HAAPIClientContext, restoring saved: HAAPIFlowState, dpopKey: DPoPKey, currentStep: Representation?, lastSubmittedAction: Action?) {
        self.context = context
        self.dpopKey = dpopKey
        self.dpopKeyPEM = saved.dpopPrivateKeyPEM
        self.pkce = PKCE(verifier: saved.codeVerifier)
        self.state = saved.oauthState
        self.scopes = saved.scopes
        self.parameters =
            saved.authorizationParameters == context.authorizationParameters.value
            ? context.authorizationParameters : Boxed(saved.authorizationParameters)
        self.oidcNonce = saved.oidcNonce
        self.sessionID = saved.sessionID
        self.dpopNonce = saved.dpopNonce
        self.cookies = UpstreamCookieJar(restoring: saved.cookies.map(\.upstreamCookie))
        self.lastSubmitted = lastSubmittedAction.map(Boxed.init)
        self.currentStep = currentStep
        self.started = saved.started
        self.codeExchanged = saved.codeExchanged
        self.authorizeCarriedDPoPJKT = saved.authorizeCarriedDPoPJKT
        var tokenMachine = HAAPITokenStateMachine(refreshMargin: context.configuration.haapiTokenRefreshMargin)
        if let token = saved.haapiToken {
            // Bounded, so that no saved time can overflow the clock: a day past is as expired as any earlier time.
            let seconds = token.expiresAt.timeIntervalSinceNow
            let remaining = Duration.seconds(seconds.isFinite ? min(max(seconds, -86_400), 366 * 86_400) : -86_400)
            let restored = HAAPIAccessToken(value: token.value, tokenType: token.tokenType, expiresIn: token.expiresIn)
            tokenMachine.restore(restored, expiresAt: ContinuousClock.now + remaining)
        }
        self.tokenMachine = tokenMachine
        self.logger = FlowLogger(context.logger, key: "haapi.flow", value: RandomToken.make(byteCount: 6))
    }

    /// The public JWK of this flow's DPoP key (for matching bound tokens; the private key stays inside).
    public nonisolated var dpopPublicJWK: PublicJWK { dpopKey.publicJWK }

    /// The timeout of one upstream request (``HAAPIClientConfiguration/requestTimeout``); with ``HAAPIDeadline`` it bounds
    /// a whole chain of them.
    public nonisolated var requestTimeout: Duration { context.configuration.requestTimeout }

    /// Starts the flow: sends the authorize request with PKCE, `state`, OIDC `nonce` and the extra parameters.
    /// - Parameter acceptLanguage: The end user's `Accept-Language`, forwarded as is.
    /// - Returns: The first step (usually a redirection step) or a problem.
    /// - Throws: ``HAAPIError`` on failures; ``HAAPIError/Code/invalidParameters`` when already started.
    public func start(acceptLanguage: String? = nil) async throws(HAAPIError) -> HAAPIResponse {
        guard !started else { throw HAAPIError(.invalidParameters, "the flow was already started; create a new flow") }
        started = true
        // `dpop_jkt` binds the code to the flow's key (RFC 9449 §10), and a bound code makes bound tokens: it goes with the
        // request when the tokens are to be bound anyway (configured, or found before). Otherwise an `invalid_request`
        // refusal is tried once more with it: Curity 11.4's `authorization-code-dpop-binding` = `required` refuses a request
        // without it ([DPOP114], [DPOPEPH]), with an answer its pages do not show (docs/curity-compatibility.md).
        authorizeCarriedDPoPJKT = context.configuration.bindTokensToDPoP || context.codeExchangeProof.isRequired
        logger.debug("starting HAAPI flow")
        let response = try await call(method: "GET", url: try authorizationRequestURL(), body: nil, contentType: nil, acceptLanguage: acceptLanguage)
        guard !authorizeCarriedDPoPJKT, Self.isInvalidRequestRefusal(response) else { return response }
        logger.info("the upstream refused the authorize request (invalid_request); sending it once more with dpop_jkt")
        authorizeCarriedDPoPJKT = true
        sessionID = nil
        let retried = try await call(method: "GET", url: try authorizationRequestURL(), body: nil, contentType: nil, acceptLanguage: acceptLanguage)
        guard retried.representation != nil else {
            // Not what dpop_jkt cures: the person is shown the first refusal, and the flow is over either way.
            authorizeCarriedDPoPJKT = false
            return response
        }
        authorizeNeededDPoPJKT = true
        if let changed = context.codeExchangeProof.foundDPoPJKTRequired(logger: logger) { await context.codeExchangeProof.report(changed) }
        return retried
    }

    /// Whether `response` refuses an authorize request as malformed: an `error-authorization-response` with `error`
    /// `invalid_request` (RFC 6749 §4.1.2.1), the answer a missing required parameter gets.
    static func isInvalidRequestRefusal(_ response: HAAPIResponse) -> Bool {
        guard case .problem(let problem) = response else { return false }
        return problem.kind == .errorAuthorizationResponse && problem.error == "invalid_request"
    }

    /// The authorize request URL of this flow, with `dpop_jkt` when ``authorizeCarriedDPoPJKT``.
    func authorizationRequestURL() throws(HAAPIError) -> URL {
        let configuration = context.configuration
        var items: [(String, String)] = [
            ("client_id", configuration.clientID), ("response_type", "code"), ("redirect_uri", configuration.redirectURI),
        ]
        if !scopes.isEmpty { items.append(("scope", scopes.joined(separator: " "))) }
        items.append(("state", state))
        items.append(("code_challenge", pkce.challenge))
        items.append(("code_challenge_method", pkce.method))
        if let oidcNonce { items.append(("nonce", oidcNonce)) }
        if authorizeCarriedDPoPJKT { items.append(("dpop_jkt", dpopKey.publicJWK.thumbprint)) }
        items += authorizationParameters.queryItems
        return try Self.appendingQuery(items, to: context.endpoints.authorization)
    }

    /// Submits a form action of the current step.
    /// - Parameters:
    ///   - action: A `form` action of a step of this flow (including nested continue/error actions and selector options).
    ///   - parameters: Values for the form's visible and context fields, by field name.
    ///   - acceptLanguage: The end user's `Accept-Language`.
    /// - Throws: ``HAAPIError/Code/invalidParameters`` for a non-form action or undeclared parameter names;
    ///   ``HAAPIError/Code/offOriginHref`` for an href outside the upstream origin (nothing is sent).
    public func submitForm(
        _ action: Action,
        parameters: [String: String] = [:],
        acceptLanguage: String? = nil
    ) async throws(HAAPIError) -> HAAPIResponse {
        try await submitForm(action, values: parameters.mapValues { JSONValue.string($0) }, acceptLanguage: acceptLanguage)
    }

    /// Submits a form action with JSON values (for `application/json` forms such as WebAuthn credentials).
    /// - Parameters:
    ///   - action: A `form` action of a step of this flow.
    ///   - values: Values by field name; objects and arrays are sent as nested JSON (or as JSON text in urlencoded forms).
    ///   - acceptLanguage: The end user's `Accept-Language`.
    public func submitForm(_ action: Action, values: [String: JSONValue], acceptLanguage: String? = nil) async throws(HAAPIError) -> HAAPIResponse {
        guard let form = action.form else {
            throw HAAPIError(.invalidParameters, "the action with template '\(action.template)' is not a form")
        }
        try ensureActive()
        let submission = try FormSubmission(form: form, values: values, originGuard: context.originGuard)
        lastSubmittedAction = form.continueActions.isEmpty ? nil : action
        if !submission.ignoredNames.isEmpty {
            logger.debug("ignored caller values for fixed fields", metadata: ["fields": "\(submission.ignoredNames.joined(separator: ","))"])
        }
        return try await call(
            method: submission.method,
            url: submission.url,
            body: submission.body,
            contentType: submission.contentType,
            acceptLanguage: acceptLanguage
        )
    }

    /// Follows a link of the current step with a GET.
    /// - Parameters:
    ///   - link: A link of a step of this flow.
    ///   - acceptLanguage: The end user's `Accept-Language`.
    /// - Throws: ``HAAPIError/Code/offOriginHref`` for image (`data:`) links and hrefs outside the upstream origin.
    public func followLink(_ link: Link, acceptLanguage: String? = nil) async throws(HAAPIError) -> HAAPIResponse {
        guard !link.href.lowercased().hasPrefix("data:") else {
            throw HAAPIError(.offOriginHref, "image links are shown, never fetched")
        }
        try ensureActive()
        let url = try context.originGuard.resolve(link.href)
        lastSubmittedAction = nil
        return try await call(method: "GET", url: url, body: nil, contentType: nil, acceptLanguage: acceptLanguage)
    }

    /// Opt-in helper: follows `redirection-step`s automatically, and a `polling-step` whose status is `done` by its main
    /// (form) action, which needs no input (notes 3.4: "done: follow the main action"); and turns a `continue-same-step`
    /// into the step to show: the previous step with the submitted form's `continueActions` as its actions and the new
    /// messages before the previous ones (notes 3.2, [IOSCS], [UIKIT] `formatContinueSameStepData`). That step becomes
    /// ``currentStep``, so a continue action answered by another `continue-same-step` continues from it. Every automatic
    /// advance of a flow is here, bounded together by `maxAutomaticSteps`.
    ///
    /// A `continue-same-step` after a form without `continueActions` is outside the protocol; the tolerant answer keeps
    /// the previous step's actions (so the person can go on) with the new messages first, and logs a warning.
    /// - Parameters:
    ///   - response: A response of this flow.
    ///   - acceptLanguage: The end user's `Accept-Language`.
    /// - Returns: The first response that needs the user (or the flow's end).
    /// - Throws: ``HAAPIError/Code/tooManyRedirects`` past the bound.
    public func followAutomaticSteps(from response: HAAPIResponse, acceptLanguage: String? = nil) async throws(HAAPIError) -> HAAPIResponse {
        var response = response
        var followed = 0
        var previous = currentStep
        while case .representation(let step) = response {
            switch step.stepKind {
            case .redirection,
                .polling where step.polling?.status == .done:
                guard let action = step.actions.first(where: { $0.form != nil }) else { return response }
                guard followed < context.configuration.maxAutomaticSteps else {
                    throw HAAPIError(.tooManyRedirects, "more than \(context.configuration.maxAutomaticSteps) automatic steps in a row")
                }
                followed += 1
                previous = currentStep
                response = try await submitForm(action, values: [:], acceptLanguage: acceptLanguage)
            case .continueSame:
                guard let previous, previous.stepKind != .continueSame else { return response }
                let continueActions = lastSubmittedAction?.form?.continueActions ?? []
                if continueActions.isEmpty {
                    logger.warning("continue-same-step answered a form without continueActions; keeping the previous step's actions")
                }
                let next = previous.continuing(with: continueActions.isEmpty ? previous.actions : continueActions, newMessages: step.messages)
                currentStep = next
                return .representation(next)
            default:
                return response
            }
        }
        return response
    }

    /// Exchanges the code of the flow's authorization response, once.
    /// - Parameter authorizationResponse: The properties of the `oauth-authorization-response` step.
    /// - Returns: Tokens (with the DPoP key when bound per configuration) or an OAuth error value.
    /// - Throws: ``HAAPIError/Code/authorizationResponseMismatch`` for a wrong `state` or `iss`;
    ///   ``HAAPIError/Code/flowExpired`` when the code was already exchanged.
    public func exchangeCode(from authorizationResponse: AuthorizationResponse) async throws(HAAPIError) -> TokenExchangeOutcome {
        guard !codeExchanged else { throw HAAPIError(.flowExpired, "the authorization code of this flow was already exchanged") }
        guard authorizationResponse.state == state else {
            throw HAAPIError(.authorizationResponseMismatch, "the authorization response state does not match this flow")
        }
        if let issuer = authorizationResponse.issuer, let expected = context.endpoints.issuer, issuer != expected {
            throw HAAPIError(.authorizationResponseMismatch, "the authorization response issuer does not match the configured issuer")
        }
        guard let code = authorizationResponse.code, !code.isEmpty else {
            throw HAAPIError(.invalidParameters, "the authorization response has no code")
        }
        codeExchanged = true
        let form = TokenManager.authorizationCodeForm(code: code, codeVerifier: pkce.verifier, redirectURI: context.configuration.redirectURI)
        // A proof goes with the exchange when tokens are to be bound, or once the server showed it issues token-bound
        // codes (Curity's `issue-token-bound-authorization-code`: without a proof by the flow's key the exchange is refused
        // with `invalid_dpop_proof` [TOKENBIND], notes 5). Otherwise the first exchange tries without one, and on
        // `invalid_dpop_proof` proves and retries once; what was found is logged once per client.
        // What was found is told to the client's observer (``HAAPIClient/onCodeExchangeFindingChange(_:)``) once the
        // exchange is done, so that a caller can keep it for its next client.
        let prove = context.configuration.bindTokensToDPoP || context.codeExchangeProof.isRequired || authorizeCarriedDPoPJKT
        let outcome = try TokenEndpointClient.tokens(from: try await postExchange(form, prove: prove), dpopKey: prove ? dpopKey : nil)
        if !prove, outcome.oauthError?.error == "invalid_dpop_proof" {
            let changed = context.codeExchangeProof.found(required: true, logger: logger)
            codeExchangeProvedAfterRefusal = true
            let retried: Result<TokenExchangeOutcome, HAAPIError>
            do throws(HAAPIError) {
                retried = .success(try TokenEndpointClient.tokens(from: try await postToTokenEndpoint(form, prove: true), dpopKey: dpopKey))
            } catch {
                retried = .failure(error)
            }
            if let changed { await context.codeExchangeProof.report(changed) }
            return try retried.get()
        } else if !prove, outcome.tokens != nil, let changed = context.codeExchangeProof.found(required: false, logger: logger) {
            await context.codeExchangeProof.report(changed)
        }
        return outcome
    }

    /// The code exchange's POST, sent a second time (once, after half a second) when the first got a 5xx (a proxy's, a
    /// server restarting) or a refused or reset connection; not after a timeout, which used the time up. A code the server did consume makes the
    /// second answer `invalid_grant`, the same failure as without it,
    /// never a second set of tokens; one it never saw is exchanged, and the sign-in completes instead of failing.
    private func postExchange(
        _ form: [(String, String)],
        prove: Bool
    ) async throws(HAAPIError) -> (status: Int, json: JSONValue?, response: HTTPResponseData) {
        do {
            let answer = try await postToTokenEndpoint(form, prove: prove)
            guard answer.status >= 500 else { return answer }
            logger.notice("code exchange answered \(answer.status); sending it once more")
        } catch  where [.transport, .connectionRefused].contains(error.code) {
            logger.notice("code exchange got no answer (\(error.code)); sending it once more")
        }
        try? await Task.sleep(for: .milliseconds(500))
        return try await postToTokenEndpoint(form, prove: prove)
    }

    /// Fetches an image link of the current step that lives on the upstream (not a `data:` URI) with the flow's
    /// credentials, so that the gateway can serve it from its own origin: the browser never loads from the upstream.
    /// - Parameters:
    ///   - link: An image link (``Link/isImage``) of a step of this flow.
    ///   - maximumBytes: The largest image accepted.
    /// - Returns: The image's media type (PNG, JPEG, GIF or WebP) and bytes.
    /// - Throws: ``HAAPIError/Code/offOriginHref`` for hrefs outside the upstream; ``HAAPIError/Code/malformedResponse``
    ///   for an answer that is not such an image, or larger than `maximumBytes`; ``HAAPIError/Code/upstreamStatus``.
    public func fetchImage(_ link: Link, maximumBytes: Int) async throws(HAAPIError) -> (contentType: String, bytes: Data) {
        guard !link.href.lowercased().hasPrefix("data:") else { throw HAAPIError(.offOriginHref, "data: images are shown, never fetched") }
        let url = try context.originGuard.resolve(link.href)
        let response = try await exchange(
            method: "GET",
            url: url,
            body: nil,
            contentType: nil,
            accept: Self.imageTypes.joined(separator: ", "),
            acceptLanguage: nil
        )
        let contentType = response.header("Content-Type")
        guard (200..<300).contains(response.status) else {
            throw HAAPIError(
                .upstreamStatus,
                "the upstream answered an image request with HTTP \(response.status)",
                status: response.status,
                contentType: contentType ?? "none"
            )
        }
        let mediaType = MediaType.of(contentType)
        guard Self.imageTypes.contains(mediaType) else {
            throw HAAPIError.malformed(
                "an image link's answer is not a PNG, JPEG, GIF or WebP image",
                status: response.status,
                contentType: contentType ?? "none"
            )
        }
        guard response.body.count <= maximumBytes else {
            throw HAAPIError.malformed("an image link's answer is larger than \(maximumBytes) bytes", status: response.status, contentType: mediaType)
        }
        return (mediaType, response.body)
    }

    /// The image types the gateway serves from an upstream link (never SVG, which is a document that can carry script).
    static let imageTypes = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// Exchanges the code of an `oauth-authorization-response` step.
    /// - Parameter step: The step.
    public func exchangeCode(from step: Representation) async throws(HAAPIError) -> TokenExchangeOutcome {
        guard let authorizationResponse = step.authorizationResponse else {
            throw HAAPIError(.invalidParameters, "the step is not an oauth-authorization-response")
        }
        return try await exchangeCode(from: authorizationResponse)
    }

    private func ensureActive() throws(HAAPIError) {
        guard !codeExchanged else { throw HAAPIError(.flowExpired, "the flow is complete; its code was exchanged") }
    }

    static func appendingQuery(_ items: [(String, String)], to url: URL) throws(HAAPIError) -> URL {
        guard !items.isEmpty else { return url }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw HAAPIError(.invalidParameters, "the target URL cannot be parsed")
        }
        let encoded = FormURLEncoding.encode(items)
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + encoded
        } else {
            components.percentEncodedQuery = encoded
        }
        guard let result = components.url else { throw HAAPIError(.invalidParameters, "the target URL cannot be built") }
        return result
    }
}
