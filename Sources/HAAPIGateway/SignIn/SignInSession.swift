import Foundation
import HAAPI
import Logging

/// What the gateway does with one person's sign-in: drives its HAAPI flow (DPoP key, HAAPI token stay inside it), polls,
/// completes it (``SignInCompletion``) and hands the outcome over. What the sign-in *is* lives in its ``SignInRecord``
/// (with the flow's state, what a shared store keeps, issue #20). What a command does is decided by values
/// (``PostedStepForm``, ``PollDecision``, ``ProblemPage``, the record itself), which the actor applies to the record, and
/// each command answers what it did (``SignInActionResult``). Requests of one session are serialised by the actor; a
/// second submission while one is in flight is treated as stale.
package actor SignInSession {
    private let flow: HAAPIFlow
    private let dispatcher: CallbackDispatcher
    private let logger: FlowLogger
    /// What the sign-in is (``SignInRecord``): the commands ask it and apply their decisions to it.
    private var record: SignInRecord {
        didSet { revision &+= 1 }
    }
    /// Counts the changes to what a store keeps of this sign-in: every write to its record, and every call of its flow
    /// (which may change the flow's token, nonce, session id, cookies or step). Equal revisions mean an unchanged sign-in,
    /// so that a store need not encode it to tell.
    package private(set) var revision = 0
    /// The record's id and CSRF token never change, so they are read without waiting for the actor.
    nonisolated let csrfToken: String
    nonisolated let flowID: String
    /// Whether a call of this sign-in is under way (a second request meanwhile is treated as stale); not part of the record.
    private var busy = false
    /// Images of the current step fetched from the upstream, by link index, nil where the upstream gave none (so a browser
    /// cannot make the gateway ask again); cleared when the step changes. A cache, not part of the record.
    private var images: [Int: (contentType: String, bytes: Data)?] = [:]
    private let polling: PollingSettings
    /// What ends the sign-in when the flow reaches its authorization response: the code exchange and the outcome.
    private let completion: SignInCompletion
    private let metrics: GatewayMetrics
    /// The device this sign-in is for, when it was started from the verification page: the tokens go to it.
    let device: DeviceSignIn?
    /// The signed start link this sign-in was started by, if any: its reference goes to the outcome and the completion URL.
    nonisolated let startLink: StartLink?

    /// A sign-in over `flow` with `record`: a new sign-in's (``SignInRecord/init(pairing:device:startLink:)``),
    /// or one a shared store kept, its flow restored from a `HAAPIFlowState` (``SignInRestorer``).
    /// - Parameters:
    ///   - polling: How its polling steps are paced and how long they may wait.
    ///   - outcome: The claims a successful outcome carries.
    ///   - device: The device the record names, its tokens going to its store.
    ///   - facts: Where what the upstream's client learned is kept past the process: read again before the code exchange
    ///     while the client does not know whether the upstream issues token-bound codes (``UpstreamConnection/facts``).
    init(
        record: SignInRecord = SignInRecord(),
        flow: HAAPIFlow,
        dispatcher: CallbackDispatcher,
        polling: PollingSettings = .init(),
        outcome: OutcomeSettings = .init(),
        logger: Logger,
        device: DeviceSignIn? = nil,
        metrics: GatewayMetrics = GatewayMetrics(),
        facts: UpstreamFactKeeper? = nil
    ) {
        self.record = record
        self.csrfToken = record.csrfToken
        self.flowID = record.flowID
        self.startLink = record.startLink
        self.flow = flow
        self.device = device
        self.dispatcher = dispatcher
        self.polling = polling
        self.metrics = metrics
        self.logger = FlowLogger(logger, key: "flow", value: flowID)
        self.completion = SignInCompletion(
            flow: flow,
            dispatcher: dispatcher,
            outcomeSettings: outcome,
            device: device,
            signIn: record.signIn,
            facts: facts,
            metrics: metrics,
            logger: self.logger
        )
    }

    /// What a store keeps of this sign-in between requests: its record and its flow's state (a secret: it holds the DPoP
    /// key and the HAAPI token; a shared store encrypts it), the step once, and the revision they show.
    package func document() async -> (document: SignInDocument, revision: Int) {
        let (record, revision) = (record, revision)
        let (flow, leftOut) = await flow.exportState(leavingOut: record.step)
        return (SignInDocument(record: record, flow: flow, flowStepIsRecordStep: leftOut), revision)
    }

    /// Where the sign-in stands, for a request that acts on nothing (a HEAD's poll, the kiosk's refresh).
    var standing: SignInActionResult { SignInActionResult(record) }

    /// Polls upstream for a pending polling step of version `submittedVersion` (the page's refresh), as
    /// ``PollDecision`` decides: at most once per the step's interval, and past the longest wait the sign-in ends with a
    /// clear message instead.
    /// - Returns: What it did (``SignInActionResult``).
    @discardableResult
    func poll(version submittedVersion: Int, acceptLanguage: String?) async throws(GatewayError) -> SignInActionResult {
        guard !busy else { return standing }
        let now = Date()
        switch PollDecision(record: record, version: submittedVersion, polling: polling, now: now) {
        case .nothing, .tooSoon:
            return standing
        case .timedOut:
            return await fail(
                .gateway(.pollingTimeout),
                outcome: .init(error: "polling_timeout", errorDescription: "the polling step did not finish in time")
            )
        case .poll(let action):
            record.lastPolledAt = now
            return try await run(acceptLanguage: acceptLanguage) { flow throws(HAAPIError) in
                try await flow.submitForm(action, parameters: [:], acceptLanguage: acceptLanguage)
            }
        }
    }

    /// Starts the flow and moves to the first step that needs the person.
    /// - Returns: What it did: the first step, or the sign-in ended by the upstream's first answers.
    @discardableResult
    func begin(acceptLanguage: String?) async throws(GatewayError) -> SignInActionResult {
        logger.info("sign-in started")
        metrics.flowStarted()
        return try await run(endpoint: .authorize, acceptLanguage: acceptLanguage) { flow throws(HAAPIError) in
            try await flow.start(acceptLanguage: acceptLanguage)
        }
    }

    /// Starts the flow for a browser that is shown its first page in this response (a browser without a sign-in).
    /// - Parameter notice: A message for the first page.
    /// - Returns: The first page (``SessionSnapshot``), its one-shot texts consumed.
    func beginPage(acceptLanguage: String?, notice: PageText?) async throws(GatewayError) -> SessionSnapshot {
        try await begin(acceptLanguage: acceptLanguage)
        if let notice { add(notice: notice) }
        return snapshot()
    }

    /// `login` mode: the person confirmed the code; starts the flow. When the upstream fails, the confirmation stays so
    /// that "Try again" works.
    /// - Returns: What it did (nothing, but where it stands, when no confirmation is awaited).
    @discardableResult
    func confirmPairing(acceptLanguage: String?) async throws(GatewayError) -> SignInActionResult {
        guard case .confirming = record.phase else { return standing }
        let confirmation = record.phase
        record.phase = .step
        do {
            return try await begin(acceptLanguage: acceptLanguage)
        } catch {
            record.phase = confirmation
            throw error
        }
    }

    /// Adds a message to the next page (once).
    func add(notice: PageText) {
        record.notices.append(notice)
    }

    /// The page state; consumes the one-shot notices.
    func snapshot() -> SessionSnapshot {
        let page = record.page(deviceName: device?.client.name)
        // Only what there is, so that showing a page without messages changes nothing.
        if record.hasOneShotTexts { record.consumeOneShotTexts() }
        return page
    }

    /// Submits the action at `address` of step `submittedVersion` with the browser's form values, unless the form
    /// refuses the post before any upstream call (``PostedStepForm/refusal``). A context field of a JSON form (a WebAuthn
    /// credential) is sent upstream as the JSON object it is.
    /// - Returns: What it did (``SignInActionResult``), with the refusal when the post went no further.
    @discardableResult
    func submit(
        version submittedVersion: Int,
        address: ActionAddress,
        form: [String: String],
        acceptLanguage: String?
    ) async throws(GatewayError) -> SignInActionResult {
        guard let step = record.shownStep else { return standing }
        guard !busy, !record.hasMovedOn(from: submittedVersion) else { return refuse(.stalePage) }
        guard let action = address.resolve(in: step), let model = action.form else {
            throw GatewayError(.badRequest, .unknownButton)
        }
        let posted = PostedStepForm(model: model, posted: form)
        if let refusal = posted.refusal { return refuse(refusal) }
        return try await run(preserving: posted.typed, acceptLanguage: acceptLanguage) { flow throws(HAAPIError) in
            try await flow.submitForm(action, values: posted.parameters, acceptLanguage: acceptLanguage)
        }
    }

    /// Follows the non-image link at `index` of step `submittedVersion`.
    /// - Returns: What it did (``SignInActionResult``).
    @discardableResult
    func followLink(version submittedVersion: Int, index: Int, acceptLanguage: String?) async throws(GatewayError) -> SignInActionResult {
        guard let step = record.shownStep else { return standing }
        guard !busy, !record.hasMovedOn(from: submittedVersion) else { return refuse(.stalePage) }
        guard step.links.indices.contains(index), !step.links[index].isImage else {
            throw GatewayError(.badRequest, .unknownLink)
        }
        let link = step.links[index]
        return try await run(acceptLanguage: acceptLanguage) { flow throws(HAAPIError) in
            try await flow.followLink(link, acceptLanguage: acceptLanguage)
        }
    }

    /// Follows the link at `index` of the problem that ended the flow (a `restart` link): the flow goes on from the
    /// step it answers. When the upstream fails the ended page stays.
    /// - Returns: What it did (``SignInActionResult``).
    @discardableResult
    func followProblemLink(index: Int, acceptLanguage: String?) async throws(GatewayError) -> SignInActionResult {
        guard case .failed = record.phase, !busy else { return standing }
        let links = record.problemLinks
        guard links.indices.contains(index), !links[index].isImage else { throw GatewayError(.badRequest, .unknownLink) }
        let ended = record.phase
        record.phase = .step
        record.problemLinks = []
        logger.info("problem link followed")
        do {
            return try await run(acceptLanguage: acceptLanguage) { flow throws(HAAPIError) in
                try await flow.followLink(links[index], acceptLanguage: acceptLanguage)
            }
        } catch {
            record.phase = ended
            record.problemLinks = [links[index]]
            throw error
        }
    }

    /// The image of the non-`data:` image link at `index` of step `shownVersion`, fetched from the upstream with the
    /// flow's credentials once per step and kept until the step changes; nil when there is no such link or the upstream
    /// gives no acceptable image (``FlowDriver/image(_:)``).
    func image(version shownVersion: Int, index: Int) async -> (contentType: String, bytes: Data)? {
        guard let step = record.shownStep, !record.hasMovedOn(from: shownVersion), step.links.indices.contains(index) else { return nil }
        let link = step.links[index]
        guard link.isImage, !link.href.lowercased().hasPrefix("data:") else { return nil }
        if let known = images[index] { return known }
        revision &+= 1
        let image = await driver.image(link)
        if shownVersion == record.version { images[index] = image }
        return image
    }

    /// Cancels the sign-in (unless it has ended, or a call of it is under way) and hands `cancelled` to the sinks.
    /// - Returns: What it did: cancelled, or where it stands when it could not be.
    @discardableResult
    func cancel() async -> SignInActionResult {
        guard !record.phase.hasEnded, !busy else { return standing }
        record.end(as: .cancelled)
        await device?.deny(logger: logger)
        if await dispatched(.cancelled(signIn: record.signIn)) {
            logger.info("sign-in cancelled")
            metrics.flowEnded(.cancelled)
        }
        return standing
    }

    /// Checks the CSRF token in constant time.
    nonisolated func acceptsCSRF(_ token: String?) -> Bool {
        guard let token else { return false }
        return SecureToken.constantTimeEquals(token, csrfToken)
    }

    // MARK: - Private

    /// Calls the upstream for this sign-in's requests (``FlowDriver``).
    private var driver: FlowDriver { FlowDriver(flow: flow, metrics: metrics, logger: logger) }

    /// Refuses a post before any upstream call: what `refusal` says goes on the next page.
    private func refuse(_ refusal: SignInRefusal) -> SignInActionResult {
        record.refuse(refusal)
        return SignInActionResult(record, refusal: refusal)
    }

    /// One request's call of the flow and the automatic steps behind it, and what their answer does to the sign-in
    /// (``apply(_:preserving:)``), within the page's budget (``FlowDriver/pageBudget``), the sign-in busy meanwhile.
    /// - Parameter typed: What the person typed, kept on the page when the upstream refuses it.
    private func run(
        endpoint: UpstreamEndpoint = .haapi,
        preserving typed: [String: String] = [:],
        acceptLanguage: String?,
        _ call: (HAAPIFlow) async throws(HAAPIError) -> HAAPIResponse
    ) async throws(GatewayError) -> SignInActionResult {
        busy = true
        revision &+= 1
        defer { busy = false }
        return try await driver.withinPageBudget { () async throws(GatewayError) -> SignInActionResult in
            let response = try await self.driver.response(endpoint: endpoint) { flow throws(HAAPIError) in
                try await flow.followAutomaticSteps(from: try await call(flow), acceptLanguage: acceptLanguage)
            }
            return await self.apply(response, preserving: typed)
        }
    }

    /// Applies the upstream's answer to a request: the next step, or a problem (``ProblemPage``), or the authorization
    /// response, whose completion ends the sign-in.
    /// - Returns: What it did: the next step, the step kept with the upstream's refusal, or the sign-in ended.
    private func apply(_ response: HAAPIResponse, preserving typed: [String: String]) async -> SignInActionResult {
        switch response {
        case .representation(let next):
            record.notePolling(of: next, at: Date())
            if next.stepKind == .oauthAuthorizationResponse { return await complete(next) }
            if record.show(next) {
                images = [:]
                logger.debug("step", metadata: ["type": "\(next.type.rawValue)", "version": .stringConvertible(record.version)])
                metrics.stepRendered(type: next.type.rawValue)
            }
            return standing
        case .problem(let problem):
            // An input problem keeps the step, with what the person typed; any other ends the sign-in (``ProblemPage``).
            switch ProblemPage(problem, shown: record.step) {
            case .keepStep(let notices, let fieldErrors, let step):
                let refusal = SignInRefusal.byUpstream(notices: notices, fieldErrors: fieldErrors, typed: typed)
                record.keep(step, refusedBy: refusal)
                return SignInActionResult(record, refusal: refusal)
            case .endFlow(let message, let failure, let links):
                record.problemLinks = links
                return await fail(message, outcome: failure)
            }
        }
    }

    /// Ends the sign-in of the flow's authorization response (``SignInCompletion``): signed in, its outcome handed to
    /// the sinks, or failed.
    /// - Returns: How it ended.
    private func complete(_ response: Representation) async -> SignInActionResult {
        switch await completion.complete(response) {
        case .signedIn(let outcome, let tokenType):
            return await signedIn(tokenType: tokenType) { await dispatcher.hand(outcome) }
        case .handedToDevice(let outcome, let deliveries, let keptWithApproval, let tokenType):
            return await signedIn(tokenType: tokenType) { await dispatcher.hand(deliveries, outcome: outcome, keptAlready: keptWithApproval) }
        case .failed(let message, let failure):
            return await fail(message, outcome: failure)
        }
    }

    /// Ends the sign-in signed in, its outcome handed to the sinks by `handOver`.
    /// - Returns: How it ended.
    private func signedIn(tokenType: String, handOver: () async -> OutcomeHandOver) async -> SignInActionResult {
        record.end(as: .signedIn)
        logger.info("sign-in completed", metadata: ["tokenType": "\(tokenType)"])
        record.deliveryDelayed = await handOver() == .retrying
        // Counted once the outcome is recorded for the sinks: a process killed before that completed nothing anyone got.
        metrics.flowEnded(.success)
        return standing
    }

    /// Ends the sign-in with a message for the person and an `error` outcome for the sinks.
    /// - Returns: How it ended.
    private func fail(_ message: PageText, outcome failure: CompletionOutcome.Failure) async -> SignInActionResult {
        record.end(as: .failed(message))
        await device?.deny(logger: logger)
        if await dispatched(.failure(failure, signIn: record.signIn)) {
            logger.info("sign-in failed", metadata: ["error": .untrusted(failure.error)])
            metrics.flowEnded(.error)
        }
        return standing
    }

    /// Hands the outcome that ends this sign-in without tokens to the sinks, and notes what became of it
    /// (``SignInRecord/note(_:)``).
    /// - Returns: Whether it is this sign-in's outcome (not another one noted first).
    private func dispatched(_ outcome: CompletionOutcome) async -> Bool {
        let handOver = await dispatcher.hand(outcome)
        return record.note(handOver)
    }
}
