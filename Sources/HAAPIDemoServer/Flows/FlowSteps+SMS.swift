extension FlowSteps {
    /// The SMS second factor (sms/sms), shaped like Curity's Duo sample (`duo-nested-selectors-continue-actions.json`):
    /// a "Send code" form whose `continueActions` hold the code form. Posting it answers `continue-same-step`
    /// (``smsCodeSent(to:)``); the client then shows the continue action with the new message first ([IOSCS][UIKIT]).
    static func smsSendCode(to maskedPhone: String, formState: String) -> Representation {
        Representation(
            type: "authentication-step",
            metadata: .init(viewName: "authenticator/sms/authenticate/get"),
            actions: [
                .form(
                    kind: "login",
                    title: "We will text a code to \(maskedPhone)",
                    .post(
                        DemoPaths.smsSendCode,
                        actionTitle: "Send code",
                        fields: [.hidden("_state", formState)],
                        continueActions: [
                            .form(
                                kind: "login",
                                title: "Enter the code",
                                .post(
                                    DemoPaths.smsVerifyCode,
                                    actionTitle: "Verify",
                                    fields: [
                                        .hidden("_state", formState),
                                        Field(name: "otp", type: "text", label: "Code", kind: "number", minLength: 6, maxLength: 6),
                                    ]
                                )
                            )
                        ]
                    )
                )
            ],
            links: [Link(href: DemoPaths.authenticate, rel: "restart", title: "Restart")],
            messages: [.heading("Verify with a code by SMS")]
        )
    }

    /// The `continue-same-step` answer of "Send code", as Curity's `continue-same-step.json` sample ("SMS sent").
    static func smsCodeSent(to maskedPhone: String) -> Representation {
        Representation(
            type: "continue-same-step",
            metadata: .init(viewName: "authenticator/sms/authenticate/code-sent"),
            messages: [.info("SMS sent to \(maskedPhone)")]
        )
    }
}
