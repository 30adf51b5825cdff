import Foundation

/// The demo login flows: what each `/authn` endpoint answers for a flow in a given stage.
///
/// Runs under the flow store's lock: synchronous, no I/O beyond the in-memory outbox and code store.
struct LoginFlowEngine: Sendable {
    let context: DemoServerContext
    static let maximumPasswordAttempts = 5

    // MARK: Selector and password

    /// `GET /authn/authenticate`: the authenticator selector (also "restart").
    func selector(_ flow: inout LoginFlow) -> FlowOutcome {
        guard flow.stage != .finished, flow.stage != .locked, flow.stage != .consent else { return .unexpectedStep }
        reset(&flow)
        flow.stage = .selectingAuthenticator
        return .step(FlowSteps.selector())
    }

    /// `GET` of a username-password authenticator: its form.
    func passwordForm(_ flow: inout LoginFlow, authenticatorPath: String) -> FlowOutcome {
        if flow.stage == .locked { return .step(FlowSteps.locked(attempts: flow.failedPasswordAttempts)) }
        guard flow.stage != .finished, flow.stage != .consent else { return .unexpectedStep }
        reset(&flow)
        flow.stage = .password(authenticatorPath: authenticatorPath)
        return .step(FlowSteps.passwordForm(authenticatorPath: authenticatorPath))
    }

    /// `POST` of a username-password authenticator.
    func submitPassword(_ flow: inout LoginFlow, authenticatorPath: String, form: FormParameters) -> FlowOutcome {
        if flow.stage == .locked { return .step(FlowSteps.locked(attempts: flow.failedPasswordAttempts)) }
        guard flow.stage == .password(authenticatorPath: authenticatorPath) else { return .unexpectedStep }
        var missing: [Problem.InvalidField] = []
        if form.nonEmpty("userName") == nil {
            missing.append(.init(name: "userName", reason: "missing", detail: "You have to enter your username"))
        }
        if form.nonEmpty("password") == nil {
            missing.append(.init(name: "password", reason: "missing", detail: "You have to enter your password"))
        }
        guard missing.isEmpty, let username = form["userName"], let password = form["password"] else {
            return .problem(.invalidInput(missing))
        }
        guard let user = DemoUser.named(username), RandomToken.constantTimeEquals(password, context.password(of: user)) else {
            flow.failedPasswordAttempts += 1
            if flow.failedPasswordAttempts >= Self.maximumPasswordAttempts {
                flow.stage = .locked
                context.logger.info("Demo login flow locked after repeated wrong passwords")
                return .step(FlowSteps.locked(attempts: flow.failedPasswordAttempts))
            }
            let remaining = Self.maximumPasswordAttempts - flow.failedPasswordAttempts
            return .problem(
                .incorrectCredentials([
                    .error("Incorrect username or password."),
                    .info("\(remaining) attempt\(remaining == 1 ? "" : "s") left before the account is locked."),
                ])
            )
        }
        if user.isLocked {
            // `authentication-failed`: an input problem, the form stays valid ([UIKIT], notes 3.9).
            return .problem(
                .authenticationFailed([.error("The account \(user.username) is locked."), .info("This is a demo: sign in as another user.")])
            )
        }
        flow.failedPasswordAttempts = 0
        flow.user = user
        switch user.secondStep {
        case .notice:
            flow.stage = .notice
            return .step(FlowSteps.redirection(to: context.url(DemoPaths.notice)))
        case .emailCode:
            let code = RandomToken.digits(6)
            flow.oneTimeCode = code
            flow.stage = .enterCode
            context.outbox.send(to: user.email, kind: "one-time-code", subject: "Your demo login code", code: code)
            return .step(FlowSteps.enterCode(recipient: user.maskedEmail))
        case .approval:
            startApproval(&flow, kind: "approval-link", subject: "Approve your demo login")
            return pollingStep(flow)
        case .consent:
            return authenticated(&flow)
        case .smsCode:
            return smsSendForm(&flow, user: user)
        }
    }

    /// `GET` forgot-password link target.
    func forgotPassword(_ flow: inout LoginFlow) -> FlowOutcome {
        guard case .password = flow.stage else { return .unexpectedStep }
        return .step(FlowSteps.forgotPassword())
    }

    /// `GET` register-create link target.
    func registerCreate(_ flow: inout LoginFlow) -> FlowOutcome {
        guard case .password = flow.stage else { return .unexpectedStep }
        return .step(FlowSteps.registerCreate())
    }

    /// `POST /authn/authenticate/cancel`: the user gives up; the flow ends with `access_denied`.
    func cancel(_ flow: inout LoginFlow) -> FlowOutcome {
        guard flow.stage != .finished else { return .unexpectedStep }
        flow.stage = .finished
        return .problem(.errorAuthorizationResponse(error: "access_denied", description: "The user cancelled the login", issuer: context.issuer))
    }

    // MARK: Notice (demo user)

    /// `GET` notice, reached by the redirection-step.
    func notice(_ flow: inout LoginFlow) -> FlowOutcome {
        guard flow.stage == .notice, let user = flow.user else { return .unexpectedStep }
        return .step(FlowSteps.notice(user: user, formState: flow.formState))
    }

