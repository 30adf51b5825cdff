extension LoginFlowEngine {
    /// Wrong codes accepted for one sent SMS code; then `too-many-attempts`, the code is void and a new one is sent.
    static let maximumCodeAttempts = 3

    /// After the password (sms user): the send form, with the code form as its continue action.
    func smsSendForm(_ flow: inout LoginFlow, user: DemoUser) -> FlowOutcome {
        flow.stage = .smsSendCode
        flow.formState = RandomToken.make(byteCount: 16)
        return .step(FlowSteps.smsSendCode(to: user.maskedPhone, formState: flow.formState))
    }

    /// `POST` "Send code": a new code in the demo outbox (addressed to the phone number), answered with
    /// `continue-same-step` since the form has `continueActions` ([IOSCS][UIKIT]). Posting it again sends a new code.
    func sendSMSCode(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .smsSendCode || flow.stage == .smsVerifyCode, let user = flow.user, let phone = user.phone else {
            return .unexpectedStep
        }
        if let problem = checkHidden("_state", expected: flow.formState, in: form) { return .problem(problem) }
        let code = RandomToken.digits(6)
        flow.oneTimeCode = code
        flow.failedCodeAttempts = 0
        flow.stage = .smsVerifyCode
        context.outbox.send(to: phone, kind: "sms-code", subject: "Your demo login code by SMS", code: code)
        return .step(FlowSteps.smsCodeSent(to: user.maskedPhone))
    }

    /// `POST` the continue action's code form; only after "Send code". A wrong code is `incorrect-credentials` (the
    /// step stays); the third wrong code is `too-many-attempts`: it voids the code and sends a new one, so the code form
    /// the person sees stays usable (an input problem keeps the step: [UIKIT], notes 3.9).
    func verifySMSCode(_ flow: inout LoginFlow, form: FormParameters) -> FlowOutcome {
        guard flow.stage == .smsVerifyCode, let expected = flow.oneTimeCode else { return .unexpectedStep }
        if let problem = checkHidden("_state", expected: flow.formState, in: form) { return .problem(problem) }
        guard let code = form.nonEmpty("otp") else {
            return .problem(.invalidInput([.init(name: "otp", reason: "missing", detail: "You have to enter the code")]))
        }
        guard RandomToken.constantTimeEquals(code.trimmingCharacters(in: .whitespaces), expected) else {
            flow.failedCodeAttempts += 1
            guard flow.failedCodeAttempts < Self.maximumCodeAttempts else {
                guard let user = flow.user, let phone = user.phone else { return .unexpectedStep }
                let fresh = RandomToken.digits(6)
                flow.oneTimeCode = fresh
                flow.failedCodeAttempts = 0
                context.outbox.send(to: phone, kind: "sms-code", subject: "Your new demo login code by SMS", code: fresh)
                return .problem(.tooManyAttempts([.error("Too many wrong codes."), .info("A new code was sent to \(user.maskedPhone).")]))
            }
            return .problem(.incorrectCredentials([.error("The code is incorrect.")]))
        }
        flow.oneTimeCode = nil
        return authenticated(&flow)
    }
}
