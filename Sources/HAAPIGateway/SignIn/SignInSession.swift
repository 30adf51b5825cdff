import Foundation
import HAAPI
import Logging

/// What the gateway does with one person's sign-in: drives its HAAPI flow (DPoP key, HAAPI token stay inside it), checks
/// and submits forms, polls, turns problems into page texts, exchanges the code and hands the outcome over. What the
/// sign-in *is* lives in its ``SignInRecord`` (with the flow's state, what a shared store keeps, issue #20). Requests of
/// one session are serialised by the actor; a second submission while one is in flight is treated as stale.
actor SignInSession {
    private let flow: HAAPIFlow
    private let dispatcher: CallbackDispatcher
    private let logger: Logger
    /// What the sign-in is (``SignInRecord``); the properties below read and write it.
    private(set) var record: SignInRecord {
        didSet { revision &+= 1 }
    }
    /// Counts the changes to what a store keeps of this sign-in: every write to its record, and every call of its flow
    /// (which may change the flow's token, nonce, session id, cookies or step). Equal revisions mean an unchanged sign-in,
    /// so that a store need not encode it to tell.
    private(set) var revision = 0
    /// The record's id and CSRF token never change, so they are read without waiting for the actor.
    nonisolated let csrfToken: String
    nonisolated let flowID: String
    /// The reference every outcome of this sign-in carries.
    var signIn: SignInReference { record.signIn }

    private(set) var phase: SessionPhase {
        get { record.phase }
        set { record.phase = newValue }
    }
    /// Whether a sink did not accept the outcome at once (it is being retried in the background).
    private(set) var deliveryDelayed: Bool {
        get { record.deliveryDelayed }
        set { record.deliveryDelayed = newValue }
    }
    /// How many submissions the upstream answered with wrong credentials or invalid input (failed posts).
    private(set) var refusedSubmissions: Int {
        get { record.refusedSubmissions }
        set { record.refusedSubmissions = newValue }
    }
    private var step: Representation? {
        get { record.step }
        set { record.step = newValue }
    }
    private var version: Int {
        get { record.version }
        set { record.version = newValue }
    }
    private var notices: [PageText] {
        get { record.notices }
        set { record.notices = newValue }
    }
    private var fieldErrors: [String: PageText] {
        get { record.fieldErrors }
        set { record.fieldErrors = newValue }
    }
    private var values: [String: String] {
        get { record.values }
        set { record.values = newValue }
    }
    private var pollingSince: Date? {
        get { record.pollingSince }
        set { record.pollingSince = newValue }
    }
    private var problemLinks: [Link] {
        get { record.problemLinks }
        set { record.problemLinks = newValue }
    }
    /// Whether a call of this sign-in is under way (a second request meanwhile is treated as stale); not part of the record.
    private var busy = false
    /// Images of the current step fetched from the upstream, by link index, nil where the upstream gave none (so a browser
    /// cannot make the gateway ask again); cleared when the step changes. A cache, not part of the record.
    private var images: [Int: (contentType: String, bytes: Data)?] = [:]
    /// The largest upstream image the gateway serves.
    static let maximumImageBytes = 512 * 1024
    private let polling: PollingSettings
    private let outcomeSettings: OutcomeSettings
    /// Where what the upstream's client learned is kept past the process: read again before the code exchange while the
    /// client does not know whether the upstream issues token-bound codes (another replica may have learned it).
    private let facts: UpstreamFactKeeper?
    private let metrics: GatewayMetrics
    /// The device this sign-in is for, when it was started from the verification page: the tokens go to it.
    let device: DeviceSignIn?
    /// The signed start link this sign-in was started by, if any: its reference goes to the outcome and the completion URL.
    nonisolated let startLink: StartLink?

    /// - Parameters:
    ///   - initialStep: A step to show before any upstream call (tests of the gateway's own checks).
    ///   - pairing: In `login` mode, the code and host the person must confirm before the flow starts.
    ///   - outcome: The claims a successful outcome carries.
    init(
        flow: HAAPIFlow,
        dispatcher: CallbackDispatcher,
        polling: PollingSettings = .init(),
        outcome: OutcomeSettings = .init(),
        logger: Logger,
        initialStep: Representation? = nil,
        pairing: (code: String, hostName: String)? = nil,
        device: DeviceSignIn? = nil,
        startLink: StartLink? = nil,
        metrics: GatewayMetrics = GatewayMetrics(),
        facts: UpstreamFactKeeper? = nil
    ) {
        var record = SignInRecord()
        record.device = device.map { SignInDevice(reference: $0.reference, clientID: $0.client.id, clientName: $0.client.name) }
        record.startLink = startLink
        if let pairing { record.phase = .confirming(code: pairing.code, hostName: pairing.hostName) }
        if let initialStep {
            record.step = initialStep
            record.version = 1
        }
        self.init(
            record: record,
            flow: flow,
            dispatcher: dispatcher,
            polling: polling,
            outcome: outcome,
            logger: logger,
            devices: device?.store,
            metrics: metrics,
            facts: facts
        )
    }

    /// A sign-in continued from its record and its flow (restored from a `HAAPIFlowState`), as a shared store loads it.
    /// - Parameters:
    ///   - devices: Where a device's tokens go, when the record names a device.
    ///   - facts: Where what the upstream's client learned is kept (``UpstreamConnection/facts``).
    init(
        record: SignInRecord,
        flow: HAAPIFlow,
        dispatcher: CallbackDispatcher,
        polling: PollingSettings,
        outcome: OutcomeSettings,
        logger: Logger,
        devices: (any DeviceAuthorizationStore)?,
        metrics: GatewayMetrics,
        facts: UpstreamFactKeeper? = nil
    ) {
        self.record = record
        self.csrfToken = record.csrfToken
        self.flowID = record.flowID
        self.startLink = record.startLink
        self.flow = flow
        if let device = record.device, let devices {
            self.device = DeviceSignIn(
                reference: device.reference,
                client: DeviceClient(id: device.clientID, name: device.clientName),
                store: devices
            )
        } else {
            self.device = nil
        }
        self.dispatcher = dispatcher
        self.polling = polling
        self.outcomeSettings = outcome
        self.metrics = metrics
        self.facts = facts
        var logger = logger
        logger[metadataKey: "flow"] = "\(flowID)"
        self.logger = logger
    }

    /// What a store keeps of this sign-in between requests: its record and its flow's state (a secret: it holds the DPoP
    /// key and the HAAPI token; a shared store encrypts it).
    func exportState() async -> (record: SignInRecord, flow: HAAPIFlowState, revision: Int) {
        let revision = revision
        return (record, await flow.exportState(), revision)
    }

    /// Whether two steps are the same pending polling page: the same messages, links and actions as a person sees them.
    static func isSamePendingPage(_ shown: Representation, _ next: Representation) -> Bool {
        guard shown.stepKind == .polling, next.stepKind == .polling, shown.polling?.status == .pending, next.polling?.status == .pending else {
            return false
        }
        return shown.messages.map(\.text) == next.messages.map(\.text)
            && shown.links.map { [$0.href, $0.rel, $0.title ?? ""] } == next.links.map { [$0.href, $0.rel, $0.title ?? ""] }
            && shown.actions.map { [$0.kind.rawValue, $0.title ?? ""] } == next.actions.map { [$0.kind.rawValue, $0.title ?? ""] }
    }

    /// Whether the page of step version `shownVersion` is no longer the current one (the step moved on or the sign-in ended).
    func hasMovedOn(from shownVersion: Int) -> Bool {
        phase != .step || version != shownVersion
    }

    /// Polls upstream for a pending polling step of version `submittedVersion` (the page's refresh).
    ///
    /// Past `polling.maximumWaitSeconds`, or the step's own `maxWaitTime` when that is shorter, the sign-in ends with a
    /// clear message instead.
    func poll(version submittedVersion: Int, acceptLanguage: String?) async throws(GatewayError) {
        guard phase == .step, let step, step.stepKind == .polling, submittedVersion == version, !busy else { return }
        let limit = min(polling.maximumWaitSeconds, step.polling?.maximumWaitSeconds ?? .max)
        if let pollingSince, Date().timeIntervalSince(pollingSince) > Double(limit) {
            await fail(
                .gateway(.pollingTimeout),
                outcome: .init(error: "polling_timeout", errorDescription: "the polling step did not finish in time")
            )
            return
        }
        guard let action = step.actions.first(where: { $0.kind == .poll && $0.form != nil }) else { return }
        try await run { flow throws(HAAPIError) in
            try await flow.followAutomaticSteps(
                from: try await flow.submitForm(action, parameters: [:], acceptLanguage: acceptLanguage),
                acceptLanguage: acceptLanguage
            )
        }
    }

    /// Starts the flow and moves to the first step that needs the person.
    func begin(acceptLanguage: String?) async throws(GatewayError) {
        logger.info("sign-in started")
        metrics.flowStarted()
        try await run(endpoint: "authorize") { flow throws(HAAPIError) in
            try await flow.followAutomaticSteps(from: try await flow.start(acceptLanguage: acceptLanguage), acceptLanguage: acceptLanguage)
        }
    }

    /// `login` mode: the person confirmed the code; starts the flow. When the upstream fails, the confirmation stays so
    /// that "Try again" works.
    func confirmPairing(acceptLanguage: String?) async throws(GatewayError) {
        guard case .confirming = phase else { return }
        let confirmation = phase
        phase = .step
        do {
            try await begin(acceptLanguage: acceptLanguage)
        } catch {
            phase = confirmation
            throw error
        }
    }

    /// Adds a message to the next page (once).
    func add(notice: PageText) {
        notices.append(notice)
    }

    /// The page state; consumes the one-shot notices.
    func snapshot() -> SessionSnapshot {
        defer {
            // Only what there is, so that showing a page without messages changes nothing.
            if !notices.isEmpty { notices = [] }
            if !fieldErrors.isEmpty { fieldErrors = [:] }
            if !values.isEmpty { values = [:] }
        }
        return SessionSnapshot(
            phase: phase,
            step: step,
            version: version,
            csrfToken: csrfToken,
            notices: notices,
            fieldErrors: fieldErrors,
            values: values,
            deliveryDelayed: deliveryDelayed,
            problemLinks: problemLinks,
            deviceName: device?.client.name
        )
    }

    /// Submits the action at `address` of step `submittedVersion` with the browser's form values.
    ///
    /// Hidden fields come from the step, never from the browser; undeclared names are dropped; missing required
    /// fields re-render the step without calling upstream. A context field of a JSON form (a WebAuthn credential) must
    /// be a bounded JSON object and is sent upstream as that object.
    func submit(version submittedVersion: Int, address: ActionAddress, form: [String: String], acceptLanguage: String?) async throws(GatewayError) {
        guard let step = currentStep(for: submittedVersion) else { return }
        guard let action = address.resolve(in: step), let model = action.form else {
            throw GatewayError(.badRequest, .unknownButton)
        }
        var parameters: [String: JSONValue] = [:]
        var missing: [String: PageText] = [:]
        var typed: [String: String] = [:]
        for field in model.fields {
            switch field.type {
            case .hidden:
                continue
            case .checkbox:
                typed[field.name] = form[field.name] == nil ? "" : "on"
                if form[field.name] != nil {
                    parameters[field.name] = .string(field.value ?? "on")
                } else if field.isRequired, field.readonly != true {
                    missing[field.name] = .gateway(.requiredField, arguments: ["field": field.label ?? field.name])
                }
            default:
                let value = form[field.name] ?? ""
                if field.type == .context, model.isJSON {
                    guard let object = PostedJSONObject.parse(value) else {
                        notices = [.gateway(.passkeyInvalid)]
                        return
                    }
                    parameters[field.name] = object
                    continue
                }
                if field.type != .password { typed[field.name] = value }
                if value.isEmpty {
                    if field.isRequired { missing[field.name] = .gateway(.requiredField, arguments: ["field": field.label ?? field.name]) }
                } else {
                    parameters[field.name] = .string(value)
                }
            }
        }
        guard missing.isEmpty else {
            fieldErrors = missing
            values = typed
            notices = [.gateway(.fillRequired)]
            return
        }
        try await run(preserving: typed) { flow throws(HAAPIError) in
            try await flow.followAutomaticSteps(
                from: try await flow.submitForm(action, values: parameters, acceptLanguage: acceptLanguage),
                acceptLanguage: acceptLanguage
            )
        }
    }

    /// Follows the non-image link at `index` of step `submittedVersion`.
    func followLink(version submittedVersion: Int, index: Int, acceptLanguage: String?) async throws(GatewayError) {
        guard let step = currentStep(for: submittedVersion) else { return }
        guard step.links.indices.contains(index), !step.links[index].isImage else {
            throw GatewayError(.badRequest, .unknownLink)
        }
        let link = step.links[index]
        try await run { flow throws(HAAPIError) in
            try await flow.followAutomaticSteps(from: try await flow.followLink(link, acceptLanguage: acceptLanguage), acceptLanguage: acceptLanguage)
        }
    }

    /// Follows the link at `index` of the problem that ended the flow (a `restart` link): the flow goes on from the
    /// step it answers. When the upstream fails the ended page stays.
    func followProblemLink(index: Int, acceptLanguage: String?) async throws(GatewayError) {
        guard case .failed = phase, !busy else { return }
        guard problemLinks.indices.contains(index), !problemLinks[index].isImage else { throw GatewayError(.badRequest, .unknownLink) }
        let ended = phase
        let link = problemLinks[index]
        phase = .step
        problemLinks = []
        logger.info("problem link followed")
        do {
            try await run { flow throws(HAAPIError) in
                try await flow.followAutomaticSteps(
                    from: try await flow.followLink(link, acceptLanguage: acceptLanguage),
                    acceptLanguage: acceptLanguage
                )
            }
        } catch {
            phase = ended
            problemLinks = [link]
            throw error
        }
    }

    /// The image of the non-`data:` image link at `index` of step `shownVersion`, fetched from the upstream with the
    /// flow's credentials once per step and kept until the step changes; nil when there is no such link or the upstream
    /// gives no acceptable image (PNG, JPEG, GIF or WebP of at most ``maximumImageBytes``).
    func image(version shownVersion: Int, index: Int) async -> (contentType: String, bytes: Data)? {
        guard phase == .step, let step, shownVersion == version, step.links.indices.contains(index) else { return nil }
        let link = step.links[index]
        guard link.isImage, !link.href.lowercased().hasPrefix("data:") else { return nil }
        if let known = images[index] { return known }
        revision &+= 1
        let image: (contentType: String, bytes: Data)?
        do {
            image = try await flow.fetchImage(link, maximumBytes: Self.maximumImageBytes)
        } catch {
            logger.warning("upstream image not served", metadata: ["error": "\(error.code)"])
            image = nil
        }
        if shownVersion == version { images[index] = image }
        return image
    }

    /// Cancels the sign-in (unless already finished) and hands `cancelled` to the sinks.
    func cancel() async {
        switch phase {
        case .step, .confirming: break
        case .signedIn, .failed, .cancelled: return
        }
        guard !busy else { return }
        phase = .cancelled
        step = nil
        logger.info("sign-in cancelled")
        metrics.flowEnded(outcome: "cancelled")
        await denyDevice()
        deliveryDelayed = !(await dispatcher.deliver(.cancelled(signIn: signIn)))
    }

    /// Checks the CSRF token in constant time.
    nonisolated func acceptsCSRF(_ token: String?) -> Bool {
        guard let token else { return false }
        return SecureToken.constantTimeEquals(token, csrfToken)
    }

    // MARK: - Private

    /// The current step when `submittedVersion` is current and nothing is in flight; otherwise leaves a notice.
    private func currentStep(for submittedVersion: Int) -> Representation? {
        guard phase == .step, let step else { return nil }
        guard submittedVersion == version, !busy else {
            notices = [.gateway(.stalePage)]
            return nil
        }
        return step
    }

    /// A page's upstream budget: twice `upstream.timeoutSeconds`. The steps behind one request (its call and the chain of
    /// automatic steps) take at most one timeout; the completion that may follow (the code exchange, the ID token's
    /// keys, userinfo, handing the tokens to a device, and waiting for the sinks) has what is left, at least the other
    /// one: a page never waits on the upstream longer than this, and the exchange never fails for the steps' slowness.
    private var pageBudget: Duration { flow.requestTimeout * 2 }

    private func run(
        endpoint: String = "haapi",
        preserving typed: [String: String] = [:],
        _ call: (HAAPIFlow) async throws(HAAPIError) -> HAAPIResponse
    ) async throws(GatewayError) {
        busy = true
        revision &+= 1
        defer { busy = false }
        do {
            try await HAAPIDeadline.within(pageBudget) { () async throws in
                try await self.advance(endpoint: endpoint, preserving: typed, call)
            }
        } catch let error as GatewayError {
            throw error
        } catch {
            throw GatewayError(.upstreamUnavailable, .upstreamUnavailable)
        }
    }

    /// One request's call, the automatic steps after it and, when they end the flow, its completion, within the page's
    /// budget (``pageBudget``).
    private func advance(
        endpoint: String,
        preserving typed: [String: String],
        _ call: (HAAPIFlow) async throws(HAAPIError) -> HAAPIResponse
    ) async throws(GatewayError) {
        // The person's request is bounded as a whole by the upstream timeout, the chain of automatic steps behind it
        // included (redirections, continue, a finished polling step), not each call separately.
        let response: HAAPIResponse
        let started = ContinuousClock.now
        do {
            // Every automatic advance (redirections, continue, a finished polling step) is the flow's own.
            response = try await HAAPIDeadline.within(flow.requestTimeout) { () async throws(HAAPIError) -> HAAPIResponse in
                try await call(flow)
            }
            metrics.upstreamCall(endpoint: endpoint, took: ContinuousClock.now - started)
        } catch {
            let code = (error as? HAAPIError)?.code ?? .transport
            metrics.upstreamError(kind: "\(code)")
            logger.warning("upstream call failed", metadata: ["error": "\(code)"])
            throw GatewayError(.upstreamUnavailable, .upstreamUnavailable)
        }
        switch response {
        case .representation(let next):
            if next.stepKind == .polling, next.polling?.status == .pending {
                if pollingSince == nil { pollingSince = Date() }
            } else {
                pollingSince = nil
            }
            if next.stepKind == .oauthAuthorizationResponse {
                try await complete(next)
            } else {
                // A pending polling step that shows what the page shows already keeps its version: the page stays (its script
                // sees no change) and a form on it stays current. Anything else is a new page.
                if let shown = step, Self.isSamePendingPage(shown, next) {
                    step = next
                    return
                }
                step = next
                version += 1
                images = [:]
                logger.debug("step", metadata: ["type": "\(next.type.rawValue)", "version": "\(version)"])
                metrics.stepRendered(type: next.type.rawValue)
            }
        case .problem(let problem):
            await handle(problem, typed: typed)
        }
    }

    /// Problems as Curity's SDKs treat them (notes 3.9, [UIKIT] `formatErrorStepData`): input problems keep the step
    /// with their messages, field errors and links; every other problem ends the flow with its messages, its links kept
    /// usable.
    private func handle(_ problem: Problem, typed: [String: String]) async {
        let texts = problem.messages.map { PageText.upstream($0.text) }
        if problem.kind.isInputProblem {
            refusedSubmissions += 1
            let fallback: MessageKey = problem.kind == .invalidInput ? .invalidValues : .incorrectCredentials
            var notices = texts.isEmpty ? [problem.title.map(PageText.upstream) ?? .gateway(fallback)] : texts
            let shown = step.map(Self.fieldNames(of:)) ?? []
            for field in problem.invalidFields {
                if shown.contains(field.name) {
                    fieldErrors[field.name] = (field.detail ?? field.reason).map(PageText.upstream) ?? .gateway(.invalidValue)
                } else {
                    // A field the page does not show (hidden, or not on this step): the error is still said, never dropped.
                    notices.append(
                        .gateway(.fieldNotOnPage, arguments: ["field": field.name, "reason": field.detail ?? field.reason ?? "invalidValue"])
                    )
                }
            }
            self.notices = notices
            if let step, !problem.links.isEmpty { self.step = step.adding(links: problem.links) }
            values = typed
            return
        }
        // Everything the problem says is on the page: its title, messages, `detail` and `error_description`.
        var said: [String] = []
        for text in [problem.title].compactMap({ $0 }) + problem.messages.map(\.text) + [problem.detail, problem.errorDescription].compactMap({ $0 })
        where !text.isEmpty && !said.contains(text) {
            said.append(text)
        }
        let message = said.joined(separator: " ")
        problemLinks = problem.links.filter { !$0.isImage }
        switch problem.kind {
        case .errorAuthorizationResponse:
            // The flow ended with an OAuth error (`error`, `error_description`, `iss`): that error is the outcome.
            await fail(
                .upstream(message.isEmpty ? problem.error ?? "access_denied" : message),
                outcome: .init(error: problem.error ?? "access_denied", errorDescription: problem.errorDescription ?? problem.title)
            )
        case .sessionAndTokenMismatch:
            // The flow's session no longer matches the HAAPI token and key (it timed out upstream): start again [RN].
            await fail(
                .gateway(.signInExpired),
                outcome: .init(error: "session_expired", errorDescription: problem.title ?? "the upstream session expired")
            )
        default:
            // Any other problem is named by its type URI (or its code), with its texts.
            let failure = CompletionOutcome.Failure(
                error: problem.error ?? problem.code ?? problem.type,
                errorDescription: problem.errorDescription ?? problem.detail ?? problem.title
            )
            await fail(message.isEmpty ? .gateway(.signInNotCompleted) : .upstream(message), outcome: failure)
        }
    }

    /// The names of every field a person sees on the page of `step`, hidden ones excluded: forms, selector options, and
    /// the nested actions of client operations and unknown templates (a form's own continue actions show only after a
    /// continue-same-step, which makes them the step's actions).
    static func fieldNames(of step: Representation) -> Set<String> {
        var names: Set<String> = []
        func collect(_ action: Action) {
            for field in action.form?.fields ?? [] where field.type != .hidden { names.insert(field.name) }
            switch action.model {
            case .selector(let options): options.forEach(collect)
            case .clientOperation, .unknown: (action.continueActions + action.errorActions).forEach(collect)
            case .form: break
            }
        }
        step.actions.forEach(collect)
        return names
    }

    private func complete(_ response: Representation) async throws(GatewayError) {
        let outcome: TokenExchangeOutcome
        // What another replica (or an earlier process) learned about the upstream's codes, while this one does not know.
        await facts?.refreshIfUnknown()
        let started = ContinuousClock.now
        do {
            // The exchange (and its one retry) within one upstream timeout as a whole.
            outcome = try await HAAPIDeadline.within(flow.requestTimeout) { () async throws(HAAPIError) -> TokenExchangeOutcome in
                try await flow.exchangeCode(from: response)
            }
            metrics.upstreamCall(endpoint: "token", took: ContinuousClock.now - started)
        } catch {
            let code = (error as? HAAPIError)?.code ?? .transport
            metrics.upstreamError(kind: "\(code)")
            logger.warning("code exchange failed", metadata: ["error": "\(code)"])
            await fail(
                .gateway(.signInNotCompleted),
                outcome: .init(error: "code_exchange_failed", errorDescription: "the authorization code could not be exchanged (\(code))")
            )
            return
        }
        guard let tokens = outcome.tokens else {
            let error = outcome.oauthError
            var message = PageText.gateway(.tokensRefused)
            if error?.error == "invalid_grant", await flow.codeExchangeProvedAfterRefusal {
                // Token-bound codes ([TOKENBIND], notes 5): the exchange without a proof was refused (`invalid_dpop_proof`),
                // and the retry with one was answered `invalid_grant`: the upstream used the code up when it refused it
                // (Curity does not document whether it does). The client proves every later exchange at once.
                message = .gateway(.tokenBoundCodeUsedUp)
                logger.warning(
                    "the upstream issues token-bound authorization codes and used this sign-in's code up when it refused its exchange without a DPoP proof: this sign-in failed (invalid_grant); the next sign-ins prove every exchange at once, and upstream.bindTokensToDPoP: true avoids even this one",
                    metadata: ["error": "invalid_grant"]
                )
            } else {
                logger.warning("token endpoint refused the code", metadata: ["error": "\(error?.error ?? "unknown")"])
            }
            await fail(
                message,
                outcome: .init(error: error?.error ?? "invalid_grant", errorDescription: error?.errorDescription, errorUri: error?.errorURI)
            )
            return
        }
        // OpenID Connect Core 1.0 §3.1.3.7: the ID token is validated before any of its claims is trusted; tokens whose ID
        // token fails are not handed over (an application could not tell whom they belong to).
        let idToken: ValidatedIDToken?
        do {
            idToken = try await HAAPIDeadline.within(flow.requestTimeout) { () async throws(IDTokenValidationError) -> ValidatedIDToken? in
                try await flow.validateIDToken(of: tokens)
            }
        } catch {
            let refusal = error as? IDTokenValidationError ?? IDTokenValidationError(.keySetUnavailable, "the ID token could not be validated")
            metrics.upstreamError(kind: "invalid_id_token")
            logger.warning("ID token refused; no tokens are handed over", metadata: ["reason": "\(refusal.reason.rawValue)"])
            await fail(.gateway(.idTokenRefused), outcome: .init(error: "invalid_id_token", errorDescription: refusal.message))
            return
        }
        let identity = await identity(of: tokens, idToken: idToken)
        if let device {
            // The device collects the tokens with its next poll; a code that expired meanwhile gets none.
            switch await handOver(tokens, to: device) {
            case true?: break
            case false?:
                await fail(
                    .gateway(.deviceCodeExpired),
                    outcome: .init(error: "expired_token", errorDescription: "the device code expired before the sign-in finished")
                )
                return
            case nil:
                await fail(
                    .gateway(.deviceHandOverFailed),
                    outcome: .init(
                        error: "temporarily_unavailable",
                        errorDescription: "the device authorization could not be updated in the gateway's store"
                    )
                )
                return
            }
        }
        phase = .signedIn
        step = nil
        logger.info("sign-in completed", metadata: ["tokenType": "\(tokens.tokenType)"])
        deliveryDelayed =
            !(await dispatcher.deliver(
                device == nil ? .success(tokens, signIn: signIn, identity: identity) : .handedToDevice(signIn: signIn, identity: identity)
            ))
        // Counted once the outcome is recorded for the sinks: a process killed before that completed nothing anyone got.
        metrics.flowEnded(outcome: "success")
    }

    /// The subject and the configured claims (``OutcomeSettings``): from the validated ID token, and from userinfo, fetched
    /// once and only when userinfo claims are configured (Core §5.3). A claim asked for but absent is left out; when claims
    /// could not be had, `claimsProblem` says why (the sign-in still succeeds).
    private func identity(of tokens: OAuthTokens, idToken: ValidatedIDToken?) async -> CompletionOutcome.Identity {
        var identity = CompletionOutcome.Identity(subject: idToken?.subject)
        guard outcomeSettings.mapsClaims else { return identity }
        var claims: [String: JSONValue] = [:]
        var problems: [String] = []
        if !outcomeSettings.idTokenClaims.isEmpty {
            if let idToken {
                for name in outcomeSettings.idTokenClaims { claims[name] = idToken.claims[name] }
            } else {
                problems.append("id_token: the token response has no ID token")
            }
        }
        if !outcomeSettings.userinfoClaims.isEmpty {
            let started = ContinuousClock.now
            do {
                let answer = try await HAAPIDeadline.within(flow.requestTimeout) { () async throws(HAAPIError) -> [String: JSONValue] in
                    try await flow.userinfo(with: tokens, subject: idToken?.subject)
                }
                metrics.upstreamCall(endpoint: "userinfo", took: ContinuousClock.now - started)
                for name in outcomeSettings.userinfoClaims { claims[name] = answer[name] }
            } catch {
                let failure = error as? HAAPIError ?? HAAPIError(.transport, "the userinfo endpoint could not be reached")
                metrics.upstreamError(kind: "\(failure.code)")
                logger.warning("userinfo not fetched; the outcome says so", metadata: ["error": "\(failure.code)"])
                problems.append("userinfo: \(failure.message)")
            }
        }
        identity.claims = claims
        identity.claimsProblem = problems.isEmpty ? nil : problems.joined(separator: "; ")
        return identity
    }

    /// Leaves the tokens for the device's next poll: true when they wait there, false when the code is no longer
    /// waiting for them (expired, or decided otherwise), nil when the store could not be reached (a shared store's
    /// database, tried up to three times within about two seconds, while the page's budget lasts).
    private func handOver(_ tokens: OAuthTokens, to device: DeviceSignIn) async -> Bool? {
        for pause in [Duration.milliseconds(250), .seconds(1), .zero] {
            do {
                return try await device.store.approve(reference: device.reference, tokens: tokens)
            } catch {
                // Tried again while the page's budget lasts.
                let withinBudget = HAAPIDeadline.current.map { ContinuousClock.now + pause < $0 } ?? true
                guard pause > .zero, withinBudget else { break }
                try? await Task.sleep(for: pause)
            }
        }
        logger.error("the device's tokens could not be handed over: the store did not answer; the device is told access_denied if it can be")
        return nil
    }

    /// Tells the device that the sign-in ended without tokens (`access_denied` at its next poll); an unreachable store
    /// leaves it waiting until the code expires (`expired_token`).
    private func denyDevice() async {
        guard let device else { return }
        do {
            try await device.store.deny(reference: device.reference)
        } catch {
            logger.warning("the device could not be told that the sign-in ended; it hears expired_token when its code expires")
        }
    }

    /// Ends the sign-in with a message for the person and an `error` outcome for the sinks.
    private func fail(_ message: PageText, outcome failure: CompletionOutcome.Failure) async {
        phase = .failed(message)
        step = nil
        logger.info("sign-in failed", metadata: ["error": "\(failure.error)"])
        metrics.flowEnded(outcome: "error")
        await denyDevice()
        deliveryDelayed = !(await dispatcher.deliver(.failure(failure, signIn: signIn)))
    }
}
