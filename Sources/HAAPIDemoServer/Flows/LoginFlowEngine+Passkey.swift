/// The passkey (WebAuthn) option: a username form, registration after the password when the user has no passkey,
/// then authentication with a passkey.
extension LoginFlowEngine {
    /// Refused WebAuthn responses after which the flow ends.
    static let maximumPasskeyAttempts = 10

    /// `GET` the passkey option: its username form.
    func passkeyForm(_ flow: inout LoginFlow) -> FlowOutcome {
        if flow.stage == .locked { return .step(FlowSteps.locked(attempts: flow.failedPasswordAttempts)) }
        guard flow.stage != .finished, flow.stage != .consent else { return .unexpectedStep }
        reset(&flow)
        flow.stage = .passkeyUsername
        return .step(FlowSteps.passkeyForm())
    }

    /// `POST` the username: authentication when the user has a passkey; otherwise, with the right password, registration.
    func submitPasskeyUsername(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        if flow.stage == .locked { return .step(FlowSteps.locked(attempts: flow.failedPasswordAttempts)) }
        guard flow.stage == .passkeyUsername else { return .unexpectedStep }
        guard let username = form.nonEmpty("userName") else {
            return .problem(.invalidInput([.init(name: "userName", reason: "missing", detail: "You have to enter your username")]))
        }
        if let user = DemoUser.named(username), !context.passkeys.passkeys(of: user.username).isEmpty {
            flow.user = user
            return startPasskeyAuthentication(&flow, user: user)
        }
        guard let password = form.nonEmpty("password") else {
            return .problem(
                .invalidInput([.init(name: "password", reason: "missing", detail: "Enter your password to create your first passkey")])
            )
        }
        guard let user = DemoUser.named(username), RandomToken.constantTimeEquals(password, user.password) else {
            flow.failedPasswordAttempts += 1
            if flow.failedPasswordAttempts >= Self.maximumPasswordAttempts {
                flow.stage = .locked
                return .step(FlowSteps.locked(attempts: flow.failedPasswordAttempts))
            }
            return .problem(.incorrectCredentials([.error("Incorrect username or password.")]))
        }
        flow.failedPasswordAttempts = 0
        flow.user = user
        let challenge = RandomToken.make()
        flow.passkeyChallenge = challenge
        flow.stage = .passkeyRegistration
        return .step(
            FlowSteps.passkeyRegistration(
                user: user,
                userHandle: Base64URL.encode(context.passkeys.userHandle(of: user.username)),
                relyingPartyID: context.configuration.passkeyRelyingPartyID,
                challenge: challenge,
                excludedCredentialIDs: context.passkeys.passkeys(of: user.username).map { Base64URL.encode($0.credentialID) }
            )
        )
    }

    /// `POST` the registration response (JSON with the `credential` object): verified and stored, then authentication.
    func submitPasskeyRegistration(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .passkeyRegistration, let user = flow.user, let challenge = flow.passkeyChallenge else { return .unexpectedStep }
        guard let credential = form.jsonMembers["credential"] else { return .problem(Self.missingCredential) }
        switch context.webAuthn.verifyRegistration(credential, challenge: challenge) {
        case .failure(let rejection):
            return refused(&flow, rejection)
        case .success(let passkey):
            guard context.passkeys.register(passkey, for: user.username) else {
                return refused(&flow, WebAuthnRejection("the passkey is already registered"))
            }
            context.logger.info("Demo passkey registered")
            return startPasskeyAuthentication(&flow, user: user)
        }
    }

    /// `POST` the authentication response: a verified signature by one of the user's passkeys authenticates.
    func submitPasskeyAssertion(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .passkeyAuthentication, let user = flow.user, let challenge = flow.passkeyChallenge else { return .unexpectedStep }
        guard let credential = form.jsonMembers["credential"] else { return .problem(Self.missingCredential) }
        let verification = context.webAuthn.verifyAssertion(
            credential,
            challenge: challenge,
            userHandle: context.passkeys.userHandle(of: user.username),
            passkeys: context.passkeys.passkeys(of: user.username)
        )
        switch verification {
        case .failure(let rejection):
            return refused(&flow, rejection)
        case .success(let assertion):
            guard context.passkeys.recordAssertion(credentialID: assertion.credentialID, signCount: assertion.signCount, for: user.username)
            else {
                return refused(&flow, WebAuthnRejection("the signature counter did not increase"))
            }
            flow.passkeyChallenge = nil
            return authenticated(&flow)
        }
    }

    private func startPasskeyAuthentication(_ flow: inout LoginFlow, user: DemoUser) -> FlowOutcome {
        let challenge = RandomToken.make()
        flow.passkeyChallenge = challenge
        flow.failedPasskeyAttempts = 0
        flow.stage = .passkeyAuthentication
        return .step(
            FlowSteps.passkeyAuthentication(
                relyingPartyID: context.configuration.passkeyRelyingPartyID,
                challenge: challenge,
                allowedCredentialIDs: context.passkeys.passkeys(of: user.username).map { Base64URL.encode($0.credentialID) }
            )
        )
    }

    /// A refused response: `invalid-input` on `credential`, or the end of the flow after too many.
    private func refused(_ flow: inout LoginFlow, _ rejection: WebAuthnRejection) -> FlowOutcome {
        flow.failedPasskeyAttempts += 1
        context.logger.info("Demo passkey response refused", metadata: ["reason": "\(rejection.detail)"])
        guard flow.failedPasskeyAttempts < Self.maximumPasskeyAttempts else {
            flow.stage = .finished
            return .problem(
                .errorAuthorizationResponse(error: "access_denied", description: "Too many refused passkey responses", issuer: context.issuer)
            )
        }
        return .problem(rejection.problem)
    }

    private static let missingCredential = Problem.invalidInput([
        .init(name: "credential", reason: "missing", detail: "The passkey response is missing")
    ])
}