    /// `POST` notice "Email me a copy": the notice again, with an info message (the form has no `continueActions`,
    /// so `continue-same-step` would be wrong here [IOSCS][UIKIT]).
    func emailNoticeCopy(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .notice, let user = flow.user else { return .unexpectedStep }
        if let problem = checkHidden("_state", expected: flow.formState, in: form) { return .problem(problem) }
        context.outbox.send(to: user.email, kind: "notice-copy", subject: "Copy of your demo login notice")
        return .step(FlowSteps.notice(user: user, formState: flow.formState, sentCopyTo: user.maskedEmail))
    }

    /// `POST` notice "Continue".
    func continueAfterNotice(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .notice else { return .unexpectedStep }
        if let problem = checkHidden("_state", expected: flow.formState, in: form) { return .problem(problem) }
        return authenticated(&flow)
    }

    // MARK: One-time code

    /// `POST` the emailed code.
    func submitCode(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .enterCode, let expected = flow.oneTimeCode else { return .unexpectedStep }
        guard let code = form.nonEmpty("otp") else {
            return .problem(.invalidInput([.init(name: "otp", reason: "missing", detail: "You have to enter the code")]))
        }
        guard RandomToken.constantTimeEquals(code.trimmingCharacters(in: .whitespaces), expected) else {
            return .problem(.invalidInput([.init(name: "otp", reason: "invalidValue", detail: "The code is incorrect")]))
        }
        flow.oneTimeCode = nil
        return authenticated(&flow)
    }

    // MARK: Approval on another device

    /// `GET` poller: pending, done or failed.
    func poll(_ flow: inout LoginFlow) -> FlowOutcome {
        guard flow.stage == .awaitingApproval else { return .unexpectedStep }
        return pollingStep(flow)
    }

    /// `POST` poller with `moveOn=true` once approved.
    func moveOnAfterApproval(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .awaitingApproval, flow.approvalStatus == .approved else { return .unexpectedStep }
        if let problem = checkHidden("moveOn", expected: "true", in: form) { return .problem(problem) }
        return authenticated(&flow)
    }

    /// `POST` cancel while waiting: back to the selector.
    func cancelApproval(_ flow: inout LoginFlow) -> FlowOutcome {
        guard flow.stage == .awaitingApproval else { return .unexpectedStep }
        reset(&flow)
        flow.stage = .selectingAuthenticator
        return .step(FlowSteps.selector())
    }

    /// Records the decision taken on the approval page; false when it was already decided or timed out.
    func decide(_ flow: inout LoginFlow, approve: Bool) -> Bool {
        guard flow.stage == .awaitingApproval, flow.approvalStatus == .pending, !approvalTimedOut(flow) else { return false }
        flow.approvalStatus = approve ? .approved : .denied
        return true
    }

    private func pollingStep(_ flow: LoginFlow) -> FlowOutcome {
        let elapsed = Int(Date().timeIntervalSince(flow.approvalStartedAt ?? Date()))
        let view =
            flow.bankIDAutoStartToken.map { FlowSteps.bankIDView(autoStartToken: $0) }
            ?? FlowSteps.approvalView(
                approvalURL: context.url(DemoPaths.approvePrefix + (flow.approvalID ?? "")),
                recipient: flow.user?.maskedEmail ?? ""
            )
        return .step(
            FlowSteps.polling(
                status: flow.approvalStatus,
                view: view,
                maxWaitSeconds: context.configuration.approvalMaxWaitSeconds,
                remainingSeconds: max(0, context.configuration.approvalMaxWaitSeconds - elapsed),
                intervalSeconds: context.configuration.pollingIntervalSeconds,
                timedOut: approvalTimedOut(flow)
            )
        )
    }

    // MARK: BankID (demo)

    /// `GET` the BankID option: the BankID client operation, with an approval standing in for the app (the demo user
    /// `demo` signs in once the outbox link approves).
    func bankID(_ flow: inout LoginFlow) -> FlowOutcome {
        guard flow.stage != .finished, flow.stage != .locked, flow.stage != .consent else { return .unexpectedStep }
        reset(&flow)
        guard let user = DemoUser.named("demo") else { return .unexpectedStep }
        let token = UUID().uuidString.lowercased()
        flow.user = user
        flow.bankIDAutoStartToken = token
        startApproval(&flow, kind: "bankid-approval", subject: "Approve your demo BankID login")
        return .step(FlowSteps.bankIDLaunch(autoStartToken: token))
    }

    private func startApproval(_ flow: inout LoginFlow, kind: String, subject: String) {
        let approvalID = RandomToken.make()
        flow.approvalID = approvalID
        flow.approvalStatus = .pending
        flow.approvalStartedAt = Date()
        flow.stage = .awaitingApproval
        context.outbox.send(to: flow.user?.email ?? "", kind: kind, subject: subject, link: context.url(DemoPaths.approvePrefix + approvalID))
    }

    private func approvalTimedOut(_ flow: LoginFlow) -> Bool {
        Date().timeIntervalSince(flow.approvalStartedAt ?? Date()) > Double(context.configuration.approvalMaxWaitSeconds)
    }

