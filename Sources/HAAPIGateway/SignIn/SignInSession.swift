import Foundation
import HAAPI
import Logging

/// What the gateway does with one person's sign-in: drives its HAAPI flow (DPoP key, HAAPI token stay inside it), checks
/// and submits forms, polls, turns problems into page texts, exchanges the code and hands the outcome over. What the
/// sign-in *is* lives in its ``SignInRecord`` (with the flow's state, what a shared store keeps, issue #20). Requests of
/// one session are serialised by the actor; a second submission while one is in flight is treated as stale.
package actor SignInSession {
    private let flow: HAAPIFlow
    private let dispatcher: CallbackDispatcher
    private let logger: FlowLogger
    /// What the sign-in is (``SignInRecord``); the properties below read and write it.
    private(set) var record: SignInRecord {
        didSet { revision &+= 1 }
    }
    /// Counts the changes to what a store keeps of this sign-in: every write to its record, and every call of its flow
    /// (which may change the flow's token, nonce, session id, cookies or step). Equal revisions mean an unchanged sign-in,
    /// so that a store need not encode it to tell.
    package private(set) var revision = 0
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
    private var lastPolledAt: Date? {
        get { record.lastPolledAt }
        set { record.lastPolledAt = newValue }
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
        self.logger = FlowLogger(logger, key: "flow", value: flowID)
    }

    /// What a store keeps of this sign-in between requests: its record and its flow's state (a secret: it holds the DPoP
    /// key and the HAAPI token; a shared store encrypts it).
    package func exportState() async -> (record: SignInRecord, flow: HAAPIFlowState, revision: Int) {
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

    /// Polls upstream for a pending polling step of version `submittedVersion` (the page's refresh), at most once per
    /// the step's interval (``PollCadence``): sooner, the step stays as it stands.
    ///
    /// Past `polling.maximumWaitSeconds`, or the step's own `maxWaitTime` when that is shorter, the sign-in ends with a
    /// clear message instead.
    /// - Returns: What it did (``SignInActionResult``).
    @discardableResult
    func poll(version submittedVersion: Int, acceptLanguage: String?) async throws(GatewayError) -> SignInActionResult {
        guard phase == .step, let step, step.stepKind == .polling, submittedVersion == version, !busy else { return result() }
        let limit = min(polling.maximumWaitSeconds, step.polling?.maximumWaitSeconds ?? .max)
        if let pollingSince, Date().timeIntervalSince(pollingSince) > Double(limit) {
            await fail(
                .gateway(.pollingTimeout),
                outcome: .init(error: "polling_timeout", errorDescription: "the polling step did not finish in time")
            )
            return result()
        }
        guard let action = step.actions.first(where: { $0.kind == .poll && $0.form != nil }) else { return result() }
        // Paced per sign-in, on every replica (the time is kept with it): a poll sooner than the step's interval is
        // answered from the last result, the step as it stands.
        let now = Date()
        let gap = PollCadence.leastGap(seconds: PollCadence.seconds(for: step, defaultSeconds: polling.defaultIntervalSeconds))
        if let lastPolledAt, now >= lastPolledAt, now.timeIntervalSince(lastPolledAt) < gap {
            return result()
        }
        lastPolledAt = now
        return try await run { flow throws(HAAPIError) in
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
        try await run(endpoint: .authorize) { flow throws(HAAPIError) in
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

    /// Submits the action at `address` of step `submittedVersion` with the browser's form values (``PostedStepForm``):
    /// missing required fields re-render the step without calling upstream. A context field of a JSON form (a WebAuthn
    /// credential) must be a bounded JSON object and is sent upstream as that object.
    /// - Returns: What it did (``SignInActionResult``).
    @discardableResult
    func submit(
        version submittedVersion: Int,
        address: ActionAddress,
        form: [String: String],
        acceptLanguage: String?
    ) async throws(GatewayError) -> SignInActionResult {
        guard let step = currentStep(for: submittedVersion) else { return result() }
        guard let action = address.resolve(in: step), let model = action.form else {
            throw GatewayError(.badRequest, .unknownButton)
        }
        let posted = PostedStepForm(model: model, posted: form)
        if posted.invalidJSON {
            notices = [.gateway(.passkeyInvalid)]
            return result()
        }
        guard posted.missing.isEmpty else {
            fieldErrors = posted.missing
            values = posted.typed
            notices = [.gateway(.fillRequired)]
            return result()
        }
        return try await run(preserving: posted.typed) { flow throws(HAAPIError) in
            try await flow.followAutomaticSteps(
                from: try await flow.submitForm(action, values: posted.parameters, acceptLanguage: acceptLanguage),
                acceptLanguage: acceptLanguage
            )
        }
    }

    /// Follows the non-image link at `index` of step `submittedVersion`.
    /// - Returns: What it did (``SignInActionResult``).
    @discardableResult
    func followLink(version submittedVersion: Int, index: Int, acceptLanguage: String?) async throws(GatewayError) -> SignInActionResult {
        guard let step = currentStep(for: submittedVersion) else { return result() }
        guard step.links.indices.contains(index), !step.links[index].isImage else {
            throw GatewayError(.badRequest, .unknownLink)
        }
        let link = step.links[index]
        return try await run { flow throws(HAAPIError) in
            try await flow.followAutomaticSteps(from: try await flow.followLink(link, acceptLanguage: acceptLanguage), acceptLanguage: acceptLanguage)
        }
    }

    /// Follows the link at `index` of the problem that ended the flow (a `restart` link): the flow goes on from the
    /// step it answers. When the upstream fails the ended page stays.
    /// - Returns: What it did (``SignInActionResult``).
    @discardableResult
    func followProblemLink(index: Int, acceptLanguage: String?) async throws(GatewayError) -> SignInActionResult {
        guard case .failed = phase, !busy else { return result() }
        guard problemLinks.indices.contains(index), !problemLinks[index].isImage else { throw GatewayError(.badRequest, .unknownLink) }
        let ended = phase
        let link = problemLinks[index]
        phase = .step
        problemLinks = []
        logger.info("problem link followed")
        do {
            return try await run { flow throws(HAAPIError) in
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
        await denyDevice()
        guard await ended(by: .cancelled(signIn: signIn)) else { return }
        logger.info("sign-in cancelled")
        metrics.flowEnded(.cancelled)
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

    /// Calls the upstream for this sign-in's requests (``FlowDriver``).
    private var driver: FlowDriver { FlowDriver(flow: flow, metrics: metrics, logger: logger) }

    private func run(
        endpoint: UpstreamEndpoint = .haapi,
        preserving typed: [String: String] = [:],
        _ call: (HAAPIFlow) async throws(HAAPIError) -> HAAPIResponse
    ) async throws(GatewayError) -> SignInActionResult {
        busy = true
        revision &+= 1
        defer { busy = false }
        let refused = try await driver.withinPageBudget { () async throws(GatewayError) -> Bool in
            try await self.advance(endpoint: endpoint, preserving: typed, call)
        }
        return result(refused: refused)
    }

    /// Where the sign-in stands, as the result of an action that did nothing (a HEAD's poll).
    var standing: SignInActionResult { result() }

    /// Where the sign-in stands, as an action's result; `refused` when the upstream refused what was posted.
    private func result(refused: Bool = false) -> SignInActionResult {
        SignInActionResult(phase: phase, refused: refused, deliveryDelayed: deliveryDelayed)
    }

    /// One request's call, the automatic steps after it and, when they end the flow, its completion, within the page's
    /// budget (``FlowDriver/pageBudget``).
    /// - Returns: Whether the upstream refused what was posted (an input problem that keeps the step).
    private func advance(
        endpoint: UpstreamEndpoint,
        preserving typed: [String: String],
        _ call: (HAAPIFlow) async throws(HAAPIError) -> HAAPIResponse
    ) async throws(GatewayError) -> Bool {
        let response = try await driver.response(endpoint: endpoint, call)
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
                    return false
                }
                step = next
                version += 1
                images = [:]
                logger.debug("step", metadata: ["type": "\(next.type.rawValue)", "version": .stringConvertible(version)])
                metrics.stepRendered(type: next.type.rawValue)
            }
            return false
        case .problem(let problem):
            return await handle(problem, typed: typed)
        }
    }

    /// Applies a problem to the page (``ProblemPage``): an input problem keeps the step, with what the person typed;
    /// any other ends the sign-in.
    /// - Returns: Whether it refused what was posted (the step kept).
    private func handle(_ problem: Problem, typed: [String: String]) async -> Bool {
        switch ProblemPage(problem, shown: step) {
        case .keepStep(let notices, let fieldErrors, let step):
            record.refusedSubmissions += 1
            self.notices = notices
            self.fieldErrors.merge(fieldErrors) { _, new in new }
            self.step = step
            values = typed
            return true
        case .endFlow(let message, let failure, let links):
            problemLinks = links
            await fail(message, outcome: failure)
            return false
        }
    }

    /// Ends the sign-in of the flow's authorization response (``SignInCompletion``): signed in, its outcome handed to
    /// the sinks, or failed.
    private func complete(_ response: Representation) async throws(GatewayError) {
        let completion = SignInCompletion(
            flow: flow,
            outcomeSettings: outcomeSettings,
            device: device,
            signIn: signIn,
            facts: facts,
            metrics: metrics,
            logger: logger
        )
        switch await completion.complete(response) {
        case .signedIn(let outcome, let tokenType):
            phase = .signedIn
            step = nil
            logger.info("sign-in completed", metadata: ["tokenType": "\(tokenType)"])
            deliveryDelayed = !(await dispatcher.deliver(outcome))
            // Counted once the outcome is recorded for the sinks: a process killed before that completed nothing anyone got.
            metrics.flowEnded(.success)
        case .failed(let message, let failure):
            await fail(message, outcome: failure)
        }
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
        await denyDevice()
        guard await ended(by: .failure(failure, signIn: signIn)) else { return }
        logger.info("sign-in failed", metadata: ["error": .untrusted(failure.error)])
        metrics.flowEnded(.error)
    }

    /// Hands the outcome that ends this sign-in without tokens to the sinks.
    /// - Returns: Whether it is this sign-in's outcome: false when another was noted first (a replica killed after it
    ///   noted a success and before it saved the sign-in, and "Try again" went on from the step before, which the
    ///   upstream had finished). After a success the page says signed in, as that replica's would have.
    private func ended(by outcome: CompletionOutcome) async -> Bool {
        switch await dispatcher.hand(outcome) {
        case .accepted:
            deliveryDelayed = false
        case .retrying:
            deliveryDelayed = true
        case .alreadyEnded(let earlier):
            // The dispatcher logged it, naming both outcomes.
            deliveryDelayed = false
            if earlier == "success" { phase = .signedIn }
            return false
        }
        return true
    }
}