    // MARK: External browser

    /// `GET` the external-browser option: the client operation.
    func externalBrowser(_ flow: inout LoginFlow) -> FlowOutcome {
        guard flow.stage != .finished, flow.stage != .locked, flow.stage != .consent else { return .unexpectedStep }
        reset(&flow)
        let launchNonce = RandomToken.make()
        flow.launchNonce = launchNonce
        flow.stage = .externalBrowser
        let launchURL = context.url(DemoPaths.externalBrowserLaunch) + "?_launch_nonce=" + launchNonce
        return .step(FlowSteps.externalBrowser(launchURL: launchURL))
    }

    /// The browser page authenticated `user`: returns the resume nonce to hand back to the client.
    func externalBrowserAuthenticated(_ flow: inout LoginFlow, user: DemoUser) -> String? {
        guard flow.stage == .externalBrowser, flow.resumeNonce == nil else { return nil }
        let resumeNonce = RandomToken.make()
        flow.resumeNonce = resumeNonce
        flow.user = user
        return resumeNonce
    }

    /// `POST` the continue action with `_resume_nonce`.
    func resumeAfterExternalBrowser(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .externalBrowser else { return .unexpectedStep }
        guard let submitted = form.nonEmpty("_resume_nonce") else {
            return .problem(.invalidInput([.init(name: "_resume_nonce", reason: "missing", detail: "The resume nonce is missing")]))
        }
        guard let expected = flow.resumeNonce, flow.user != nil, RandomToken.constantTimeEquals(submitted, expected) else {
            return .problem(.invalidInput([.init(name: "_resume_nonce", reason: "invalidValue", detail: "The resume nonce is not valid")]))
        }
        flow.resumeNonce = nil
        flow.launchNonce = nil
        return authenticated(&flow)
    }

    // MARK: Consent and the authorization response

    /// `POST` consent: submit or cancel.
    func submitConsent(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .consent else { return .unexpectedStep }
        if let problem = checkHidden("state", expected: flow.formState, in: form) { return .problem(problem) }
        if form["cancel_consent"] != nil {
            flow.stage = .finished
            return .problem(.errorAuthorizationResponse(error: "access_denied", description: "The user did not consent", issuer: context.issuer))
        }
        if let problem = checkHidden("submit_consent", expected: "submit_consent", in: form) { return .problem(problem) }
        let granted = flow.request.scopes.filter { $0 == "openid" || form.nonEmpty("consent.scope.\($0)") != nil }
        return authorizationResponse(&flow, scopes: granted)
    }

    /// Authentication is complete: consent for the consent user, otherwise the authorization response.
    func authenticated(_ flow: inout LoginFlow) -> FlowOutcome {
        flow.authenticatedAt = Date()
        guard let user = flow.user else { return .unexpectedStep }
        if user.secondStep == .consent {
            flow.stage = .consent
            flow.formState = RandomToken.make(byteCount: 16)
            return .step(
                FlowSteps.consent(
                    user: user,
                    scopes: flow.request.scopes,
                    clientName: context.client.displayName,
                    formState: flow.formState
                )
            )
        }
        return authorizationResponse(&flow, scopes: flow.request.scopes)
    }

    private func authorizationResponse(_ flow: inout LoginFlow, scopes: [String]) -> FlowOutcome {
        guard let user = flow.user else { return .unexpectedStep }
        flow.stage = .finished
        let now = Date()
        let code = context.codes.issue(
            AuthorizationCode(
                clientID: flow.request.clientID,
                redirectURI: flow.request.redirectURI,
                codeChallenge: flow.request.codeChallenge,
                subject: user.username,
                scopes: scopes,
                nonce: flow.request.nonce,
                authTime: flow.authenticatedAt ?? now,
                expiresAt: now.addingTimeInterval(context.configuration.authorizationCodeLifetimeSeconds),
                keyThumbprint: flow.keyThumbprint,
                dpopJKT: flow.request.dpopJKT
            )
        )
        return .step(
            FlowSteps.authorizationResponse(
                redirectURI: flow.request.redirectURI,
                code: code,
                state: flow.request.state,
                issuer: context.issuer
            )
        )
    }

    // MARK: Helpers

    func reset(_ flow: inout LoginFlow) {
        flow.user = nil
        flow.oneTimeCode = nil
        flow.failedCodeAttempts = 0
        flow.approvalStatus = .pending
        flow.approvalStartedAt = nil
        flow.resumeNonce = nil
        flow.launchNonce = nil
        flow.bankIDAutoStartToken = nil
        flow.passkeyChallenge = nil
    }

    /// A hidden field must come back exactly as sent.
    func checkHidden(_ name: String, expected: String, in form: FormParameters) -> Problem? {
        guard let value = form[name] else {
            return .invalidInput([.init(name: name, reason: "missing", detail: "The hidden field \(name) is missing")])
        }
        guard RandomToken.constantTimeEquals(value, expected) else {
            return .invalidInput([.init(name: name, reason: "invalidValue", detail: "The hidden field \(name) was changed")])
        }
        return nil
    }
}
